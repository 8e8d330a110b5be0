// One chat completion over agentd: an adapter onto the conversation kit's pipeline, the
// same turn /api/agent/chat runs (composed system prompt, memory, agentd's tools through
// the tool loop, context fitting), with the client owning the conversation. The request was
// checked (prepare.ts); this maps it onto a ConversationRequest and the result back.
import type { FinishReason } from '@agentd/sdk/contracts/provider'
import type { TraceContext } from '@agentd/sdk'
import { lastUserText } from './convert.ts'
import { runConversation, type TurnToStore } from '@agentd/sdk/kits/conversation'
import type { LoopEvent, ToolLoopResult } from '@agentd/sdk/kits/tools'
import type { CompletionDeps, PreparedCompletion } from './prepare.ts'

export interface CompletionOutcome {
  loop: ToolLoopResult
  /** `provider/model` as the upstream reported it. */
  model: string
  finish_reason: 'stop' | 'length' | 'tool_calls' | 'content_filter'
  memoryTurns: TurnToStore[]
}

const wireFinish = (f: FinishReason): CompletionOutcome['finish_reason'] => f === 'error' ? 'stop' : f

/** One completion: the client's conversation through the conversation kit's pipeline. */
export async function runCompletion (deps: CompletionDeps, prep: PreparedCompletion, mode: { stream: boolean, signal: AbortSignal, trace?: TraceContext, onEvent?: (e: LoopEvent) => void | Promise<void> }): Promise<CompletionOutcome> {
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
    trace: mode.trace,
    onEvent: mode.onEvent,
  })
  return {
    loop,
    model: `${prep.provider.id}/${loop.model}`,
    finish_reason: loop.client_tool_calls.length > 0 ? 'tool_calls' : wireFinish(loop.finish_reason),
    memoryTurns,
  }
}
