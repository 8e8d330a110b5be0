// Plugin: the graph memory store (entities, facts, relationships) on a Neo4j 5 server.
// NEO4J_URI (or the `uri` option) turns it on: with one set it registers its store, and,
// being listed before memory-graph-sql, it is the graph store the memory service picks
// (registry.graphStores.first()). Without one it registers nothing and the SQL graph
// store serves the role. .env is re-read by every generation, so setting or clearing
// NEO4J_URI there switches the graph store live.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import { Neo4jOptionsSchema, redactNeo4jUri, resolveNeo4jTarget, type Neo4jOptions } from './target.ts'

export const options = Neo4jOptionsSchema

async function memoryGraphNeo4j (app: FastifyInstance, opts: PluginOptions<Neo4jOptions>): Promise<void> {
  const target = resolveNeo4jTarget(app.agentConfig.env, opts)
  if (target === undefined) {
    app.log.info('memory-graph-neo4j: NEO4J_URI is not set; the graph role is left to memory-graph-sql')
    return
  }
  // The driver loads only when Neo4j is configured: ~0.5 s of CPU and ~5 MB of heap of every start otherwise.
  const [{ openDriver }, { Neo4jGraphStore }] = await Promise.all([import('./driver.ts'), import('./graph-store.ts')])
  // Pooled: a reload with the same target keeps the driver (and its connections).
  const store = await app.resources.acquire({
    kind: 'graph:neo4j',
    options: target,
    create: () => new Neo4jGraphStore({ driver: openDriver(target), database: target.database, cooldownMs: target.cooldownMs }),
    dispose: async s => { await s.close() },
  })
  try {
    await store.init()
    app.log.info({ uri: redactNeo4jUri(target.uri), database: target.database ?? '(default)' }, 'memory-graph-neo4j: connected; constraints and indexes in place')
  } catch (err) {
    app.log.warn({ uri: redactNeo4jUri(target.uri), err: (err as Error).message }, 'memory-graph-neo4j: Neo4j is not reachable yet; its schema is set up on first use')
  }
  app.registry.graphStores.add(opts.instance, store)
}

export default fp(memoryGraphNeo4j, { name: 'memory-graph-neo4j', fastify: '5.x' })
