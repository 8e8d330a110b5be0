// Filtered vector search: a small channel inside a big table gets its exact top-k by
// cosine (checked against brute force computed here), channel and _global merged, on
// PGlite with HNSW and on PostgreSQL (the real[] exact fallback); on PGlite the search
// plan is an exact scan of the channel's rows for a small channel and HNSW for a big one.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { sql, type Kysely, type KyselyPlugin } from 'kysely'
import { SQL_BACKENDS, type SqlBackend } from './sql-targets.ts'
import { unit } from './vectors.ts'
import { SqlRelationalStore } from '../../plugins/memory-sql/relational-store.ts'
import { EXACT_SCAN_MAX_ROWS, fewRows, nearestRows } from '@agentd/sdk/kits/sql'

const E = 'test-embedder'
const DIMS = 16
/** More rows than the exact-scan threshold, so the big channel is planned through HNSW. */
const CROWD = EXACT_SCAN_MAX_ROWS + 100

let seed = 20240611
const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff - 0.5 }
const randomUnit = (): number[] => unit(Array.from({ length: DIMS }, rnd))
const dot = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i], 0)

/** Bulk-loads `n` random turns into `channel` (one statement, as the store's own SQL types them). */
async function crowd (db: Kysely<unknown>, backend: SqlBackend['name'], channel: string, n: number): Promise<void> {
  const vecs = Array.from({ length: n }, randomUnit)
  const lit = backend === 'pglite' ? vecs.map(v => `[${v.join(',')}]`) : vecs.map(v => `{${v.join(',')}}`)
  const cast = sql.raw(backend === 'pglite' ? 'vector' : 'real[]')
  await sql`INSERT INTO conversations (id, channel) VALUES (${channel}, ${channel})`.execute(db)
  await sql`INSERT INTO turns (id, conversation_id, idx, role, content, channel, embedding, embedder, embedding_dims)
    SELECT id, ${channel}, idx, 'user', 'crowd', ${channel}, emb::${cast}, ${E}, ${DIMS}
    FROM unnest(${Array.from({ length: n }, () => randomUUID())}::uuid[], ${Array.from({ length: n }, (_, i) => i)}::int[], ${lit}::text[]) AS r(id, idx, emb)`.execute(db)
}

/** Records the SQL of every query run through the returned Kysely. */
function spy (db: Kysely<unknown>): { db: Kysely<unknown>, seen: string[] } {
  const seen: string[] = []
  const plugin: KyselyPlugin = {
    transformQuery: args => { seen.push(db.getExecutor().compileQuery(args.node, args.queryId).sql); return args.node },
    transformResult: async args => args.result,
  }
  return { db: db.withPlugin(plugin), seen }
}

const HNSW_ORDER = /ORDER BY "t"\."embedding"::vector\(16\) <=>/
const EXACT_ORDER = /ORDER BY score DESC NULLS LAST/

for (const backend of SQL_BACKENDS) {
  t.test(`nearest turns of a small channel in a big table on ${backend.name}`, async t => {
    const h = await backend.open(t)
    const store = new SqlRelationalStore(h)
    await store.init()
    await crowd(h.db, backend.name, 'crowd', CROWD)
    const mine: Array<{ id: string, v: number[] }> = []
    for (const [channel, n] of [['small', 20], ['_global', 5]] as const) {
      for (let i = 0; i < n; i++) {
        const v = randomUnit()
        const turn = await store.addTurn({ conversation_id: `conv-${channel}`, role: 'user', content: `${channel} ${i}`, channel, embedding: { vector: v, embedder: E } })
        mine.push({ id: turn.id, v })
      }
    }
    // In the channel but not comparable: another embedder, another size.
    await store.addTurn({ conversation_id: 'conv-small', role: 'user', content: 'other embedder', channel: 'small', embedding: { vector: randomUnit(), embedder: 'other' } })
    await store.addTurn({ conversation_id: 'conv-small', role: 'user', content: 'other size', channel: 'small', embedding: { vector: unit([1, 2, 3, 4]), embedder: E } })

    t.test('the exact top-k by cosine, channel and _global merged, best first', async t => {
      for (let round = 0; round < 5; round++) {
        const q = randomUnit()
        const want = mine.map(m => ({ id: m.id, score: dot(m.v, q) })).sort((a, b) => b.score - a.score)
        for (const limit of [10, 30]) {
          const got = await store.similarTurns({ embedding: { vector: q, embedder: E }, channels: ['small', '_global'], limit })
          const top = want.slice(0, limit)
          t.same(got.map(r => r.id), top.map(w => w.id), `round ${round}, limit ${limit}: the brute-force order (${top.length} rows)`)
          t.ok(got.every((r, k) => Math.abs(r.score - top[k].score) < 1e-5), `round ${round}, limit ${limit}: the brute-force scores`)
        }
      }
    })

    t.test('rows are counted up to the threshold: exactly that many is few, one more is many', async t => {
      // 'small' holds 22 rows (20 + the other embedder + the other size): the count is of the channel, not of the comparable vectors.
      t.equal(await fewRows(h.db, 'turns', ['small'], 22), true)
      t.equal(await fewRows(h.db, 'turns', ['small'], 21), false)
      t.equal(await fewRows(h.db, 'turns', ['small', '_global']), true)
      t.equal(await fewRows(h.db, 'turns', ['crowd']), false, `${CROWD} rows is more than ${EXACT_SCAN_MAX_ROWS}`)
    })

    // The HNSW index needs pgvector; PostgreSQL here stores vectors as real[] (no index),
    // so on it the subtest is recorded as skipped rather than left out.
    const noHnsw = backend.name !== 'pglite' ? `${backend.name} has no pgvector here, so no HNSW index to choose` : false
    t.test('with HNSW: a small channel is one exact scan, a big channel an index search', { skip: noHnsw }, async t => {
      const from = { table: 'turns', alias: 't', cols: sql.raw('t.id') }
      const embedding = { vector: randomUnit(), embedder: E }
      const small = spy(h.db)
      const rows = await nearestRows(small.db, 'vector', from, { embedding, channels: ['small', '_global'], limit: 30 })
      t.equal(rows.length, 25)
      const searches = small.seen.filter(s => s.includes('AS score'))
      t.equal(searches.length, 1, 'one search, no HNSW attempt re-run')
      t.match(searches[0], EXACT_ORDER)
      t.notMatch(searches[0], HNSW_ORDER)

      const big = spy(h.db)
      t.equal((await nearestRows(big.db, 'vector', from, { embedding, channels: ['crowd'], limit: 30 })).length, 30)
      const bigSearches = big.seen.filter(s => s.includes('AS score'))
      t.equal(bigSearches.length, 1)
      t.match(bigSearches[0], HNSW_ORDER)
    })
  })
}
