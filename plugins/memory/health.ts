// The `memory` section of GET /api/health?include_memory=true. Keys neo4j, postgres and
// redis are the three store roles (graph, relational+vector, key-value) per DECISIONS.md,
// whatever backend serves them; `embedder` says which embedder is active.
import type { HealthContributor, HealthSection } from '@agentd/sdk/contracts/health'
import type { StoreHealth } from '@agentd/sdk/contracts/memory-stores'
import type { MemoryServiceImpl } from './service.ts'
import type { GraphBackfill } from './graph-backfill.ts'

const NOT_CONFIGURED: StoreHealth = { status: 'not_configured', backend: 'none' }

export function memoryHealth (svc: MemoryServiceImpl, backfill?: GraphBackfill): HealthContributor {
  return {
    section: 'memory',
    optIn: 'include_memory',
    check: async (): Promise<HealthSection> => {
      const ask = async (s: { health: () => Promise<StoreHealth> } | undefined): Promise<StoreHealth> => {
        if (s === undefined) return NOT_CONFIGURED
        try { return await s.health() } catch (err) { return { status: 'unhealthy', backend: 'unknown', error: (err as Error).message } }
      }
      const [neo4j, postgres, redis] = await Promise.all([ask(svc.ctx.graph), ask(svc.ctx.relational), ask(svc.ctx.kv)])
      const e = svc.embedding.embedder()
      const embedder = e === undefined
        ? { status: 'not_configured' }
        : {
            id: e.id, dimensions: e.dimensions, ...(e.status?.() ?? { status: 'ready' }), ...(svc.drift.warning === undefined ? {} : { warning: svc.drift.warning }),
            reembed: svc.drift.reembedder.progress(),
          }
      // Writes kept while a store was down, waiting to be stored (absent with the outbox off).
      const outbox = svc.ctx.outbox?.status()
      // Copies for a graph store that keeps them (Neo4j), shown while any wait (graph-copy.ts).
      const copies = svc.copies.outbox?.status()
      const graphCopies = copies === undefined || copies.pending === 0 ? {} : { graph_copy_outbox: copies }
      const unhealthy = [neo4j, postgres, redis].some(s => s.status === 'unhealthy') || outbox?.status === 'full' || copies?.status === 'full'
      const configured = [neo4j, postgres, redis].some(s => s.status !== 'not_configured')
      // The copying of items written before the graph store was configured, once it has started (graph-backfill.ts).
      const fill = backfill?.progress()
      const graphBackfill = fill === undefined || fill.status === 'idle' ? {} : { graph_backfill: fill }
      return { status: unhealthy ? 'unhealthy' : configured ? 'healthy' : 'not_configured', neo4j, postgres, redis, embedder, ...(outbox === undefined ? {} : { outbox }), ...graphCopies, ...graphBackfill }
    },
  }
}
