// One chat completion over agentd: an adapter onto the conversation kit's pipeline, the
// same turn /api/agent/chat runs (composed system prompt, memory, agentd's tools through
// the tool loop, context fitting), with the client owning the conversation. `prepare` checks everything that can be the
// caller's mistake before any work starts (or any byte of a stream is sent); `run` does it.
import { randomBytes, randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { IncomingHttpHeaders } from 'node:http'
import type { CompletionRequest, FinishReason, Message, Provider, ToolDefinition } from '@agentd/sdk/contracts/provider'
import type { OpenAIApiOptions } from './options.ts'
import type { CompletionRequestBody } from './schema.ts'
import { OpenAIErrors } from './errors.ts'
import { convertMessages, hasImages, lastUserText, toolDefinitions } from './convert.ts'
import { requestOptions } from './request-options.ts'
import { modelResolver } from '@agentd/sdk/kits/provider'
import { promptComposer, runConversation, type ChatMemory, type TurnToStore } from '@agentd/sdk/kits/conversation'
import type { LoopEvent, ToolLoopResult } from '@agentd/sdk/kits/tools'

export interface CompletionDeps {
  app: FastifyInstance
  opts: OpenAIApiOptions
  memory: ChatMemory
  /** AGENT_MAX_CHAT_LENGTH, as for /api/agent/chat. */
  maxChatLength: number
}

export interface PreparedCompletion {
  id: string
  created: number
  body: CompletionRequestBody
  provider: Provider
  /** From the model resolver: wrapped in the provider middleware (provider hooks, limits). The model as the provider knows it. */
  model: string
  system: string[]
  conversation: Message[]
  clientTools: ToolDefinition[]
  /** tool_choice "none": no tools at all, agentd's or the client's. */
  noTools: boolean
  /** tool_choice "required" or one function: the first model call must call a tool (that one). */
  toolChoice: CompletionRequest['tool_choice']
  profile_id: string | undefined
  channel: string | undefined
  use_memory: boolean
  conversation_id: string
  settings: Omit<CompletionRequest, 'model' | 'messages' | 'tools'>
}

export interface CompletionOutcome {
  loop: ToolLoopResult
  /** `provider/model` as the upstream reported it. */
  model: string
  finish_reason: 'stop' | 'length' | 'tool_calls' | 'content_filter'
  memoryTurns: TurnToStore[]
}

function settingsOf (app: FastifyInstance, body: CompletionRequestBody): PreparedCompletion['settings'] {
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? app.agentConfig.fromFile('llm_settings.default_max_tokens')
  const s: PreparedCompletion['settings'] = {
    temperature: body.temperature ?? app.agentConfig.lookupNumber('llm_settings.default_temperature', undefined, 0.7),
  }
  if (typeof maxTokens === 'number') s.max_tokens = maxTokens
  if (typeof body.top_p === 'number') s.top_p = body.top_p
  if (typeof body.presence_penalty === 'number') s.presence_penalty = body.presence_penalty
  if (typeof body.frequency_penalty === 'number') s.frequency_penalty = body.frequency_penalty
  if (body.stop !== undefined && body.stop !== null) s.stop = typeof body.stop === 'string' ? [body.stop] : body.stop
  const rf = body.response_format
  if (rf?.type === 'json_object') s.response_format = { type: 'json_object' }
  else if (rf?.type === 'json_schema') s.response_format = { type: 'json_schema', name: rf.json_schema.name, schema: rf.json_schema.schema ?? {} }
  return s
}

export function prepareCompletion (deps: CompletionDeps, body: CompletionRequestBody, headers: IncomingHttpHeaders): PreparedCompletion {
  const { app } = deps
  const { system, messages } = convertMessages(body.messages)
  const last = lastUserText(messages)
  if (last.length > deps.maxChatLength) throw new OpenAIErrors.TOO_LONG(last.length, deps.maxChatLength)
  const { provider, model } = modelResolver(app, 'The openai-api plugin').resolve(body.model)
  if (hasImages(messages) && !provider.capabilities(model).supports_vision) {
    throw new OpenAIErrors.UNSUPPORTED(`The messages hold image parts, and ${provider.id}/${model} does not read images (set models.overrides.${model}.supports_vision if it does). Pick a vision model or send text only.`)
  }
  const ro = requestOptions(body, headers)
  promptComposer(app, 'The openai-api plugin').checkProfile(ro.profile_id) // 404 for an unknown profile
  const memoryDefault = app.agentConfig.fromFile('preferences.enable_memory_by_default')
  const noTools = body.tool_choice === 'none'
  const toolChoice = forcedToolChoice(body.tool_choice)
  if (toolChoice !== undefined && !provider.capabilities(model).supports_tools) {
    throw new OpenAIErrors.UNSUPPORTED(`tool_choice ${JSON.stringify(body.tool_choice)} needs a model that calls tools, and ${provider.id}/${model} does not (set models.overrides.${model}.supports_tools if it does). Pick another model or send tool_choice "auto".`)
  }
  return {
    id: `chatcmpl-${randomBytes(18).toString('base64url')}`,
    created: Math.floor(Date.now() / 1000),
    body,
    provider,
    model,
    system,
    conversation: messages,
    clientTools: noTools ? [] : toolDefinitions(body.tools),
    noTools,
    toolChoice,
    profile_id: ro.profile_id,
    channel: ro.channel,
    use_memory: ro.use_memory ?? (typeof memoryDefault === 'boolean' ? memoryDefault : true),
    conversation_id: ro.session_id ?? randomUUID(),
    settings: settingsOf(app, body),
  }
}

/** OpenAI's tool_choice as the provider contract's: `required`, or one function by name (`auto`, `none` and none: undefined). */
function forcedToolChoice (choice: CompletionRequestBody['tool_choice']): CompletionRequest['tool_choice'] {
  if (choice === 'required') return 'required'
  if (typeof choice === 'object') return { name: choice.function.name }
  return undefined
}

const wireFinish = (f: FinishReason): CompletionOutcome['finish_reason'] => f === 'error' ? 'stop' : f

/** One completion: the client's conversation through the conversation kit's pipeline. */
export async function runCompletion (deps: CompletionDeps, prep: PreparedCompletion, mode: { stream: boolean, signal: AbortSignal, onEvent?: (e: LoopEvent) => void | Promise<void> }): Promise<CompletionOutcome> {
  const { app, opts } = deps
  // Memory: recall for the newest user message; store it and the answer after the reply.
  // A request that only carries tool results (the client ran a tool) stores no user turn.
  const lastMessage = prep.conversation.at(-1)
  const userText = lastMessage?.role === 'user' ? lastMessage.content : ''
  // The newest user message and what follows it (tool rounds) are never trimmed.
  let lastUser = prep.conversation.length - 1
  while (lastUser > 0 && prep.conversation[lastUser].role !== 'user') lastUser--
  const split = Math.max(0, lastUser)
  const { loop, memoryTurns } = await runConversation({ app, memory: deps.memory, who: 'The openai-api plugin' }, {
    provider: prep.provider,
    model: prep.model,
    history: prep.conversation.slice(0, split),
    current: prep.conversation.slice(split),
    conversation_id: prep.conversation_id,
    channel: prep.channel,
    use_memory: prep.use_memory,
    recallText: userText !== '' ? userText : lastUserText(prep.conversation),
    userTurn: { content: userText, first: false },
    answerMetadata: () => ({ via: 'openai-api' }),
    storeEmptyAnswer: false,
    profile_id: prep.profile_id,
    // The client's system messages join the composed prompt where additional_context goes:
    // after the global prompt, the tools prompt and the profile's sections, before memory.
    additional_context: prep.system.join('\n\n'),
    offerTools: opts.enable_tools && !prep.noTools,
    toolFilter: { allowed: opts.allowed_tools, blocked: opts.blocked_tools },
    clientTools: prep.clientTools,
    toolChoice: prep.toolChoice,
    maxToolRounds: opts.max_tool_rounds,
    toolTimeoutMs: opts.tool_timeout_ms,
    settings: prep.settings,
    stream: mode.stream,
    signal: mode.signal,
    onEvent: mode.onEvent,
  })
  return {
    loop,
    model: `${prep.provider.id}/${loop.model}`,
    finish_reason: loop.client_tool_calls.length > 0 ? 'tool_calls' : wireFinish(loop.finish_reason),
    memoryTurns,
  }
}
