// The graph store contract (test/memory/graph-contract.ts, the suite the SQL store passes on
// PGlite and PostgreSQL) against a real Neo4j 5 server (test/neo4j/server.ts), with the
// store's schema, full-text and vector indexes and channel deletion on it.
import t, { type Test } from 'tap'
import { graphConsolidationContract, graphCopiesContract, graphJobsContract, graphStoreContract } from '../../test/memory/graph-contract.ts'
import { liveNeo4j, neo4jSkip, type LiveNeo4j } from '../../test/neo4j/server.ts'
import { openDriver } from './driver.ts'
import { Neo4jGraphStore } from './graph-store.ts'
import { resolveNeo4jTarget } from './target.ts'

const skip = neo4jSkip()
const root = t

// One server for the file, started on first use (skipped files start none).
let server: Promise<LiveNeo4j> | undefined
async function open (t: Test): Promise<Neo4jGraphStore> {
  server ??= liveNeo4j(root)
  const target = resolveNeo4jTarget((await server).env, { pool_size: 4, connect_timeout_ms: 5000, circuit_cooldown_ms: 0 })
  if (target === undefined) throw new Error('unreachable: the live server gives NEO4J_URI')
  const store = new Neo4jGraphStore({ driver: openDriver(target), database: target.database, cooldownMs: 0 })
  t.teardown(async () => { await store.deleteAll().catch(() => {}); await store.close() })
  return store
}

t.test('graph store on neo4j', { skip }, async t => {
  // One suite after the other: all of them use the same server, emptied in teardown.
  t.test('contract', async t => { graphStoreContract(t, open) })
  t.test('jobs contract', async t => { graphJobsContract(t, open) })
  t.test('consolidation contract', async t => { graphConsolidationContract(t, open) })
  t.test('copies contract', async t => { graphCopiesContract(t, open) })
})
