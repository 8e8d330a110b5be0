// The tools one run may use: the tools kit's tool set (every tool source, allowed_tools /
// blocked_tools applied, per-call time limit, failures returned as error results) plus
// the tool:before / tool:after hooks. Only the run's own abort propagates.
import type { FastifyInstance } from 'fastify'
import type { ToolCall, ToolDefinition } from '@agentd/sdk/contracts/provider'
import type { ToolResult } from '@agentd/sdk/contracts/tool-source'
import type { TraceContext } from '@agentd/sdk'
import { collectToolSet, toolCallWithHooks } from '@agentd/sdk/kits/tools'
import type { RunConfig } from './options.ts'

export interface RunTools {
  definitions: ToolDefinition[]
  call: (call: ToolCall, signal: AbortSignal, trace?: TraceContext) => Promise<ToolResult>
}

/** `conversationId`: the run's memory conversation, given to the tool:after hook with the run's memory setting. */
export async function gatherTools (app: FastifyInstance, cfg: RunConfig, conversationId: string): Promise<RunTools> {
  if (!cfg.enable_tools) return { definitions: [], call: async (call) => ({ content: `Tools are disabled for this run (enable_tools is false); "${call.name}" was not called.`, isError: true }) }
  const set = await collectToolSet(app.registry.toolSources.entries(), { allowed: cfg.allowed_tools, blocked: cfg.blocked_tools },
    (source, err) => { app.log.warn({ err, source }, 'agent: a tool source failed to list its tools; skipped') })
  return {
    definitions: set.definitions,
    // Agent runs have no memory channel: memory stores them in its default one.
    call: async (call, signal, trace) => await toolCallWithHooks(app.hooks, call,
      async (c) => await set.call(c, { signal, timeoutMs: cfg.tool_timeout_seconds * 1000, trace }),
      { conversation_id: conversationId, channel: null, use_memory: cfg.enable_memory }),
  }
}
