// Plugin: the `decay` job: the graph store lowers the salience of entities and current
// facts nobody recalled lately (its GraphMaintenance.decay; memory-graph-sql has it). A
// graph store without the member has the job report it skipped.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { graphStoreFor, serialized } from '@agentd/sdk/kits/memory'

export const options = Type.Object({
  half_life_days: Type.Number({ exclusiveMinimum: 0, maximum: 36_500, default: 30, description: 'salience halves for every this many days an entity or fact goes unrecalled' }),
  min_idle_hours: Type.Number({ minimum: 0, maximum: 87_600, default: 24, description: 'items recalled within this many hours are left alone' }),
  interval_seconds: Type.Integer({ minimum: 1, maximum: 31 * 86_400, default: 86_400, description: 'default schedule of the decay job' }),
}, { additionalProperties: false })

async function jobDecay (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  if (app.registry.jobs.has('decay')) { app.log.warn({ instance: opts.instance }, 'job-decay: a decay job is registered already; this instance adds none'); return }
  app.registry.jobs.add('decay', serialized({
    name: 'decay',
    description: `Halves the salience of entities and facts for every ${opts.half_life_days} days they go unrecalled (option half_life_days).`,
    schedule: { every_seconds: opts.interval_seconds },
    run: async () => {
      const graph = graphStoreFor(app.registry, 'decay')
      if (graph.decay === undefined) return { skipped: 'the graph store in use does not decay salience', items_processed: 0 }
      const r = await graph.decay({ halfLifeDays: opts.half_life_days, minIdleHours: opts.min_idle_hours })
      return { entities_decayed: r.entities, facts_decayed: r.facts, half_life_days: opts.half_life_days, items_processed: r.entities + r.facts }
    },
  }))
}

export default fp(jobDecay, { name: 'job-decay', fastify: '5.x' })
