// The graph store contract (test/memory/graph-contract.ts, the suite the SQL store passes on
// PGlite and PostgreSQL) against a real Neo4j 5 server (test/neo4j/server.ts), with the
// store's schema, full-text and vector indexes and channel deletion on it.
import t, { type Test } from 'tap'
import { graphConsolidationContract, graphCopiesContract, graphJobsContract, graphStoreContract } from '../../test/memory/graph-contract.ts'
import { liveNeo4j, neo4jSkip, type LiveNeo4j } from '../../test/neo4j/server.ts'
import { openDriver } from './driver.ts'
import { Neo4jGraphStore } from './graph-store.ts'
import { resolveNeo4jTarget } from './target.ts'
import { SCHEMA } from './schema.ts'
import neo4j from 'neo4j-driver'

// The first Neo4j of a run waits for the launcher's JVM: on two busy cores that can take a minute.
t.setTimeout(300_000)

const skip = neo4jSkip()
const root = t

// One server for the file, started on first use (skipped files start none).
let server: Promise<LiveNeo4j> | undefined
async function newStore (t: Test): Promise<Neo4jGraphStore> {
  server ??= liveNeo4j(root)
  const target = resolveNeo4jTarget((await server).env, { pool_size: 4, connect_timeout_ms: 5000, circuit_cooldown_ms: 0 })
  if (target === undefined) throw new Error('unreachable: the live server gives NEO4J_URI')
  const store = new Neo4jGraphStore({ driver: openDriver(target), database: target.database, cooldownMs: 0 })
  t.teardown(async () => { await store.close() })
  return store
}

// The contract suites share one store (its schema set up once), emptied after each suite.
let shared: Promise<Neo4jGraphStore> | undefined
async function open (t: Test): Promise<Neo4jGraphStore> {
  shared ??= newStore(root)
  const store = await shared
  t.teardown(async () => { await store.deleteAll().catch(() => {}) })
  return store
}

t.test('graph store on neo4j', { skip }, async t => {
  // One suite after the other: all of them use the same server, emptied in teardown.
  t.test('contract', async t => { graphStoreContract(t, open) })
  t.test('jobs contract', async t => { graphJobsContract(t, open) })
  t.test('consolidation contract', async t => { graphConsolidationContract(t, open) })
  t.test('copies contract', async t => { graphCopiesContract(t, open) })
})

t.test('schema and indexes on neo4j', { skip }, async t => {
  const fresh = async (): Promise<Neo4jGraphStore> => await newStore(t)

  t.test('the schema is set up idempotently: two stores at once, then again; every constraint and index online', async t => {
    const [a, b] = [await fresh(), await fresh()]
    await Promise.all([a.init(), b.init()])
    await (await fresh()).init()
    const rows = await cypherOn(a, 'SHOW INDEXES YIELD name, type, state WHERE name STARTS WITH "agentd_" RETURN name, type, state')
    const names = SCHEMA.map(q => /(?:CONSTRAINT|INDEX) (\w+) IF NOT EXISTS/.exec(q)?.[1])
    for (const name of names) {
      const constraint = SCHEMA.find(q => q.includes(`CONSTRAINT ${String(name)} `)) !== undefined
      // A uniqueness constraint is served by an index of the same name.
      t.match(rows.find(r => r.name === name), { state: 'ONLINE' }, `${String(name)}${constraint ? ' (constraint)' : ''} is online`)
    }
    t.equal(rows.filter(r => r.type === 'FULLTEXT').length, 3, 'entities, facts and turns have full-text indexes')
  })

  t.test('nearest neighbours come from the vector index, ranked by cosine as an exact scan would', async t => {
    const store = await fresh()
    const rnd = seeded(7)
    const vectors = Array.from({ length: 60 }, () => Array.from({ length: 8 }, () => rnd() - 0.5))
    for (const [i, v] of vectors.entries()) await store.upsertEntity({ name: `E${i}`, type: 'T', channel: 'vx', embedding: { vector: v, embedder: 'e' } })
    const index = await cypherOn(store, 'SHOW VECTOR INDEXES YIELD name, state, options WHERE name = "agentd_entity_vec_8" RETURN state, options')
    t.match(index, [{ state: 'ONLINE', options: { indexConfig: { 'vector.dimensions': 8, 'vector.similarity_function': 'COSINE' } } }])
    const q = vectors[0].map((x, i) => x + 0.1 * vectors[1][i])
    const got = await store.similarEntities({ embedding: { vector: q, embedder: 'e' }, channels: ['vx'], limit: 5 })
    const cos = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i], 0) / Math.hypot(...a) / Math.hypot(...b)
    const exact = vectors.map((v, i) => ({ name: `E${i}`, score: cos(q, v) })).sort((a, b) => b.score - a.score).slice(0, 5)
    t.same(got.map(e => e.name), exact.map(e => e.name), 'the same five, in order')
    for (const [i, e] of got.entries()) t.ok(Math.abs(e.score - exact[i].score) < 1e-4, `${e.name}: cosine ${e.score.toFixed(4)}`)
    t.same(await store.similarEntities({ embedding: { vector: q, embedder: 'other' }, channels: ['vx'], limit: 5 }), [], 'another embedder\'s vectors are not compared')
  })
})

/** A statement on the store's server (for what the store has no method for: SHOW INDEXES). */
async function cypherOn (_store: Neo4jGraphStore, q: string): Promise<Array<Record<string, unknown>>> {
  const target = resolveNeo4jTarget((await server as LiveNeo4j).env, { pool_size: 1, connect_timeout_ms: 5000, circuit_cooldown_ms: 0 })
  if (target === undefined) throw new Error('unreachable')
  const driver = neo4j.driver(target.uri, neo4j.auth.basic(target.user, target.password))
  try {
    const rows = (await driver.executeQuery(q)).records.map(r => r.toObject())
    return JSON.parse(JSON.stringify(rows, (_k, v: unknown) => neo4j.isInt(v) ? v.toNumber() : v)) as Array<Record<string, unknown>>
  } finally { await driver.close() }
}

/** A small deterministic generator (mulberry32), for vectors that are the same every run. */
function seeded (seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6D2B79F5) | 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}
