// The simple-mode chat (SPEC.md "Chat flow"), shared by the JSON and the SSE endpoint: an
// adapter onto the conversation kit's pipeline. Prepare (everything that can be the
// caller's mistake, before any work or any byte of a stream), then run (the session
// around one pipeline turn, the chat's response shape).
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Message, Provider } from '@agentd/sdk/contracts/provider'
import type { ChatOptions } from './options.ts'
import type { ChatRequest, ChatResponse } from './schema.ts'
import type { SessionStore } from './sessions.ts'
import { newSession } from './sessions.ts'
import { shortId, type TaskTracker } from '@agentd/sdk/kits/tasks'
import { capHistory, promptComposer, runConversation, type ChatMemory, type TurnToStore } from '@agentd/sdk/kits/conversation'
import { ChatErrors } from './errors.ts'
import type { LoopEvent, ToolFilter, ToolLoopResult } from '@agentd/sdk/kits/tools'
import { modelResolver } from '@agentd/sdk/kits/provider'

export interface ChatDeps {
  app: FastifyInstance
  opts: ChatOptions
  sessions: SessionStore
  tasks: TaskTracker
  memory: ChatMemory
  /** AGENT_MAX_CHAT_LENGTH (10,000 characters), read when the plugin registers. */
  maxChatLength: number
}

export interface PreparedChat {
  body: ChatRequest
  /** From the model resolver: wrapped in the provider middleware (provider hooks, limits). */
  provider: Provider
  /** Model name as the provider knows it. */
  model: string
  session_id: string
  task_id: string
  temperature: number
  use_memory: boolean
  started: number
}

export interface ChatOutcome {
  response: ChatResponse
  /** Turns for memory, stored by the caller off the request path. */
  memoryTurns: TurnToStore[]
}

/** Checks everything that is the caller's mistake; throws 4xx errors before any work starts. */
export function prepareChat (deps: ChatDeps, body: ChatRequest): PreparedChat {
  const { app } = deps
  const started = performance.now()
  const limit = deps.maxChatLength
  if (body.message.length > limit) throw new ChatErrors.TOO_LONG(body.message.length, limit)
  const { provider, model } = modelResolver(app, 'The chat plugin').resolve(body.model)
  promptComposer(app, 'The chat plugin').checkProfile(body.profile_id) // 404 for an unknown profile
  const temperature = body.temperature ?? app.agentConfig.lookupNumber('llm_settings.default_temperature', undefined, 0.7)
  const memoryDefault = app.agentConfig.fromFile('preferences.enable_memory_by_default')
  return {
    body,
    provider,
    model,
    session_id: body.session_id ?? randomUUID(),
    task_id: shortId(),
    temperature,
    use_memory: body.use_memory ?? (typeof memoryDefault === 'boolean' ? memoryDefault : true),
    started,
  }
}

function toolFilter (opts: ChatOptions, body: ChatRequest): ToolFilter {
  const allowedLists = [opts.allowed_tools, body.allowed_tools].filter((l): l is string[] => Array.isArray(l))
  const allowed = allowedLists.length === 0 ? null : allowedLists.reduce((a, b) => a.filter(n => b.includes(n)))
  const blocked = [...(opts.blocked_tools ?? []), ...(body.blocked_tools ?? [])]
  return { allowed, blocked }
}

const round2 = (n: number): number => Math.round(n * 100) / 100

/** The chat's session around one turn of the conversation pipeline (the kit's runConversation). */
export async function runChat (deps: ChatDeps, prep: PreparedChat, mode: { stream: boolean, signal?: AbortSignal, onEvent?: (e: LoopEvent) => void | Promise<void> }): Promise<ChatOutcome> {
  const { app, opts } = deps
  const { body } = prep
  const task = deps.tasks.start(mode.stream ? 'chat_stream' : 'chat', 'reasoning', prep.task_id, prep.session_id)
  try {
    let session = await deps.sessions.get(prep.session_id) ?? newSession(prep.session_id)
    if (app.hooks.has('chat:request')) session = (await app.hooks.run('chat:request', { request: body, session })).session
    const user: Message = { role: 'user', content: body.message }
    const maxTokens = app.agentConfig.fromFile('llm_settings.default_max_tokens')
    let runningTools = 0
    const { loop, memoryTurns } = await runConversation({ app, memory: deps.memory, who: 'The chat plugin' }, {
      provider: prep.provider,
      model: prep.model,
      history: session.messages,
      current: [user],
      conversation_id: prep.session_id,
      channel: body.channel,
      use_memory: prep.use_memory,
      recallText: body.message,
      // In JSON mode the user turn is stored before recall (SPEC.md step 2); a stream stores both turns after it closes.
      userTurn: { content: body.message, first: !mode.stream },
      answerMetadata: () => ({ latency_ms: round2(performance.now() - prep.started) }),
      storeEmptyAnswer: true,
      profile_id: body.profile_id,
      additional_context: body.additional_context,
      system_override: body.system_override,
      offerTools: opts.enable_tools,
      toolFilter: toolFilter(opts, body),
      maxToolRounds: opts.max_tool_rounds,
      toolTimeoutMs: opts.tool_timeout_ms,
      settings: { temperature: prep.temperature, ...(typeof maxTokens === 'number' ? { max_tokens: maxTokens } : {}) },
      stream: mode.stream,
      signal: mode.signal,
      onEvent: (e) => {
        // `executing` while any tool of the round runs; `reasoning` as soon as the last one
        // is in, since the model call that reads the results comes next.
        if (e.type === 'tool_call') { runningTools++; task.set('executing') } else if (e.type === 'tool_result' && --runningTools === 0) task.set('reasoning')
        return mode.onEvent?.(e)
      },
    })

    // Append to the session as it is now, so a turn saved meanwhile by a concurrent request is kept.
    const latest = await deps.sessions.get(prep.session_id) ?? session
    latest.messages = capHistory([...latest.messages, user, ...loop.messages], opts.max_session_messages)
    latest.updated_at = new Date().toISOString()
    await deps.sessions.save(latest)

    let response = chatResponse(prep, loop, round2(performance.now() - prep.started))
    // A handler returns the response it was given, changed: the chat's own shape.
    if (app.hooks.has('chat:response')) response = (await app.hooks.run('chat:response', { request: body, response })).response as ChatResponse
    task.set('complete')
    return { response, memoryTurns }
  } finally {
    task.end()
  }
}

function chatResponse (prep: PreparedChat, loop: ToolLoopResult, totalMs: number): ChatResponse {
  const usage = { prompt_tokens: loop.usage.prompt_tokens, completion_tokens: loop.usage.completion_tokens, total_tokens: loop.usage.total_tokens }
  return {
    task_id: prep.task_id,
    status: 'complete',
    response: loop.answer,
    answer: loop.answer,
    thinking: loop.thinking,
    has_thinking: loop.has_thinking,
    session_id: prep.session_id,
    reasoning_trace: loop.provider_calls,
    reasoning_steps: loop.provider_calls,
    tokens_used: usage.total_tokens,
    total_tokens: usage.total_tokens,
    total_time_ms: totalMs,
    model: loop.model,
    provider: prep.provider.id,
    usage,
    tools_used: loop.tools_used,
  }
}
