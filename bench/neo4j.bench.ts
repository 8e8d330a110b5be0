// Recall and a chat's memory work with Neo4j as the graph store, against the SQL graph
// store, in one run on the same data. The relational store (the record) is embedded PGlite
// with pgvector/HNSW in both; the graph role is either memory-graph-sql on that same PGlite
// or memory-graph-neo4j on a real Neo4j 5.26 (test/neo4j/server.ts: the test launcher, with
// the full JIT and a 2 GB heap), which then also holds copies of the turns: recall reads the
// query's nearest turns from Neo4j's vector index and keyword matches from its full-text
// index (hybrid, entity_centric), instead of PGlite's HNSW and BM25.
// At each size N (default 10k, then 100k): N turns in one channel, bulk-loaded into PGlite
// and, as the same copies the memory service writes, into Neo4j; 100 entities and 300
// facts through each graph store's API. Measured per graph store, interleaved query by query:
//   recall:  the memory service's whole recall with the shipped technique defaults
//            (vector_recency, hybrid, entity_centric, query_expansion), p50/p95;
//   chat:    a chat's memory work: recall, then the user's and the assistant's turns
//            stored (SQL, and with Neo4j each turn's copy: a second write to a second
//            server), p50/p95.
// Ratios are Neo4j / SQL from the same run. No target: this says which to pick, in
// docs/benchmarks.md.
// Env: BENCH_NEO4J_SIZES (default 10000,100000), BENCH_NEO4J_QUERIES (default 40).
import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import neo4j, { type Driver } from 'neo4j-driver'
import pino from 'pino'
import { analyzeStale, ensureVectorIndex, openSql } from '@agentd/sdk/kits/sql'
import { createRegistry, Hooks } from '@agentd/sdk'
import { RECALL_DEFAULTS } from '../test/helpers/recall-settings.ts'
import type { GraphStore } from '@agentd/sdk/contracts/memory-stores'
import { SqlRelationalStore } from '../plugins/memory-sql/relational-store.ts'
import { SqlGraphStore } from '../plugins/memory-graph-sql/graph-store.ts'
import { Neo4jGraphStore } from '../plugins/memory-graph-neo4j/graph-store.ts'
import { openDriver } from '../plugins/memory-graph-neo4j/driver.ts'
import { resolveNeo4jTarget } from '../plugins/memory-graph-neo4j/target.ts'
import { vectorIndexName, vectorProperty } from '../plugins/memory-graph-neo4j/schema.ts'
import { HashEmbedder } from '../plugins/embed-hash/hash-embedder.ts'
import { MemoryServiceImpl } from '../plugins/memory/service.ts'
import { hybridTechnique } from '../plugins/recall-hybrid/hybrid.ts'
import { expansionTechnique } from '../plugins/recall-expansion/expansion.ts'
import { entityTechnique } from '../plugins/recall-entity/entity.ts'
import { liveNeo4j } from '../test/neo4j/server.ts'

const SIZES = (process.env.BENCH_NEO4J_SIZES ?? '10000,100000').split(',').map(Number)
const QUERIES = Number(process.env.BENCH_NEO4J_QUERIES ?? 40)
const E = new HashEmbedder()
const CHANNEL = 'bench'

const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu coffee tea garden river mountain city train book music friend travel work project meeting holiday colour blue green red'.split(' ')
const NAMES = 'Okafor Lisbon Paystream Adaeze Harbour Marisol Quinlan Tavares Volker Whitby'.split(' ')
let seed = 42
const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff }
const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]
const sentence = (): string => Array.from({ length: 6 + Math.floor(rnd() * 10) }, () => pick(WORDS)).join(' ') + (rnd() < 0.3 ? ` ${pick(NAMES)}` : '')
const pct = (xs: number[], p: number): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] }
const fmt = (x: number): string => x < 10 ? x.toFixed(2) : x.toFixed(1)
const secs = (t0: number): string => `${((performance.now() - t0) / 1000).toFixed(1)} s`

function serviceFor (rel: SqlRelationalStore, graph: GraphStore): MemoryServiceImpl {
  const reg = createRegistry()
  reg.relationalStores.add('memory-sql', rel)
  reg.graphStores.add('graph', graph)
  reg.embedders.add('embed-hash', E)
  reg.recallTechniques.add('recall-hybrid', hybridTechnique(() => rel, () => graph))
  reg.recallTechniques.add('recall-entity', entityTechnique({ graph: () => graph, relational: () => rel }))
  reg.recallTechniques.add('recall-expansion', expansionTechnique(() => rel))
  const hooks = new Hooks()
  return new MemoryServiceImpl(() => reg, () => hooks, pino({ level: 'silent' }), {
    tokenBudget: 1000, topK: 10, workingMemoryTurns: 20, recencyWeight: 0.2, recencyHalfLifeHours: 168,
    recallSettings: () => RECALL_DEFAULTS, techniqueTimeoutMs: 60_000,
  })
}

/** N more turns into PGlite and, as copies (copies.ts's shape), into Neo4j: the same ids, texts and vectors. */
async function load (db: Kysely<unknown>, driver: Driver, turns: number, startAt: number): Promise<void> {
  const B = 1000
  const prop = vectorProperty(E.dimensions)
  await sql.raw(`DROP INDEX IF EXISTS turns_embedding_hnsw_${E.dimensions}`).execute(db)
  for (let i = 0; i < turns; i += B) {
    const n = Math.min(B, turns - i)
    const texts = Array.from({ length: n }, sentence)
    const vecs = await E.embed(texts)
    const ids = Array.from({ length: n }, () => randomUUID())
    const idx = Array.from({ length: n }, (_, j) => (startAt + i + j) % 100)
    const convs = Array.from({ length: n }, (_, j) => `bench-${Math.floor((startAt + i + j) / 100)}`)
    const ts = Array.from({ length: n }, (_, j) => new Date(Date.UTC(2026, 0, 1) + (startAt + i + j) * 60_000).toISOString())
    await sql`INSERT INTO conversations AS v (id, channel, turn_count) SELECT c, ${CHANNEL}, count(*) FROM unnest(${convs}::text[]) c GROUP BY c
      ON CONFLICT (id) DO UPDATE SET turn_count = v.turn_count + excluded.turn_count`.execute(db)
    await sql`INSERT INTO turns (id, conversation_id, idx, ts, role, content, channel, embedding, embedder, embedding_dims)
      SELECT id, conv, idx, ts, 'user', content, ${CHANNEL}, emb::vector, ${E.id}, ${E.dimensions}
      FROM unnest(${ids}::uuid[], ${convs}::text[], ${idx}::int[], ${ts}::timestamptz[], ${texts}::text[], ${vecs.map(v => `[${v.join(',')}]`)}::text[]) AS r(id, conv, idx, ts, content, emb)`.execute(db)
    const rows = ids.map((id, j) => ({ id, conversation_id: convs[j], index: neo4j.int(idx[j]), timestamp: ts[j], content: texts[j], vector: vecs[j] }))
    await driver.executeQuery(`UNWIND $rows AS r
      MERGE (c:Conversation {id: r.conversation_id}) ON CREATE SET c.channel = $channel, c.created_at = datetime(r.timestamp)
      CREATE (t:Turn {id: r.id, conversation_id: r.conversation_id, index: r.index, timestamp: datetime(r.timestamp), role: 'user', content: r.content,
        token_count: null, metadata: '{}', channel: $channel, embedder: $embedder, embedding_dims: $dims})
      SET t.${prop} = r.vector
      CREATE (c)-[:HAS_TURN]->(t)`, { rows, channel: CHANNEL, embedder: E.id, dims: neo4j.int(E.dimensions) })
  }
  await sql`SET maintenance_work_mem = '1GB'`.execute(db)
  await ensureVectorIndex(db, 'vector', 'turns', E.dimensions)
  await sql`RESET maintenance_work_mem`.execute(db)
}

/** The same entities and facts through each graph store's API (what consolidation writes). */
async function seedGraph (graph: GraphStore): Promise<void> {
  seed = 7
  const ids: string[] = []
  for (let i = 0; i < 100; i++) {
    const name = i < NAMES.length ? NAMES[i] : `${pick(NAMES)} ${pick(WORDS)} ${i}`
    const [v] = await E.embed([name])
    ids.push((await graph.upsertEntity({ name, type: 'Thing', channel: CHANNEL, embedding: { vector: v, embedder: E.id } })).entity.id)
  }
  for (let i = 0; i < 300; i++) {
    const claim = `${pick(NAMES)} ${sentence()} ${i}`
    const [v] = await E.embed([claim])
    await graph.addFact({ claim, claim_hash: randomUUID(), source: 'extraction', channel: CHANNEL, entity_ids: [pick(ids)], embedding: { vector: v, embedder: E.id } })
  }
}

const started = performance.now()
const server = await liveNeo4j(undefined, { bench: true })
const target = resolveNeo4jTarget(server.env, { pool_size: 10, connect_timeout_ms: 5000, circuit_cooldown_ms: 0 })
if (target === undefined) throw new Error('unreachable')
const neo = new Neo4jGraphStore({ driver: openDriver(target), cooldownMs: 0 })
const raw = neo4j.driver(target.uri, neo4j.auth.basic(target.user, target.password))
const h = await openSql({ backend: 'pglite', dir: null, schema: 'public' }, { warn: () => {} })
const rel = new SqlRelationalStore(h)
const sqlGraph = new SqlGraphStore(h)
await rel.init(); await sqlGraph.init()
console.error(`Neo4j up in ${secs(started)} (the launcher's JVM start included)`)

const stores = { sql: sqlGraph, neo4j: neo } as const
type Which = keyof typeof stores
const services: Record<Which, MemoryServiceImpl> = { sql: serviceFor(rel, sqlGraph), neo4j: serviceFor(rel, neo) }
const results: Array<{ size: number, store: Which, series: string, p50: number, p95: number }> = []
try {
  // The store's schema and its turn vector index, made as the store makes them (one copy through its API).
  const [v0] = await E.embed(['warm up'])
  await neo.upsertTurn({ id: randomUUID(), conversation_id: 'warm', index: 0, timestamp: new Date().toISOString(), role: 'user', content: 'warm up', token_count: null, metadata: {}, channel: 'warm', embedder: E.id }, { vector: v0, embedder: E.id })
  let t0 = performance.now()
  await seedGraph(sqlGraph)
  console.error(`SQL graph: 100 entities, 300 facts through the API in ${secs(t0)}`)
  t0 = performance.now()
  await seedGraph(neo)
  console.error(`Neo4j: 100 entities, 300 facts through the API in ${secs(t0)}`)
  let loaded = 0
  for (const size of SIZES) {
    t0 = performance.now()
    await load(h.db, raw, size - loaded, loaded)
    await analyzeStale(h.db, h.schema)
    const sqlDone = secs(t0)
    await raw.executeQuery('CALL db.awaitIndex($name, 3600)', { name: vectorIndexName('turn', E.dimensions) })
    console.error(`size ${size}: loaded ${size - loaded} turns into PGlite and Neo4j, indexes online, in ${sqlDone} / ${secs(t0)}`)
    loaded = size
    const times: Record<Which, { recall: number[], chat: number[] }> = { sql: { recall: [], chat: [] }, neo4j: { recall: [], chat: [] } }
    // Where a recall's time goes (its timings_ms), median per stage: what makes one store slower.
    const stages: Record<Which, Record<string, number[]>> = { sql: {}, neo4j: {} }
    for (let i = 0; i < QUERIES + 3; i++) {
      const q = sentence()
      for (const which of (i % 2 === 0 ? ['sql', 'neo4j'] : ['neo4j', 'sql']) as Which[]) {
        const svc = services[which]
        let t = performance.now()
        const r = await svc.recaller.recallBundle({ text: q, channel: CHANNEL, top_k: 10 }, { strict: true })
        if (r.relevant_turns.length === 0) throw new Error(`${which}: recall found nothing; the bench is not measuring a real recall`)
        const recall = performance.now() - t
        if (i >= 3) for (const [k, ms] of Object.entries(r.timings_ms ?? {})) ((stages[which][k] ??= []) as number[]).push(Number(ms))
        // A chat's memory work: the recall above, then both turns stored (with Neo4j, each copied there too).
        t = performance.now()
        const conv = `chat-${which}-${size}-${i}`
        const a = await svc.storeTurn({ conversation_id: conv, role: 'user', content: q, channel: CHANNEL })
        const b = await svc.storeTurn({ conversation_id: conv, role: 'assistant', content: `noted: ${q}`, channel: CHANNEL })
        if (a.stored !== true || b.stored !== true) throw new Error(`${which}: a turn was not stored`)
        if (i >= 3) { times[which].recall.push(recall); times[which].chat.push(recall + performance.now() - t) }
      }
    }
    for (const which of ['sql', 'neo4j'] as Which[]) {
      for (const series of ['recall', 'chat'] as const) {
        const xs = times[which][series]
        results.push({ size, store: which, series, p50: pct(xs, 0.5), p95: pct(xs, 0.95) })
      }
    }
    for (const which of ['sql', 'neo4j'] as Which[]) {
      console.error(`size ${size} ${which} recall stages (median ms): ${Object.entries(stages[which]).map(([k, xs]) => `${k} ${fmt(pct(xs, 0.5))}`).join(', ')}`)
    }
    const neoTurns = (await raw.executeQuery(`MATCH (t:Turn {channel: '${CHANNEL}'}) RETURN count(t) AS n`)).records[0].get('n')
    console.error(`size ${size}: measured; Neo4j holds ${String(neoTurns)} turns of the channel`)
  }
} finally {
  await raw.close()
  await neo.close()
  await h.close()
  server.close()
}

console.log(`\nRecall and a chat's memory work, SQL graph store (PGlite) vs Neo4j 5.26 as the graph store, ${QUERIES} queries each, interleaved`)
console.log('size     series  store   p50 ms   p95 ms   p95 neo4j/sql')
for (const r of results) {
  const base = results.find(x => x.size === r.size && x.series === r.series && x.store === 'sql')
  const ratio = r.store === 'neo4j' && base !== undefined ? `${(r.p95 / base.p95).toFixed(2)}x` : ''
  console.log(`${String(r.size).padEnd(8)} ${r.series.padEnd(7)} ${r.store.padEnd(7)} ${fmt(r.p50).padStart(7)}  ${fmt(r.p95).padStart(7)}   ${ratio}`)
}
console.log(`total run time ${secs(started)}`)
process.exit(0)
