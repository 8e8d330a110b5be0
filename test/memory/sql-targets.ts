// SQL backends for memory tests: in-memory PGlite, and the real PostgreSQL 15 at
// 127.0.0.1:5432 (db `test`) in a schema of its own per test, dropped in teardown.
import { randomBytes } from 'node:crypto'
import type { Test } from 'tap'
import { sql } from 'kysely'
import { openSql, type SqlHandle, type SqlTarget } from '@agentd/sdk/kits/sql'

export const PG_URI = process.env.TEST_POSTGRES_URI ?? 'postgresql://postgres@127.0.0.1:5432/test'
const quiet = { warn: () => {} }

export const uniqueSchema = (): string => `t_${randomBytes(6).toString('hex')}`

export interface SqlBackend { name: 'pglite' | 'postgres', open: (t: Test) => Promise<SqlHandle> }

export const SQL_BACKENDS: SqlBackend[] = [
  {
    name: 'pglite',
    open: async (t) => {
      const h = await openSql({ backend: 'pglite', dir: null, schema: 'public' }, quiet)
      t.teardown(async () => { await h.close() })
      return h
    },
  },
  {
    name: 'postgres',
    open: async (t) => {
      const target: SqlTarget = { backend: 'postgres', uri: PG_URI, schema: uniqueSchema(), poolSize: 4, connectTimeoutMs: 3000 }
      const h = await openSql(target, quiet)
      t.teardown(async () => {
        await sql.raw(`DROP SCHEMA IF EXISTS "${target.schema}" CASCADE`).execute(h.db).catch(() => {})
        await h.close()
      })
      return h
    },
  },
]
