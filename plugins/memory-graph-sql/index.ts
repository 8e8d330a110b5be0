// Plugin: the graph memory store (entities, facts, relationships) on the same SQL
// database as memory-sql: same options, same pooled connection. The embedded default
// until a graph database backend is configured. Registers the `decay` and
// `entity_linking` jobs (maintenance.ts) for the jobs plugin, and runs the
// `memory:entity-merged` hook after each merge the latter commits.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { EntityMerged } from '@agentd/sdk/contracts/memory-stores'
import { SqlOptionsSchema, acquireSql, resolveTarget } from '@agentd/sdk/kits/sql'
import { SqlGraphStore } from './graph-store.ts'
import { graphJobs } from './maintenance.ts'

export const options = Type.Object({
  ...SqlOptionsSchema.properties,
  decay_half_life_days: Type.Number({ exclusiveMinimum: 0, maximum: 36_500, default: 30, description: 'decay job: salience halves for every this many days an entity or fact goes unrecalled' }),
  decay_min_idle_hours: Type.Number({ minimum: 0, maximum: 87_600, default: 24, description: 'decay job: items recalled within this many hours are left alone' }),
  decay_interval_seconds: Type.Integer({ minimum: 1, maximum: 31 * 86_400, default: 86_400, description: 'default schedule of the decay job' }),
  entity_link_similarity: Type.Number({ minimum: 0.5, maximum: 1, default: 0.95, description: 'entity_linking job: embeddings at least this alike (cosine) are the same entity' }),
  entity_link_interval_seconds: Type.Integer({ minimum: 1, maximum: 31 * 86_400, default: 3600, description: 'default schedule of the entity_linking job' }),
  entity_link_max_merges: Type.Integer({ minimum: 1, maximum: 100_000, default: 500, description: 'entity_linking job: merges per run at most' }),
}, { additionalProperties: false })

async function memoryGraphSql (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  const handle = await acquireSql(app, resolveTarget(app, opts))
  const store = new SqlGraphStore(handle)
  try {
    await store.init()
    if (store.upgraded.length > 0) app.log.info({ backend: handle.label, tables: store.upgraded }, 'memory-graph-sql: pgvector is available now: embedding columns converted from real[] to vector')
  } catch (err) {
    app.log.warn({ backend: handle.label, err: (err as Error).message }, 'memory-graph-sql: the database is not reachable yet; it is set up on first use')
  }
  app.registry.graphStores.add(opts.instance, store)
  app.hooks.declare('memory:entity-merged')
  const onMerged = async (m: EntityMerged): Promise<void> => {
    try {
      await app.hooks.run('memory:entity-merged', m)
    } catch (err) {
      app.log.warn({ err: (err as Error).message, survivor: m.survivor.id, merged: m.merged.id }, 'memory-graph-sql: a memory:entity-merged hook failed (the merge stands)')
    }
  }
  // Maintenance of this store's data, scheduled by the jobs plugin; a second instance leaves the names to the first.
  for (const job of graphJobs(async fn => await store.maintain(fn), {
    halfLifeDays: opts.decay_half_life_days,
    minIdleHours: opts.decay_min_idle_hours,
    decayEverySeconds: opts.decay_interval_seconds,
    linkSimilarity: opts.entity_link_similarity,
    linkEverySeconds: opts.entity_link_interval_seconds,
    linkMaxMerges: opts.entity_link_max_merges,
  }, onMerged)) if (!app.registry.jobs.has(job.name)) app.registry.jobs.add(job.name, job)
}

export default fp(memoryGraphSql, { name: 'memory-graph-sql', fastify: '5.x' })
