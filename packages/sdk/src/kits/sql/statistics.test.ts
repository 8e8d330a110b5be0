// PGlite's planner statistics (statistics.ts): which tables count as stale, what ANALYZE
// leaves out, the plan it fixes, and the timer.
import t from 'tap'
import { sql, type Kysely } from 'kysely'
import { openSql, type SqlHandle } from './connect.ts'
import { analyzeStale, keepStatistics, staleTables, StatementCounter } from './statistics.ts'
import { ensureVectorIndex } from './vector.ts'
import { until } from '../../../../../test/helpers/poll.ts'

const quiet = { warn: () => {} }

async function pglite (t: { teardown: (fn: () => Promise<void>) => void }): Promise<SqlHandle> {
  const h = await openSql({ backend: 'pglite', dir: null, schema: 'public' }, quiet)
  t.teardown(async () => { await h.close() })
  return h
}

/** `n` rows of about 500 bytes each, so a few thousand fill well over the minimum of 8 pages. */
async function fill (db: Kysely<unknown>, from: number, n: number): Promise<void> {
  await sql`INSERT INTO items (id, channel, body) SELECT g, CASE WHEN g % 10 = 0 THEN 'small' ELSE 'big' END, repeat(md5(g::text), 15)
    FROM generate_series(${from}::int, ${from + n - 1}::int) g`.execute(db)
}

const hasColumnStats = async (db: Kysely<unknown>, table: string): Promise<string[]> =>
  (await sql<{ attname: string }>`SELECT attname FROM pg_stats WHERE tablename = ${table} ORDER BY attname`.execute(db)).rows.map(r => r.attname)

t.test('a table without column statistics is stale once it holds a few pages; a tiny one never is', async t => {
  const { db } = await pglite(t)
  await sql`CREATE TABLE items (id int PRIMARY KEY, channel text, body text)`.execute(db)
  await sql`CREATE TABLE tiny (id int)`.execute(db)
  await sql`INSERT INTO tiny VALUES (1), (2)`.execute(db)
  await fill(db, 1, 2000)
  t.same(await staleTables(db, 'public'), ['items'])
})

t.test('analyzeStale gathers statistics once; the table is stale again only after it doubled', async t => {
  const { db } = await pglite(t)
  await sql`CREATE TABLE items (id int PRIMARY KEY, channel text, body text)`.execute(db)
  await fill(db, 1, 2000)
  t.same(await analyzeStale(db, 'public'), ['items'])
  t.same(await hasColumnStats(db, 'items'), ['body', 'channel', 'id'])
  t.same(await staleTables(db, 'public'), [], 'fresh right after')
  await fill(db, 2001, 1000)
  t.same(await staleTables(db, 'public'), [], 'grown by half: the old statistics still describe it')
  await fill(db, 3001, 2000)
  t.same(await staleTables(db, 'public'), ['items'], 'more than doubled')
})

t.test('vector columns are left out of ANALYZE', async t => {
  const { db } = await pglite(t)
  await sql`CREATE TABLE vecs (id int, channel text, embedding vector, alt real[])`.execute(db)
  await sql`INSERT INTO vecs SELECT g, 'c', ('[' || g || ',1,2]')::vector, ARRAY[g, 1]::real[] FROM generate_series(1, 3000) g`.execute(db)
  t.same(await analyzeStale(db, 'public'), ['vecs'])
  t.same(await hasColumnStats(db, 'vecs'), ['channel', 'id'])
})

t.test('with statistics, a filtered nearest-neighbour query uses the HNSW index instead of scanning every row', async t => {
  const { db } = await pglite(t)
  await sql`CREATE TABLE facts (id int PRIMARY KEY, channel text, superseded_at timestamptz, embedding vector, embedding_dims int)`.execute(db)
  await sql`CREATE INDEX facts_channel ON facts (channel)`.execute(db)
  await sql`CREATE INDEX facts_current ON facts (id) WHERE superseded_at IS NULL`.execute(db)
  await sql`INSERT INTO facts SELECT g, 'bench', NULL, ('[' || sin(g) || ',' || cos(g) || ',' || (g % 7) || ']')::vector, 3 FROM generate_series(1, 4000) g`.execute(db)
  await ensureVectorIndex(db, 'vector', 'facts', 3)
  const plan = async (): Promise<string> => (await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM facts f
    WHERE f.embedding_dims = 3 AND f.channel = ANY(${['bench', '_global']}::text[]) AND f.superseded_at IS NULL
    ORDER BY f.embedding::vector(3) <=> '[1,0,3]'::vector(3) LIMIT 10`.execute(db)).rows.map(r => r['QUERY PLAN']).join('\n')
  t.notMatch(await plan(), /facts_embedding_hnsw_3/, 'without statistics the planner guesses one row and skips the index')
  await analyzeStale(db, 'public')
  t.match(await plan(), /Index Scan using facts_embedding_hnsw_3/)
})

t.test('keepStatistics analyzes a grown table on its own, and stops', async t => {
  const { db } = await pglite(t)
  await sql`CREATE TABLE items (id int PRIMARY KEY, channel text, body text)`.execute(db)
  await fill(db, 1, 2000)
  const errors: unknown[] = []
  const stop = keepStatistics(db, 'public', err => { errors.push(err) }, 50, 10)
  t.teardown(stop)
  await until('the timer analyzed items', async () => (await hasColumnStats(db, 'items')).length > 0)
  t.same(errors, [])
})

t.test('given the handle\'s statement counter, keepStatistics asks nothing while no statement ran, and looks again after one', async t => {
  const h = await pglite(t)
  const counter = new StatementCounter()
  const db = h.db.withPlugin(counter)
  await sql`CREATE TABLE items (id int PRIMARY KEY, channel text, body text)`.execute(db)
  await fill(db, 1, 2000)
  const stop = keepStatistics(db, 'public', () => {}, 20, 5, counter)
  t.teardown(stop)
  await until('the first check analyzed items', async () => (await hasColumnStats(h.db, 'items')).length > 0)
  await new Promise(resolve => setTimeout(resolve, 100)) // the check's own statements settle
  const atRest = counter.count
  await new Promise(resolve => setTimeout(resolve, 200)) // ten periods
  t.equal(counter.count, atRest, 'no statement while nothing else ran')
  await fill(db, 2001, 4000)
  await until('checked again after the insert', async () => counter.count > atRest + 1)
  await until('and analyzed the grown table', async () => (await staleTables(h.db, 'public')).length === 0)
})
