// Plugin: the memory service. Registers the service the chat calls (registry.memory.service),
// the memory endpoints, the `memory` health section, and a daily prune of the audit log.
// Stores and embedders are other plugins, found in the registry when needed, so any
// backend can serve a role and a store that loads later (or reloads) is picked up.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from 'typebox'
import type { PluginOptions } from '../../core/types.ts'
import { MemoryServiceImpl } from './service.ts'
import { memoryRoutes } from './routes.ts'
import { memoryHealth } from './health.ts'

export const options = Type.Object({
  embedder: Type.Optional(Type.String({ minLength: 1, description: 'embedder instance; default: embed-<EMBEDDING_PROVIDER>, else embed-hash' })),
  token_budget: Type.Integer({ minimum: 50, maximum: 100_000, default: 1000, description: 'tokens of memory context injected into a prompt' }),
  top_k: Type.Integer({ minimum: 1, maximum: 50, default: 10 }),
  working_memory_turns: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
  working_memory_ttl_seconds: Type.Integer({ minimum: 1, maximum: 30 * 86_400, default: 86_400 }),
  recency_weight: Type.Number({ minimum: 0, maximum: 1, default: 0.2 }),
  recency_half_life_hours: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, default: 168 }),
  audit_retention_days: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  record_tool_invocations: Type.Boolean({ default: true, description: 'keep every tool call (procedural memory)' }),
})
type Options = Static<typeof options>

async function memory (app: FastifyInstance, opts: PluginOptions<Options>): Promise<void> {
  const svc = new MemoryServiceImpl(() => app.registry, () => app.hooks, app.log, {
    embedder: opts.embedder,
    embeddingProvider: app.agentConfig.env.EMBEDDING_PROVIDER,
    tokenBudget: opts.token_budget,
    topK: opts.top_k,
    workingMemoryTurns: opts.working_memory_turns,
    workingMemoryTtlSeconds: opts.working_memory_ttl_seconds,
    recencyWeight: opts.recency_weight,
    recencyHalfLifeHours: opts.recency_half_life_hours,
  })
  app.registry.memory.service.add(opts.instance, svc)
  app.registry.health.add(`${opts.instance}:memory`, memoryHealth(svc))
  await memoryRoutes(app, svc)

  // Every plugin has registered by now: check that stored vectors match the active embedder.
  app.addHook('onReady', async () => {
    try {
      const warning = await Promise.race([svc.checkEmbedder(), new Promise<undefined>(resolve => setTimeout(() => { resolve(undefined) }, 3000).unref())])
      if (warning !== undefined) app.log.warn(`memory: ${warning}`)
    } catch (err) {
      app.log.warn({ err: (err as Error).message }, 'memory: could not compare stored vectors with the active embedder (store down?)')
    }
  })

  if (opts.record_tool_invocations) {
    // Procedural memory: every tool call, recorded off the tool's path (never awaited, never failing it).
    app.hooks.on<{ tool: string, arguments: Record<string, unknown>, result: { content?: unknown, isError?: unknown } }>('tool:after', payload => {
      const result = typeof payload.result?.content === 'string' ? payload.result.content : JSON.stringify(payload.result ?? null)
      void svc.recordToolInvocation({
        conversation_id: null, tool: payload.tool, arguments: payload.arguments ?? {}, result: result.slice(0, 10_000),
        is_error: payload.result?.isError === true, duration_ms: null,
      }).catch(() => {})
    })
  }

  let timer: NodeJS.Timeout | undefined
  const prune = async (): Promise<void> => {
    const n = await svc.relational?.pruneAudit(opts.audit_retention_days).catch(() => 0) ?? 0
    if (n > 0) app.log.info({ removed: n }, 'memory: pruned the audit log')
  }
  app.lifecycle.add({
    name: `${opts.instance}:audit-retention`,
    activate: () => { void prune(); timer = setInterval(() => { void prune() }, 86_400_000); timer.unref() },
    deactivate: () => { clearInterval(timer) },
  })
}

export default fp(memory, { name: 'memory', fastify: '5.x' })
