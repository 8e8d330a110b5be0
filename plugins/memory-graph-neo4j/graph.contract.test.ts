// The graph store contract (test/memory/graph-contract.ts) against a live Neo4j 5 server,
// when NEO4J_URI is set (NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE as for the server).
// The suite empties the database it runs on, so it refuses one that already holds
// agentd's nodes: point NEO4J_URI (or NEO4J_DATABASE) at a scratch database.
import t, { type Test } from 'tap'
import { graphConsolidationContract, graphCopiesContract, graphJobsContract, graphStoreContract } from '../../test/memory/graph-contract.ts'
import { openDriver } from './driver.ts'
import { Neo4jGraphStore } from './graph-store.ts'
import { resolveNeo4jTarget } from './target.ts'

const target = resolveNeo4jTarget(process.env, { pool_size: 4, connect_timeout_ms: 5000, circuit_cooldown_ms: 0 })

async function open (t: Test): Promise<Neo4jGraphStore> {
  if (target === undefined) throw new Error('unreachable: skipped without NEO4J_URI')
  const store = new Neo4jGraphStore({ driver: openDriver(target), database: target.database, cooldownMs: 0 })
  t.teardown(async () => { await store.deleteAll().catch(() => {}); await store.close() })
  const held = Object.values(await store.countByChannel()).reduce((n, c) => n + (c.entities ?? 0) + (c.facts ?? 0), 0)
  if (held > 0) throw new Error(`NEO4J_URI's database already holds ${held} agentd entities and facts; this test empties its database, so point it at a scratch one (NEO4J_DATABASE).`)
  return store
}

const skip = target === undefined
  ? 'NEO4J_URI is not set: no Neo4j server can be installed on agentd\'s development and CI machines (no network but npm and Debian), so the live contract runs only where one is given; graph-store.test.ts and cypher.test.ts check the store without a server'
  : false

t.test('graph store on neo4j', { skip }, async t => {
  // One suite after the other: both empty the same database in teardown.
  t.test('contract', async t => { graphStoreContract(t, open) })
  t.test('jobs contract', async t => { graphJobsContract(t, open) })
  t.test('consolidation contract', async t => { graphConsolidationContract(t, open) })
  t.test('copies contract', async t => { graphCopiesContract(t, open) })
})
