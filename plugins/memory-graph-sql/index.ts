// Plugin: the graph memory store (entities, facts, relationships) on the same SQL
// database as memory-sql: same options, same pooled connection. The embedded default
// until a graph database backend is configured. Its maintenance (decay, entity linking)
// is offered through the store (GraphMaintenance) to the job-decay and job-entity-linking
// plugins, which schedule it.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import { Type, type Static } from '@agentd/sdk/typebox'
import { SqlOptionsSchema, acquireSql, resolveTarget } from '@agentd/sdk/kits/sql'
import { SqlGraphStore } from './graph-store.ts'

export const options = Type.Object({
  ...SqlOptionsSchema.properties,
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
}

export default fp(memoryGraphSql, { name: 'memory-graph-sql', fastify: '5.x' })
