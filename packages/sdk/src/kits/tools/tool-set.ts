// The tools one chat may offer: gathered from every registered tool source, narrowed by
// allowed/blocked lists, and called with a time limit. Whatever goes wrong in a tool
// (it throws, times out, is unknown or blocked) becomes an error result the model reads;
// only the caller's own abort propagates.
import type { ToolDefinition, ToolCall } from '../../contracts/provider.ts'
import type { ToolInfo, ToolResult, ToolSource } from '../../contracts/tool-source.ts'
import { raceAbort } from '../../kernel/settle.ts'

export interface ToolFilter {
  /** Only these tool names (null or undefined: all). */
  allowed?: string[] | null
  /** Never these tool names. */
  blocked?: string[] | null
}

export interface ToolSet {
  readonly definitions: ToolDefinition[]
  readonly infos: ToolInfo[]
  /** "- name: description" lines for the system prompt's tools section. */
  prompt: () => string
  call: (call: ToolCall, opts: { signal?: AbortSignal, timeoutMs: number }) => Promise<ToolResult>
}

interface Entry { source: ToolSource, sourceName: string, info: ToolInfo }

export function isAllowed (name: string, filter: ToolFilter): boolean {
  if (filter.blocked?.includes(name) === true) return false
  if (filter.allowed !== undefined && filter.allowed !== null && !filter.allowed.includes(name)) return false
  return true
}

/** Lists every source's tools (a source that fails to list is skipped and reported through `onError`). */
export async function collectToolSet (sources: Array<[string, ToolSource]>, filter: ToolFilter, onError?: (source: string, err: unknown) => void): Promise<ToolSet> {
  const lists = await Promise.all(sources.map(async ([sourceName, source]) => {
    try {
      return (await source.listTools()).map(info => ({ source, sourceName, info }))
    } catch (err) {
      onError?.(sourceName, err)
      return []
    }
  }))
  const byName = new Map<string, Entry>()
  for (const e of lists.flat()) {
    if (e.info.status !== undefined && e.info.status !== 'available') continue
    if (!isAllowed(e.info.name, filter)) continue
    if (!byName.has(e.info.name)) byName.set(e.info.name, e) // first source wins a name clash
  }
  const entries = [...byName.values()]
  return {
    definitions: entries.map(e => ({ name: e.info.name, description: e.info.description, input_schema: e.info.input_schema })),
    infos: entries.map(e => e.info),
    prompt: () => entries.map(e => `- ${e.info.name}: ${e.info.description}`).join('\n'),
    call: async (call, opts) => await callWithLimits(byName.get(call.name), call, opts, () => [...byName.keys()]),
  }
}

async function callWithLimits (entry: Entry | undefined, call: ToolCall, opts: { signal?: AbortSignal, timeoutMs: number }, available: () => string[]): Promise<ToolResult> {
  if (entry === undefined) {
    return { content: `Tool "${call.name}" is not available. Available tools: ${available().join(', ') || 'none'}.`, isError: true }
  }
  // One controller for the time limit and the caller's abort, its timer cleared as soon as
  // the call settles (AbortSignal.timeout would keep a timer alive for the whole limit, a
  // pile of them under a steady stream of calls).
  const outer = opts.signal
  // Read anew each time (a function, so the check before the call does not narrow it).
  const callerAborted = (): boolean => outer?.aborted === true
  if (callerAborted()) throw outer?.reason
  const limit = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => { timedOut = true; limit.abort(new DOMException(`timed out after ${opts.timeoutMs} ms`, 'TimeoutError')) }, opts.timeoutMs)
  const onOuterAbort = (): void => { limit.abort(outer?.reason) }
  outer?.addEventListener('abort', onOuterAbort, { once: true })
  try {
    return await raceAbort(entry.source.callTool(call.name, call.arguments, { signal: limit.signal, timeoutMs: opts.timeoutMs }), limit.signal)
  } catch (err) {
    if (callerAborted()) throw err
    if (timedOut) return { content: `Tool "${call.name}" timed out after ${opts.timeoutMs} ms.`, isError: true }
    return { content: `Tool "${call.name}" failed: ${(err as Error)?.message ?? String(err)}`, isError: true }
  } finally {
    clearTimeout(timer)
    outer?.removeEventListener('abort', onOuterAbort)
  }
}
