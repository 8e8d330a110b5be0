// The tools one run may use: gathered from every tool source, filtered by allowed_tools /
// blocked_tools, and called with a per-call time limit. A tool's failure is returned to
// the model as an error result, never thrown; only the run's own abort propagates.
import type { FastifyInstance } from 'fastify'
import type { ToolCall, ToolDefinition } from '../../core/contracts/provider.ts'
import type { ToolResult, ToolSource } from '../../core/contracts/tool-source.ts'
import type { RunConfig } from './options.ts'

export interface RunTools {
  definitions: ToolDefinition[]
  call: (call: ToolCall, signal: AbortSignal) => Promise<ToolResult>
}

export async function gatherTools (app: FastifyInstance, cfg: RunConfig): Promise<RunTools> {
  const bySource = new Map<string, { source: ToolSource, name: string }>()
  const definitions: ToolDefinition[] = []
  if (cfg.enable_tools) {
    for (const [id, source] of app.registry.toolSources.entries()) {
      let listed
      try { listed = await source.listTools() } catch (err) {
        app.log.warn({ err, source: id }, 'agent: a tool source failed to list its tools; skipped')
        continue
      }
      for (const t of listed) {
        if (bySource.has(t.name)) continue // the first source to offer a name keeps it
        if (t.status !== undefined && t.status !== 'available' && t.status !== 'connected') continue
        if (cfg.allowed_tools !== null && !cfg.allowed_tools.includes(t.name)) continue
        if (cfg.blocked_tools?.includes(t.name) === true) continue
        bySource.set(t.name, { source, name: t.name })
        definitions.push({ name: t.name, description: t.description, input_schema: t.input_schema })
      }
    }
  }
  return {
    definitions,
    call: async (call, signal) => {
      const found = bySource.get(call.name)
      if (found === undefined) {
        return { content: `Unknown or disallowed tool "${call.name}". Available: ${[...bySource.keys()].join(', ') || 'none'}.`, isError: true }
      }
      const payload = await app.hooks.run('tool:before', { tool: call.name, arguments: call.arguments })
      let result: ToolResult
      try {
        result = await found.source.callTool(found.name, payload.arguments, { signal, timeoutMs: cfg.tool_timeout_seconds * 1000 })
      } catch (err) {
        if (signal.aborted) throw err
        result = { content: `${call.name} failed: ${(err as Error).message}`, isError: true }
      }
      const after = await app.hooks.run('tool:after', { tool: call.name, arguments: payload.arguments, result })
      return after.result
    },
  }
}
