// Plugin: the `entity_linking` job: the graph store merges duplicate entities (its
// GraphMaintenance.linkEntities; memory-graph-sql has it, the algorithm is described in
// that plugin's maintenance.ts) and each committed merge runs the `memory:entity-merged`
// hook, so the memory plugin writes it to the items' histories. Declares the
// job_entity_linking_interval memory setting and the schedule it sets. A graph store
// without the member has the job report it skipped.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import type { EntityMerged } from '@agentd/sdk/contracts/memory-stores'
import { JobSetting, graphStoreFor, intervalSetting, serialized } from '@agentd/sdk/kits/memory'

export const options = Type.Object({
  similarity: Type.Number({ minimum: 0.5, maximum: 1, default: 0.95, description: 'embeddings at least this alike (cosine) are the same entity' }),
  interval_seconds: Type.Integer({ minimum: 1, maximum: 31 * 86_400, default: 3600, description: 'default schedule of the entity_linking job (the memory setting job_entity_linking_interval, once changed, wins)' }),
  max_merges: Type.Integer({ minimum: 1, maximum: 100_000, default: 500, description: 'merges per run at most' }),
}, { additionalProperties: false })

/** The job's part of /api/memory/settings. */
export const EntityLinkingSettings = Type.Object({
  job_entity_linking_interval: JobSetting.interval(60, 'entity_linking'),
}, { additionalProperties: false })

async function jobEntityLinking (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  if (app.registry.jobs.has('entity_linking')) { app.log.warn({ instance: opts.instance }, 'job-entity-linking: an entity_linking job is registered already; this instance adds none'); return }
  app.hooks.declare('memory:entity-merged')
  const onMerged = async (m: EntityMerged): Promise<void> => {
    try {
      await app.hooks.run('memory:entity-merged', m)
    } catch (err) {
      app.log.warn({ err: (err as Error).message, survivor: m.survivor.id, merged: m.merged.id }, 'job-entity-linking: a memory:entity-merged hook failed (the merge stands)')
    }
  }
  app.registry.jobs.add('entity_linking', serialized({
    name: 'entity_linking',
    description: `Merges duplicate entities (same name or alias, or embeddings at least ${opts.similarity} alike), within a channel or into _global; merges are recorded in entity_merges.`,
    schedule: { every_seconds: opts.interval_seconds },
    run: async ({ signal }) => {
      const graph = graphStoreFor(app.registry, 'entity_linking')
      if (graph.linkEntities === undefined) return { skipped: 'the graph store in use does not link entities', items_processed: 0 }
      const counts = await graph.linkEntities({ similarity: opts.similarity, maxMerges: opts.max_merges, signal, onMerged })
      return { ...counts, items_processed: counts.merged ?? 0 }
    },
  }))
  app.registry.memorySettings.add('entity_linking', { schema: EntityLinkingSettings })
  app.registry.jobSchedules.add('entity_linking', intervalSetting('entity_linking', EntityLinkingSettings, 'job_entity_linking_interval', () => app.registry.memoryJobSupport.first()?.settings()))
}

export default fp(jobEntityLinking, { name: 'job-entity-linking', fastify: '5.x' })
