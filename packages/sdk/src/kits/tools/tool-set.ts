// The tools one chat may offer: gathered from every registered tool source, narrowed by
// allowed/blocked lists, and called with a time limit. Whatever goes wrong in a tool
// (it throws, times out, is unknown or blocked) becomes an error result the model reads;
// only the caller's own abort propagates.
import type { ToolDefinition, ToolCall } from '../../contracts/provider.ts'
import type { ToolInfo, ToolResult, ToolSource } from '../../contracts/tool-source.ts'
import { currentCap } from '../../kernel/concurrency.ts'
import { inSpan, tracing, type TraceContext } from '../../kernel/telemetry.ts'

export interface ToolFilter {
  /** Only these tool names (null or undefined: all). */
  allowed?: string[] | null
  /** Never these tool names. */
  blocked?: string[] | null
}

/** `trace`: the caller's trace context, the parent of the call's `execute_tool` span. */
export interface ToolSetCallOptions { signal?: AbortSignal, timeoutMs: number, trace?: TraceContext }

export interface ToolSet {
  readonly definitions: ToolDefinition[]
  readonly infos: ToolInfo[]
  /** "- name: description" lines for the system prompt's tools section. */
  prompt: () => string
  call: (call: ToolCall, opts: ToolSetCallOptions) => Promise<ToolResult>
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
    call: (call, opts) => tracing() ? tracedCall(byName.get(call.name), call, opts, () => [...byName.keys()]) : callWithLimits(byName.get(call.name), call, opts, () => [...byName.keys()]),
  }
}

/** A tool call in its `execute_tool` span (GenAI semantic conventions); a tool's error result marks the span failed. */
async function tracedCall (entry: Entry | undefined, call: ToolCall, opts: ToolSetCallOptions, available: () => string[]): Promise<ToolResult> {
  const attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': call.name,
    'gen_ai.tool.call.id': call.id,
    'agentd.tool.server': entry?.info.server ?? 'unknown',
    'agentd.tool.source': entry?.sourceName ?? 'unknown',
  }
  return await inSpan(`execute_tool ${call.name}`, attributes, async (span, ctx) => {
    const result = await callWithLimits(entry, call, { ...opts, trace: ctx }, available)
    span?.setAttribute('agentd.tool.outcome', result.isError === true ? 'error' : 'ok')
    if (result.isError === true) span?.setAttribute('error.type', 'tool_error')
    return result
  }, undefined, opts.trace)
}

function callWithLimits (entry: Entry | undefined, call: ToolCall, opts: ToolSetCallOptions, available: () => string[]): Promise<ToolResult> {
  if (entry === undefined) {
    return Promise.resolve({ content: `Tool "${call.name}" is not available. Available tools: ${available().join(', ') || 'none'}.`, isError: true })
  }
  const outer = opts.signal
  if (outer?.aborted === true) return Promise.reject(outer.reason)
  // The process's cap on tool calls at once (AGENT_MAX_CONCURRENT_TOOL_CALLS): past it the
  // model reads that the server is busy, as it reads any tool failure.
  let release: () => void
  try {
    release = currentCap('tool_calls').acquire()
  } catch (err) {
    return Promise.resolve({ content: `Tool "${call.name}" was not run: ${(err as Error).message}`, isError: true })
  }
  // One promise settled by whichever comes first: the tool, the time limit, or the
  // caller's abort. The tool gets one signal for both (the limit's controller, aborted by
  // the caller's abort too), so a tool that honours it stops; one that does not is left
  // behind, its late answer ignored. The timer is cleared as soon as the call settles
  // (AbortSignal.timeout would keep one alive for the whole limit under a steady stream of
  // calls). Written as one explicit promise rather than an async function over a race: on
  // a fast tool (MCP over stdio, ~250 us a call) the async layers were measurable.
  return new Promise<ToolResult>((resolve, reject) => {
    const limit = new AbortController()
    let settled = false
    const done = (): boolean => {
      if (settled) return false
      settled = true
      release()
      clearTimeout(timer)
      outer?.removeEventListener('abort', onOuterAbort)
      return true
    }
    const onOuterAbort = (): void => {
      if (!done()) return
      limit.abort(outer?.reason)
      reject(outer?.reason)
    }
    const timer = setTimeout(() => {
      if (!done()) return
      limit.abort(new DOMException(`timed out after ${opts.timeoutMs} ms`, 'TimeoutError'))
      resolve({ content: `Tool "${call.name}" timed out after ${opts.timeoutMs} ms.`, isError: true })
    }, opts.timeoutMs)
    outer?.addEventListener('abort', onOuterAbort, { once: true })
    let pending: Promise<ToolResult>
    try {
      pending = entry.source.callTool(call.name, call.arguments, { signal: limit.signal, timeoutMs: opts.timeoutMs, trace: opts.trace })
    } catch (err) {
      pending = Promise.reject(err)
    }
    pending.then(result => { if (done()) resolve(result) }, (err: unknown) => {
      if (!done()) return
      if (outer?.aborted === true) { reject(err); return }
      resolve({ content: `Tool "${call.name}" failed: ${(err as Error)?.message ?? String(err)}`, isError: true })
    })
  })
}
