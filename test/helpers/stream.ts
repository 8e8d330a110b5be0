// Reading a provider's stream in tests: every part, the text and reasoning it carried, its
// tool calls and its finish part; and the error a promise rejects with.
import type { FinishPart, StreamPart, ToolCall } from '@agentd/sdk/contracts/provider'

export async function collect (it: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const out: StreamPart[] = []
  for await (const p of it) out.push(p)
  return out
}

/** Like `collect`, but a failure mid-stream keeps the parts that came before it. */
export async function collectUntilError (it: AsyncIterable<StreamPart>): Promise<{ parts: StreamPart[], error: ProviderFailure | undefined }> {
  const parts: StreamPart[] = []
  try {
    for await (const p of it) parts.push(p)
  } catch (err) {
    return { parts, error: err as ProviderFailure }
  }
  return { parts, error: undefined }
}

export const textOf = (parts: StreamPart[]): string => parts.map(p => p.type === 'text-delta' ? p.delta : '').join('')
export const reasoningOf = (parts: StreamPart[]): string => parts.map(p => p.type === 'reasoning-delta' ? p.delta : '').join('')
export const toolCallsOf = (parts: StreamPart[]): ToolCall[] => parts.flatMap(p => p.type === 'tool-call' ? [p.call] : [])

/** The finish part, which must be the last one. */
export function finishOf (parts: StreamPart[]): FinishPart {
  const last = parts.at(-1)
  if (last?.type !== 'finish') throw new Error(`the stream did not end with a finish part: ${JSON.stringify(last)}`)
  return last
}

export type ProviderFailure = Error & { statusCode?: number, code?: string, retryAfter?: number, upstreamStatus?: number }

export async function rejection (p: Promise<unknown>): Promise<ProviderFailure> {
  try { await p } catch (err) { return err as ProviderFailure }
  throw new Error('expected a rejection')
}
