// Plugin: the `cleanup` job: drops expired key-value keys (a key-value store that
// does not expire keys itself sweeps them) and tool invocations older than the retention.
// Works through the memory plugin's job support; without the memory plugin a run is a 503.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { memoryJobSupport, serialized } from '@agentd/sdk/kits/memory'

export const options = Type.Object({
  tool_invocation_retention_days: Type.Integer({ minimum: 1, maximum: 3650, default: 90, description: 'recorded tool invocations older than this are removed' }),
  interval_seconds: Type.Integer({ minimum: 1, maximum: 31 * 86_400, default: 3600, description: 'default schedule of the cleanup job' }),
}, { additionalProperties: false })

async function jobCleanup (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  if (app.registry.jobs.has('cleanup')) { app.log.warn({ instance: opts.instance }, 'job-cleanup: a cleanup job is registered already; this instance adds none'); return }
  const days = opts.tool_invocation_retention_days
  app.registry.jobs.add('cleanup', serialized({
    name: 'cleanup',
    description: `Drops expired key-value keys (chat sessions a store does not expire itself) and tool invocations older than ${days} days (option tool_invocation_retention_days).`,
    schedule: { every_seconds: opts.interval_seconds },
    run: async ({ signal }) => {
      const support = memoryJobSupport(app.registry, 'cleanup')
      // A store without the member (Redis expires keys itself) reports null: nothing to do there.
      const expired = await support.kv()?.sweep?.() ?? null
      signal.throwIfAborted()
      const rel = support.relational()
      const tools = rel.pruneToolInvocations === undefined ? null : await rel.pruneToolInvocations(days)
      return { working_memory_expired: expired, tool_invocations_removed: tools, items_processed: (expired ?? 0) + (tools ?? 0), tool_invocation_retention_days: days }
    },
  }))
}

export default fp(jobCleanup, { name: 'job-cleanup', fastify: '5.x' })
