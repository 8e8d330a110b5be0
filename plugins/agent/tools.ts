// The tools one run may use: the chat plugin's tool set (every tool source, allowed_tools /
// blocked_tools applied, per-call time limit, failures returned as error results) plus
// the tool:before / tool:after hooks. Only the run's own abort propagates.
import type { FastifyInstance } from 'fastify'
import type { ToolCall, ToolDefinition } from '../../core/contracts/provider.ts'
import type { ToolResult } from '../../core/contracts/tool-source.ts'
import { collectToolSet } from '../chat/tools.ts'
import type { RunConfig } from './options.ts'

export interface RunTools {
  definitions: ToolDefinition[]
  call: (call: ToolCall, signal: AbortSignal) => Promise<ToolResult>
}

export async function gatherTools (app: FastifyInstance, cfg: RunConfig): Promise<RunTools> {
  if (!cfg.enable_tools) return { definitions: [], call: async (call) => ({ content: `Tools are disabled for this run (enable_tools is false); "${call.name}" was not called.`, isError: true }) }
  const set = await collectToolSet(app.registry.toolSources.entries(), { allowed: cfg.allowed_tools, blocked: cfg.blocked_tools },
    (source, err) => { app.log.warn({ err, source }, 'agent: a tool source failed to list its tools; skipped') })
  return {
    definitions: set.definitions,
    call: async (call, signal) => {
      const before = await app.hooks.run('tool:before', { tool: call.name, arguments: call.arguments })
      const result = await set.call({ ...call, arguments: before.arguments }, { signal, timeoutMs: cfg.tool_timeout_seconds * 1000 })
      return (await app.hooks.run('tool:after', { tool: call.name, arguments: before.arguments, result })).result
    },
  }
}
