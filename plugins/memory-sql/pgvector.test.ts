// pgvector on the embedded PGlite: the HNSW index exists once vectors are stored and the
// similarity query uses it; a database set up without pgvector (real[] columns) is
// converted to vector when pgvector is there, data and answers kept.
import t from 'tap'
import { sql } from 'kysely'
import { openSql } from './connect.ts'
import { SqlRelationalStore } from './relational-store.ts'
import { SqlGraphStore } from '../memory-graph-sql/graph-store.ts'
import { migrate } from './migrate.ts'
import { relationalMigrations } from './migrations.ts'
import { graphMigrations } from '../memory-graph-sql/migrations.ts'
import { nearestOrder, nearestSql } from './vector.ts'
import { axis } from '../../test/memory/vectors.ts'

const quiet = { warn: () => {} }
const E = 'test-embedder'

t.test('the HNSW index is built and the similarity query uses it', async t => {
  const h = await openSql({ backend: 'pglite', dir: null, schema: 'public' }, quiet)
  t.teardown(async () => { await h.close() })
  const store = new SqlRelationalStore(h)
  await store.init()
  for (let i = 0; i < 50; i++) await store.addTurn({ conversation_id: `c${i % 5}`, role: 'user', content: `t${i}`, channel: 'hn', embedding: { vector: axis(8, i % 8, i / 100), embedder: E } })
  const idx = await sql<{ indexname: string, indexdef: string }>`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'turns' AND indexname = 'turns_embedding_hnsw_8'`.execute(h.db)
  t.equal(idx.rows.length, 1, 'turns_embedding_hnsw_8 exists')
  t.match(idx.rows[0]?.indexdef, /USING hnsw .*vector_cosine_ops.*WHERE \(embedding_dims = 8\)/)

  const q = { embedding: { vector: axis(8, 3), embedder: E }, channels: ['hn'], limit: 5 }
  const from = { table: 'turns', alias: 't', cols: sql.raw('t.id, t.content') }
  // Few rows: the planner would rather scan; with sequential scans off it must take the index if it can.
  const plan = await h.db.transaction().execute(async trx => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx)
    return (await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${nearestSql('vector', from, q, nearestOrder('vector', 't', q.embedding.vector))}`.execute(trx)).rows.map(r => r['QUERY PLAN']).join('\n')
  })
  t.match(plan, /Index Scan using turns_embedding_hnsw_8 on turns/, plan)
  const got = await store.similarTurns(q)
  t.equal(got.length, 5)
})

t.test('real[] columns become vector once pgvector is available, data kept', async t => {
  const h = await openSql({ backend: 'pglite', dir: null, schema: 'public' }, quiet)
  t.teardown(async () => { await h.close() })
  // As on a PostgreSQL without pgvector: both components migrated with the real[] fallback.
  await migrate(h.db, 'relational', relationalMigrations, { vectorType: 'real[]' })
  await migrate(h.db, 'graph', graphMigrations, { vectorType: 'real[]' })
  const type = async (table: string): Promise<string> => (await sql<{ t: string }>`SELECT udt_name AS t FROM information_schema.columns WHERE table_name = ${table} AND column_name = 'embedding'`.execute(h.db)).rows[0].t
  t.equal(await type('turns'), '_float4', 'set up as real[]')
  await sql`INSERT INTO conversations (id, channel) VALUES ('up', 'up')`.execute(h.db)
  await sql`INSERT INTO turns (id, conversation_id, idx, role, content, channel, embedding, embedder, embedding_dims)
    VALUES (gen_random_uuid(), 'up', 0, 'user', 'near', 'up', ${`{${axis(8, 2).join(',')}}`}::real[], ${E}, 8),
           (gen_random_uuid(), 'up', 1, 'user', 'far', 'up', ${`{${axis(8, 6).join(',')}}`}::real[], ${E}, 8),
           (gen_random_uuid(), 'up', 2, 'user', 'small', 'up', ${`{${axis(4, 1).join(',')}}`}::real[], ${E}, 4)`.execute(h.db)
  await sql`INSERT INTO facts (id, claim, claim_hash, source, channel, embedding, embedder, embedding_dims)
    VALUES (gen_random_uuid(), 'a fact', 'h1', 'user_stated', 'up', ${`{${axis(8, 2).join(',')}}`}::real[], ${E}, 8)`.execute(h.db)

  const rel = new SqlRelationalStore(h)
  await rel.init()
  const graph = new SqlGraphStore(h)
  await graph.init()
  t.same(rel.upgraded.sort(), ['goals', 'strategies', 'turns'])
  t.same(graph.upgraded.sort(), ['entities', 'facts'])
  for (const table of ['turns', 'goals', 'strategies', 'entities', 'facts']) t.equal(await type(table), 'vector', `${table}.embedding is vector`)
  t.equal((await rel.health()).warning, undefined, 'no fallback warning any more')
  const res = await rel.similarTurns({ embedding: { vector: axis(8, 2), embedder: E }, channels: ['up'], limit: 5 })
  t.same(res.map(r => r.content), ['near', 'far'], 'old vectors answer, per dimension')
  t.ok(res[0].score > 0.99)
  t.same((await graph.similarFacts({ embedding: { vector: axis(8, 2), embedder: E }, channels: ['up'], limit: 5 })).map(f => f.claim), ['a fact'])
  const idx = await sql`SELECT 1 FROM pg_indexes WHERE indexname = 'turns_embedding_hnsw_8'`.execute(h.db)
  t.equal(idx.rows.length, 1, 'the HNSW index was built for the converted column')
  const again = new SqlRelationalStore(h)
  await again.init()
  t.same(again.upgraded, [], 'a second start converts nothing')
})
