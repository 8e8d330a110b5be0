// Fitting a conversation into the model's context window. Tokens are estimated from
// characters (about four per token, plus a per-message overhead): a deliberately
// conservative guess that needs no tokenizer per model. History is dropped a whole
// turn at a time (a user message and everything up to the next one), oldest first,
// so a tool call is never separated from its result; the system prompt and the
// current turn are always kept.
import type { Message, ModelCapabilities, ToolDefinition } from '../../contracts/provider.ts'

const CHARS_PER_TOKEN = 4
const MESSAGE_OVERHEAD = 4

export function estimateTokens (m: Message): number {
  let chars = m.content.length
  if (m.tool_calls !== undefined) for (const c of m.tool_calls) chars += c.name.length + JSON.stringify(c.arguments).length + 16
  if (m.name !== undefined) chars += m.name.length
  return Math.ceil(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD
}

export function estimateToolTokens (tools: ToolDefinition[] | undefined): number {
  if (tools === undefined || tools.length === 0) return 0
  return Math.ceil(JSON.stringify(tools).length / CHARS_PER_TOKEN)
}

/** Splits messages into turns: each starts at a user message (leading non-user messages form their own turn). */
export function turnsOf (messages: Message[]): Message[][] {
  const turns: Message[][] = []
  for (const m of messages) {
    if (m.role === 'user' || turns.length === 0) turns.push([m])
    else turns[turns.length - 1].push(m)
  }
  return turns
}

/** Tokens the prompt may use: the window minus room for the answer and the tool definitions. */
export function promptBudget (caps: ModelCapabilities, tools?: ToolDefinition[]): number {
  const window = caps.context_window
  const reserve = Math.min(caps.max_output_tokens ?? 1024, Math.floor(window / 4))
  return Math.max(0, window - reserve - estimateToolTokens(tools))
}

export interface FitResult { messages: Message[], droppedTurns: number }

/**
 * Keeps `messages[0, pinnedHead)` (the system prompt) and `messages[pinnedFrom, end)`
 * (the current turn, tool rounds included); drops the oldest whole turns in between
 * until the estimate fits `budget`. When even the pinned parts do not fit, they are sent
 * as they are and the provider decides.
 */
export function fitToBudget (messages: Message[], opts: { pinnedHead: number, pinnedFrom: number, budget: number }): FitResult {
  const head = messages.slice(0, opts.pinnedHead)
  const middle = messages.slice(opts.pinnedHead, opts.pinnedFrom)
  const tail = messages.slice(opts.pinnedFrom)
  let total = messages.reduce((n, m) => n + estimateTokens(m), 0)
  if (total <= opts.budget) return { messages, droppedTurns: 0 }
  const turns = turnsOf(middle)
  let dropped = 0
  while (dropped < turns.length && total > opts.budget) {
    total -= turns[dropped].reduce((n, m) => n + estimateTokens(m), 0)
    dropped++
  }
  return { messages: [...head, ...turns.slice(dropped).flat(), ...tail], droppedTurns: dropped }
}

/** Caps a stored history at `max` messages, dropping whole turns from the front. */
export function capHistory (messages: Message[], max: number): Message[] {
  if (messages.length <= max) return messages
  const turns = turnsOf(messages)
  let count = messages.length
  let i = 0
  while (i < turns.length - 1 && count > max) { count -= turns[i].length; i++ }
  return turns.slice(i).flat()
}
