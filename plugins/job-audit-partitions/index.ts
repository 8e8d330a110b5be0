// Plugin: the `audit_partitions` job: keeps the memory audit log (the items' histories) to
// its retention. Works through the memory plugin's job support; without the memory plugin
// a run is a 503.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { memoryJobSupport, serialized } from '@agentd/sdk/kits/memory'

export const options = Type.Object({
  retention_days: Type.Integer({ minimum: 1, maximum: 3650, default: 30, description: 'audit-log entries older than this are removed' }),
  interval_seconds: Type.Integer({ minimum: 1, maximum: 7 * 86_400, default: 86_400, description: 'default schedule of the audit_partitions job' }),
}, { additionalProperties: false })

async function jobAuditPartitions (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  if (app.registry.jobs.has('audit_partitions')) { app.log.warn({ instance: opts.instance }, 'job-audit-partitions: an audit_partitions job is registered already; this instance adds none'); return }
  const days = opts.retention_days
  app.registry.jobs.add('audit_partitions', serialized({
    name: 'audit_partitions',
    description: `Removes audit-log entries older than ${days} days (option retention_days).`,
    schedule: { every_seconds: opts.interval_seconds },
    run: async () => {
      const removed = await memoryJobSupport(app.registry, 'audit_partitions').relational().pruneAudit(days)
      return { removed, items_processed: removed, retention_days: days }
    },
  }))
}

export default fp(jobAuditPartitions, { name: 'job-audit-partitions', fastify: '5.x' })
