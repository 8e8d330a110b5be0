// The PGlite dialect shares its one instance safely: a query another client sends on the
// raw instance (`handle.pglite`, as a job queue would) while a Kysely transaction is open
// runs after it ends, never inside it; commit and rollback keep their meaning.
import t from 'tap'
import { sql } from 'kysely'
import { openSql } from './connect.ts'

const quiet = { warn: () => {} }

t.test('a foreign query waits for an open Kysely transaction and is not rolled back with it', async t => {
  const h = await openSql({ backend: 'pglite', dir: null, schema: 'public' }, quiet)
  t.teardown(async () => { await h.close() })
  if (h.backend !== 'pglite') throw new Error('expected PGlite')
  await sql`CREATE TABLE shared (v text)`.execute(h.db)
  let foreign: Promise<unknown> | undefined
  await t.rejects(h.db.transaction().execute(async trx => {
    await sql`INSERT INTO shared VALUES ('inside')`.execute(trx)
    foreign = h.pglite.query("INSERT INTO shared VALUES ('foreign')")
    // Give the foreign query every chance to run now, if it could.
    for (let i = 0; i < 20; i++) await new Promise(resolve => setImmediate(resolve))
    throw new Error('roll back')
  }), /roll back/)
  await foreign
  const rows = (await sql<{ v: string }>`SELECT v FROM shared ORDER BY v`.execute(h.db)).rows.map(r => r.v)
  t.same(rows, ['foreign'], 'the foreign insert ran after the rollback, outside the transaction')
})

t.test('transactions commit, roll back on a failing statement, and queue behind each other', async t => {
  const h = await openSql({ backend: 'pglite', dir: null, schema: 'public' }, quiet)
  t.teardown(async () => { await h.close() })
  await sql`CREATE TABLE c (n int PRIMARY KEY)`.execute(h.db)
  await Promise.all([1, 2, 3].map(async n => await h.db.transaction().execute(async trx => {
    await sql`INSERT INTO c VALUES (${n})`.execute(trx)
    await sql`INSERT INTO c VALUES (${n + 10})`.execute(trx)
  })))
  await t.rejects(h.db.transaction().execute(async trx => {
    await sql`INSERT INTO c VALUES (4)`.execute(trx)
    await sql`INSERT INTO c VALUES (1)`.execute(trx)
  }), /duplicate key/)
  const rows = (await sql<{ n: number }>`SELECT n FROM c ORDER BY n`.execute(h.db)).rows.map(r => r.n)
  t.same(rows, [1, 2, 3, 11, 12, 13], 'three committed, the failed one left nothing')
  t.same((await sql<{ one: number }>`SELECT 1 AS one`.execute(h.db)).rows, [{ one: 1 }], 'the connection is usable after the rollback')
})
