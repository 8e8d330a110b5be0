// A chat completion request checked and resolved before any work starts (or any byte of a
// stream is sent): the client's messages converted, the model resolved, everything that can
// be the caller's mistake a 4xx here.
import { randomBytes, randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { IncomingHttpHeaders } from 'node:http'
import type { CompletionRequest, Message, Provider, ToolDefinition } from '@agentd/sdk/contracts/provider'
import type { OpenAIApiOptions } from './options.ts'
import type { CompletionRequestBody } from './schema.ts'
import { OpenAIErrors } from './errors.ts'
import { convertMessages, hasImages, lastUserText, toolDefinitions } from './convert.ts'
import { requestOptions } from './request-options.ts'
import { modelResolver } from '@agentd/sdk/kits/provider'
import { promptComposer, type ChatMemory } from '@agentd/sdk/kits/conversation'

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
