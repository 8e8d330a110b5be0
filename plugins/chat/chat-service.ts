// The simple-mode chat (SPEC.md "Chat flow"), shared by the JSON and the SSE endpoint: an
// adapter onto the conversation kit's pipeline. The request was checked (prepare.ts); this
// runs the session around one pipeline turn and shapes the chat's response.
import type { Message } from '@agentd/sdk/contracts/provider'
import type { TraceContext } from '@agentd/sdk'
import type { ChatResponse } from './schema.ts'
import { newSession } from './sessions.ts'
import { capHistory, runConversation, type TurnToStore } from '@agentd/sdk/kits/conversation'
import type { LoopEvent, ToolLoopResult } from '@agentd/sdk/kits/tools'
import { toolFilter, type ChatDeps, type PreparedChat } from './prepare.ts'

export interface ChatOutcome {
  response: ChatResponse
  /** Turns for memory, stored by the caller off the request path. */
  memoryTurns: TurnToStore[]
}

const round2 = (n: number): number => Math.round(n * 100) / 100

/** The chat's session around one turn of the conversation pipeline (the kit's runConversation). */
export async function runChat (deps: ChatDeps, prep: PreparedChat, mode: { stream: boolean, signal?: AbortSignal, trace?: TraceContext, onEvent?: (e: LoopEvent) => void | Promise<void> }): Promise<ChatOutcome> {
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
      trace: mode.trace,
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
