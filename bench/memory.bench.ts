// Memory recall latency and insert throughput at growing sizes, on
//   pglite+hnsw:  embedded PGlite with pgvector and HNSW indexes (the default),
//   pglite exact: the same database with index scans turned off (exact cosine scan),
//   postgres:     the real PostgreSQL 15 here, no pgvector, so the real[] exact-cosine fallback,
// all in one run. "Size N" means N/2 turns + N/2 facts. Rows are bulk-loaded between
// sizes; the timed part is (a) inserts through the store API (one turn or fact per call,
// with its vector), (b) store recall = nearest 30 turns + nearest 10 facts in parallel,
// through the store API, for a query embedded by embed-hash, (c) service recall = the
// memory service's whole recall (embedding the query, every part: turns ranked with
// recency, facts, entities, strategies, goals, and rendering to prompt text), (c') the same
// with every model-free recall technique on (hybrid, entity_centric, query_expansion: the
// shipped defaults; series "all techniques"), and, at the
// largest size, (d) small channel = nearest 30 turns of a 20-turn channel inside the big
// table (few rows: planned as an exact scan of the channel's rows, no HNSW walk; see
// EXACT_SCAN_MAX_ROWS in packages/sdk/src/kits/sql/vector.ts). Ratios are against pglite+hnsw
// measured in the same run. Target (issue 6): p95 recall < 50 ms at 100k on PGlite with
// HNSW; checked for (b), (c), (c') and (d) at the largest size run, "met"/"NOT met", and the
// exit code is 1 on a miss.
// Takes about 4-6 minutes on 2 cores, most of it building the HNSW indexes over 100k
// vectors inside PGlite (WASM) and the exact scans at 100k; BENCH_MEMORY_SIZES=1000,10000
// runs in under a minute.
// Env: BENCH_MEMORY_SIZES (default 1000,10000,100000; BENCH_MEMORY_SIZES=1000 is a smoke
// run of every series in about a minute), BENCH_MEMORY_QUERIES (default 40),
// BENCH_MEMORY_BACKENDS (default pglite,postgres), TEST_POSTGRES_URI.
import { randomUUID, randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { analyzeStale, ensureVectorIndex, openSql, type SqlHandle } from '@agentd/sdk/kits/sql'
import { SqlRelationalStore } from '../plugins/memory-sql/relational-store.ts'
import { SqlGraphStore } from '../plugins/memory-graph-sql/graph-store.ts'
import { HashEmbedder } from '../plugins/embed-hash/hash-embedder.ts'
import pino from 'pino'
import { createRegistry } from '@agentd/sdk'
import { Hooks } from '@agentd/sdk'
import { MemoryServiceImpl } from '../plugins/memory/service.ts'
import { RECALL_DEFAULTS } from '../test/helpers/recall-settings.ts'
import { hybridTechnique } from '../plugins/recall-hybrid/hybrid.ts'
import { expansionTechnique } from '../plugins/recall-expansion/expansion.ts'
import { entityTechnique } from '../plugins/recall-entity/entity.ts'
import { timeTechnique } from '../plugins/recall-time/time.ts'

const SIZES = (process.env.BENCH_MEMORY_SIZES ?? '1000,10000,100000').split(',').map(Number)
const QUERIES = Number(process.env.BENCH_MEMORY_QUERIES ?? 40)
const BACKENDS = (process.env.BENCH_MEMORY_BACKENDS ?? 'pglite,postgres').split(',')
const PG_URI = process.env.TEST_POSTGRES_URI ?? 'postgresql://postgres@127.0.0.1:5432/test'
const INSERTS = 200
const E = new HashEmbedder()
const quiet = { warn: () => {} }

const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu coffee tea garden river mountain city train book music friend travel work project meeting holiday colour blue green red'.split(' ')
let seed = 42
const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff }
const sentence = (): string => Array.from({ length: 6 + Math.floor(rnd() * 10) }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ')

const pct = (xs: number[], p: number): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] }
const fmt = (x: number): string => x < 10 ? x.toFixed(2) : x.toFixed(1)

interface Target { name: string, h: SqlHandle, rel: SqlRelationalStore, graph: SqlGraphStore, exact: boolean, cleanup: () => Promise<void> }

/**
 * The memory service over a target's stores, with embed-hash, as the memory plugin builds
 * it; `techniques`: with every model-free recall technique plugin on (hybrid,
 * entity_centric, query_expansion, time: the shipped defaults), else the vector one alone.
 */
function serviceFor (tg: Target, techniques: boolean): MemoryServiceImpl {
  const reg = createRegistry()
  reg.relationalStores.add('memory-sql', tg.rel)
  reg.graphStores.add('memory-graph-sql', tg.graph)
  reg.embedders.add('embed-hash', E)
  if (techniques) {
    reg.recallTechniques.add('recall-hybrid', hybridTechnique(() => tg.rel))
    reg.recallTechniques.add('recall-entity', entityTechnique({ graph: () => tg.graph, relational: () => tg.rel }))
    reg.recallTechniques.add('recall-expansion', expansionTechnique(() => tg.rel))
    reg.recallTechniques.add('recall-time', timeTechnique(() => tg.rel))
  }
  const hooks = new Hooks()
  return new MemoryServiceImpl(() => reg, () => hooks, pino({ level: 'silent' }), {
    tokenBudget: 1000, topK: 10, workingMemoryTurns: 20, recencyWeight: 0.2, recencyHalfLifeHours: 168,
    recallSettings: () => RECALL_DEFAULTS, techniqueTimeoutMs: 60_000,
  })
}

async function timeQueries (queries: number, warmup: number, one: (text: string) => Promise<unknown>): Promise<{ p50: number, p95: number }> {
  const times: number[] = []
  for (let i = 0; i < queries + warmup; i++) {
    const text = sentence()
    const t0 = performance.now()
    await one(text)
    if (i >= warmup) times.push(performance.now() - t0)
  }
  return { p50: pct(times, 0.5), p95: pct(times, 0.95) }
}

/** (c): the service's whole recall, query embedding and rendering included. */
async function serviceLatency (tg: Target, queries: number, warmup: number, techniques = false): Promise<{ p50: number, p95: number }> {
  const svc = serviceFor(tg, techniques)
  return await timeQueries(queries, warmup, async text => {
    const r = await svc.recaller.recallBundle({ text, channel: 'bench', top_k: 10 }, { strict: true })
    if (r.relevant_turns.length === 0) throw new Error('service recall found nothing: the bench is not measuring a real recall')
  })
}

/** (d): a 20-turn channel inside the big table, asked for 30: few rows, so an exact scan of them answers. */
async function smallChannelLatency (tg: Target, queries: number, warmup: number): Promise<{ p50: number, p95: number }> {
  const have = await tg.rel.recentTurns(['bench-small'], 1)
  if (have.length === 0) {
    for (let i = 0; i < 20; i++) {
      const text = sentence()
      const [v] = await E.embed([text])
      await tg.rel.addTurn({ conversation_id: 'bench-small', role: 'user', content: text, channel: 'bench-small', embedding: { vector: v, embedder: E.id } })
    }
  }
  return await timeQueries(queries, warmup, async text => {
    const [v] = await E.embed([text])
    const rows = await tg.rel.similarTurns({ embedding: { vector: v, embedder: E.id }, channels: ['bench-small', '_global'], limit: 30 })
    if (rows.length !== 20) throw new Error(`small channel: ${rows.length} turns instead of its 20`)
  })
}

async function bulkLoad (db: Kysely<unknown>, mode: 'vector' | 'real[]', turns: number, facts: number, startAt: number): Promise<void> {
  const lit = (v: number[]): string => mode === 'vector' ? `[${v.join(',')}]` : `{${v.join(',')}}`
  const cast = sql.raw(mode === 'vector' ? 'vector' : 'real[]')
  const B = 1000
  // Building an HNSW index once is much faster than growing it row by row.
  if (mode === 'vector') for (const table of ['turns', 'facts']) await sql.raw(`DROP INDEX IF EXISTS ${table}_embedding_hnsw_${E.dimensions}`).execute(db)
  for (let i = 0; i < turns; i += B) {
    const n = Math.min(B, turns - i)
    const texts = Array.from({ length: n }, sentence)
    const vecs = await E.embed(texts)
    const convs = Array.from({ length: n }, (_, j) => `bench-${Math.floor((startAt + i + j) / 100)}`)
    // turn_count as addTurn keeps it: keyword search reads the channels' size from it.
    await sql`INSERT INTO conversations AS v (id, channel, turn_count) SELECT c, 'bench', count(*) FROM unnest(${convs}::text[]) c GROUP BY c
      ON CONFLICT (id) DO UPDATE SET turn_count = v.turn_count + excluded.turn_count`.execute(db)
    await sql`INSERT INTO turns (id, conversation_id, idx, role, content, channel, embedding, embedder, embedding_dims)
      SELECT id, conv, idx, 'user', content, 'bench', emb::${cast}, ${E.id}, ${E.dimensions}
      FROM unnest(${Array.from({ length: n }, () => randomUUID())}::uuid[], ${convs}::text[], ${Array.from({ length: n }, (_, j) => startAt + i + j)}::int[],
        ${texts}::text[], ${vecs.map(lit)}::text[]) AS r(id, conv, idx, content, emb)`.execute(db)
  }
  for (let i = 0; i < facts; i += B) {
    const n = Math.min(B, facts - i)
    const texts = Array.from({ length: n }, sentence)
    const vecs = await E.embed(texts)
    await sql`INSERT INTO facts (id, claim, claim_hash, source, channel, embedding, embedder, embedding_dims)
      SELECT id, claim, md5(claim || id::text), 'extraction', 'bench', emb::${cast}, ${E.id}, ${E.dimensions}
      FROM unnest(${Array.from({ length: n }, () => randomUUID())}::uuid[], ${texts}::text[], ${vecs.map(lit)}::text[]) AS r(id, claim, emb)`.execute(db)
  }
  if (mode === 'vector') {
    // Room for the whole graph in memory: an HNSW build that spills is several times slower.
    await sql`SET maintenance_work_mem = '1GB'`.execute(db)
    for (const table of ['turns', 'facts']) await ensureVectorIndex(db, mode, table, E.dimensions)
    await sql`RESET maintenance_work_mem`.execute(db)
  }
}

async function open (name: string): Promise<Target[]> {
  if (name === 'pglite') {
    const h = await openSql({ backend: 'pglite', dir: null, schema: 'public' }, quiet)
    const rel = new SqlRelationalStore(h); const graph = new SqlGraphStore(h)
    await rel.init(); await graph.init()
    return [
      { name: 'pglite+hnsw', h, rel, graph, exact: false, cleanup: async () => { await h.close() } },
      { name: 'pglite exact', h, rel, graph, exact: true, cleanup: async () => {} },
    ]
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`
  const h = await openSql({ backend: 'postgres', uri: PG_URI, schema, poolSize: 4, connectTimeoutMs: 3000 }, quiet)
  const rel = new SqlRelationalStore(h); const graph = new SqlGraphStore(h)
  await rel.init(); await graph.init()
  return [{ name: 'postgres', h, rel, graph, exact: true, cleanup: async () => { await sql.raw(`DROP SCHEMA "${schema}" CASCADE`).execute(h.db); await h.close() } }]
}

async function insertRate (tg: Target): Promise<number> {
  const t0 = performance.now()
  for (let i = 0; i < INSERTS / 2; i++) {
    const text = sentence()
    const [v] = await E.embed([text])
    await tg.rel.addTurn({ conversation_id: `ins-${i % 10}`, role: 'user', content: text, channel: 'bench', embedding: { vector: v, embedder: E.id } })
    await tg.graph.addFact({ claim: `${text} ${i}`, claim_hash: randomUUID(), source: 'extraction', channel: 'bench', embedding: { vector: v, embedder: E.id } })
  }
  return INSERTS / ((performance.now() - t0) / 1000)
}

async function recallLatency (tg: Target, queries: number, warmup: number): Promise<{ p50: number, p95: number }> {
  // PGlite has one connection: the setting applies to every query until turned back on.
  if (tg.exact && tg.h.backend === 'pglite') await sql`SET enable_indexscan = off`.execute(tg.h.db)
  const times: number[] = []
  try {
    for (let i = 0; i < queries + warmup; i++) {
      const [v] = await E.embed([sentence()])
      const embedding = { vector: v, embedder: E.id }
      const t0 = performance.now()
      await Promise.all([tg.rel.similarTurns({ embedding, channels: ['bench', '_global'], limit: 30 }), tg.graph.similarFacts({ embedding, channels: ['bench', '_global'], limit: 10 })])
      if (i >= warmup) times.push(performance.now() - t0)
    }
  } finally {
    if (tg.exact && tg.h.backend === 'pglite') await sql`SET enable_indexscan = on`.execute(tg.h.db)
  }
  return { p50: pct(times, 0.5), p95: pct(times, 0.95) }
}

const results: Array<{ size: number, target: string, insert_per_s: number, p50: number, p95: number }> = []
const extra: Array<{ size: number, target: string, series: string, p50: number, p95: number }> = []
const MAX = Math.max(...SIZES)
const started = performance.now()
for (const b of BACKENDS) {
  const targets = await open(b)
  let loaded = 0
  for (const size of SIZES) {
    const t0 = performance.now()
    const need = size - loaded
    if (need > 0) await bulkLoad(targets[0].h.db, targets[0].h.backend === 'pglite' ? 'vector' : 'real[]', Math.floor(need / 2), need - Math.floor(need / 2), loaded)
    // PGlite has no autovacuum: a running server's SQL handle ANALYZEs grown tables within
    // seconds (keepStatistics); the bench does now what that timer would have done.
    // PostgreSQL's autovacuum does the same there on its own schedule.
    if (need > 0) await analyzeStale(targets[0].h.db, targets[0].h.schema)
    loaded = size
    console.error(`[${b}] loaded ${size} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    for (const tg of targets) {
      // Fewer queries for the exact scans at large sizes keep the run bounded.
      const q = tg.exact && size >= 100_000 ? 4 : tg.exact && size >= 10_000 ? Math.max(10, Math.floor(QUERIES / 4)) : QUERIES
      const r = await recallLatency(tg, q, tg.exact && size >= 100_000 ? 1 : 3)
      const ins = tg.exact && tg.h.backend === 'pglite' ? NaN : await insertRate(tg)
      loaded += tg.exact && tg.h.backend === 'pglite' ? 0 : INSERTS
      results.push({ size, target: tg.name, insert_per_s: ins, ...r })
      console.error(`[${tg.name}] size ${size}: recall p50 ${fmt(r.p50)} ms p95 ${fmt(r.p95)} ms, inserts ${Number.isNaN(ins) ? '-' : ins.toFixed(0)}/s`)
      // The service and small-channel series on the default path of each backend (not the forced exact scan of PGlite).
      if (tg.exact && tg.h.backend === 'pglite') continue
      const sq = size >= 100_000 && tg.exact ? 10 : QUERIES
      const sr = await serviceLatency(tg, sq, 3)
      extra.push({ size, target: tg.name, series: 'service recall', ...sr })
      console.error(`[${tg.name}] size ${size}: service recall p50 ${fmt(sr.p50)} ms p95 ${fmt(sr.p95)} ms`)
      const st = await serviceLatency(tg, sq, 3, true)
      extra.push({ size, target: tg.name, series: 'all techniques', ...st })
      console.error(`[${tg.name}] size ${size}: service recall, every model-free technique on: p50 ${fmt(st.p50)} ms p95 ${fmt(st.p95)} ms (${(st.p95 / sr.p95).toFixed(1)}x the vector technique alone)`)
      if (size === MAX) {
        const sc = await smallChannelLatency(tg, sq, 3)
        loaded += 20
        extra.push({ size, target: tg.name, series: 'small channel', ...sc })
        console.error(`[${tg.name}] size ${size}: small channel p50 ${fmt(sc.p50)} ms p95 ${fmt(sc.p95)} ms`)
      }
    }
  }
  for (const tg of targets) await tg.cleanup()
}

console.log('\nMemory recall (30 turns + 10 facts, parallel) and API inserts (turn or fact with vector, one per call)')
console.log('size     target          recall p50 ms  recall p95 ms  p95 vs hnsw  inserts/s')
for (const r of results) {
  const base = results.find(x => x.size === r.size && x.target === 'pglite+hnsw')
  const ratio = base === undefined ? '' : `${(r.p95 / base.p95).toFixed(1)}x`
  console.log(`${String(r.size).padEnd(8)} ${r.target.padEnd(15)} ${fmt(r.p50).padStart(13)}  ${fmt(r.p95).padStart(13)}  ${ratio.padStart(11)}  ${Number.isNaN(r.insert_per_s) ? '(same db)' : r.insert_per_s.toFixed(0).padStart(9)}`)
}
console.log('\nThe memory service\'s whole recall (embed + all parts + render), and a 20-turn channel in the big table (30 nearest)')
console.log('size     target          series          p50 ms   p95 ms')
for (const r of extra) console.log(`${String(r.size).padEnd(8)} ${r.target.padEnd(15)} ${r.series.padEnd(15)} ${fmt(r.p50).padStart(7)}  ${fmt(r.p95).padStart(7)}`)

// The target, on PGlite with HNSW at the largest size run (100k in a full run).
const checks = [
  { series: 'store recall', p95: results.find(r => r.target === 'pglite+hnsw' && r.size === MAX)?.p95 },
  ...extra.filter(r => r.target === 'pglite+hnsw' && r.size === MAX).map(r => ({ series: r.series, p95: r.p95 as number | undefined })),
].filter((c): c is { series: string, p95: number } => c.p95 !== undefined)
if (checks.length > 0) {
  console.log(`\nTarget: p95 recall < 50 ms at ${MAX} on PGlite+HNSW${MAX < 100_000 ? ' (a smoke run: the target is set for 100000)' : ''} (Mem0 reports p95 search 200 ms on its own service)`)
  for (const c of checks) {
    const met = c.p95 < 50
    console.log(`  ${c.series.padEnd(15)} p95 ${fmt(c.p95)} ms -> ${met ? 'met' : 'NOT met'}`)
    if (!met) process.exitCode = 1
  }
}
console.log(`total run time ${((performance.now() - started) / 1000).toFixed(0)} s`)
