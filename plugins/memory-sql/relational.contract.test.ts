// The relational store contract (test/memory/relational-contract.ts: one suite per slice of
// RelationalStore) on every SQL backend: embedded PGlite and the real PostgreSQL 15 (without
// pgvector here, so its exact-cosine fallback is what runs), with what only SQL has:
// versioned migrations, the backend's health.
import t from 'tap'
import { sql } from 'kysely'
import { SQL_BACKENDS } from '../../test/memory/sql-targets.ts'
import { relationalStoreContract } from '../../test/memory/relational-contract.ts'
import { SqlRelationalStore } from './relational-store.ts'
import { migrate } from '@agentd/sdk/kits/sql'
import { relationalMigrations } from './migrations.ts'

for (const backend of SQL_BACKENDS) {
  t.test(`relational store on ${backend.name}`, async t => {
    const h = await backend.open(t)
    const store = new SqlRelationalStore(h)
    await store.init()

    t.test('migrations are versioned and safe to run twice', async t => {
      const again = await migrate(h.db, 'relational', relationalMigrations, { vectorType: 'real[]' })
      t.same(again, [], 'nothing re-applied')
      await new SqlRelationalStore(h).init()
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM agentd_migrations WHERE component = 'relational'`.execute(h.db)
      t.equal(r.rows[0].n, relationalMigrations.length)
    })

    t.test('health names the backend; the fallback carries a warning', async t => {
      const hl = await store.health()
      t.equal(hl.status, 'healthy')
      t.equal(hl.backend, backend.name)
      if (backend.name === 'postgres') t.match(hl.warning, /pgvector/)
      else t.equal(hl.warning, undefined, 'pglite has pgvector')
    })

    relationalStoreContract(t, store, async (action, days) => {
      await sql`UPDATE memory_audit_log SET at = now() - make_interval(days => ${days}) WHERE action = ${action}`.execute(h.db)
    })
  })
}
