// The relational (memory-sql) and graph (memory-graph-sql) stores on one database: a
// channel deleted from both in one transaction (on every SQL backend), and real[]
// columns of both converted to vector once pgvector is there, data and answers kept.
import t from 'tap'
import { sql } from 'kysely'
import { migrate, openSql } from '@agentd/sdk/kits/sql'
import { SQL_BACKENDS } from './sql-targets.ts'
import { axis } from './vectors.ts'
import { SqlRelationalStore } from '../../plugins/memory-sql/relational-store.ts'
import { relationalMigrations } from '../../plugins/memory-sql/migrations.ts'
import { SqlGraphStore } from '../../plugins/memory-graph-sql/graph-store.ts'
import { graphMigrations } from '../../plugins/memory-graph-sql/migrations.ts'

const quiet = { warn: () => {} }
const E = 'test-embedder'

for (const backend of SQL_BACKENDS) {
  t.test(`both SQL stores on ${backend.name}`, async t => {
    const h = await backend.open(t)
    const store = new SqlRelationalStore(h)
    await store.init()

    t.test('a channel goes from both stores in one transaction', async t => {
      const graph = new SqlGraphStore(h)
      await graph.init()
      await store.addTurn({ conversation_id: 'tx-1', role: 'user', content: 'in tx', channel: 'tx' })
      await graph.addFact({ claim: 'fact in tx', claim_hash: 'tx-hash', source: 'user_stated', channel: 'tx' })
      // A graph delete that fails must leave the relational rows in place.
      await sql.raw(`CREATE OR REPLACE FUNCTION agentd_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF OLD.channel = 'tx' THEN RAISE EXCEPTION 'refused by test'; END IF; RETURN OLD; END $$`).execute(h.db)
      await sql.raw('CREATE TRIGGER agentd_test_refuse BEFORE DELETE ON facts FOR EACH ROW EXECUTE FUNCTION agentd_test_refuse()').execute(h.db)
      await t.rejects(store.deleteChannelWith('tx', graph), /refused by test/)
      t.same((await store.conversationTurns('tx-1', 10)).map(x => x.content), ['in tx'], 'rolled back: the turn is still there')
      await sql.raw('DROP TRIGGER agentd_test_refuse ON facts').execute(h.db)
      const res = await store.deleteChannelWith('tx', graph)
      t.match(res, { relational: { turns: 1, conversations: 1 }, graph: { facts: 1 } })
      t.same(await store.conversationTurns('tx-1', 10), [])
      t.equal((await graph.facts({ channel: 'tx', offset: 0, limit: 10 })).total, 0)
    })

    t.test('a graph store on another database is not joined', async t => {
      const other = await backend.open(t)
      t.equal(await store.deleteChannelWith('x', new SqlGraphStore(other)), undefined)
    })
  })
}

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
