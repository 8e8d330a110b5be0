// pgvector on the embedded PGlite: the HNSW index exists once vectors are stored and the
// similarity query uses it. (real[] columns converted to vector once pgvector is there:
// test/memory/sql-stores-together.test.ts, since it covers both SQL stores.)
import t from 'tap'
import { sql } from 'kysely'
import { nearestOrder, nearestSql, openSql } from '@agentd/sdk/kits/sql'
import { SqlRelationalStore } from './relational-store.ts'
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
