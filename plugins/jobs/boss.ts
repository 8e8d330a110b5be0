// pg-boss as the job engine runs it: on the shared pg Pool (PostgreSQL), or on the one
// PGlite instance with the polls a single-process database never needs left out.
import { PgBoss, fromPglite, type ConstructorOptions, type Db } from 'pg-boss'
import type pg from 'pg'
import type { SqlHandle } from '@agentd/sdk/kits/sql'

/** pg-boss's executor over the shared pg Pool (its multi-statement scripts return one result per statement). */
function poolDb (pool: pg.Pool): Db {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const res = await pool.query(text, values) as pg.QueryResult | pg.QueryResult[]
      return { rows: Array.isArray(res) ? res.flatMap(r => r.rows ?? []) : res.rows }
    },
  }
}

/** pg-boss's schema beside the memory tables' (`pgboss` on the default `public`). */
export function bossSchema (schema: string): string {
  return schema === 'public' ? 'pgboss' : `${schema.slice(0, 55)}_pgboss`
}

/**
 * pg-boss on PGlite. A PGlite folder is open in one process only, so nothing is queued,
 * scheduled or left running by anyone else: what pg-boss polls for on a shared database
 * (other processes' sends, their heartbeats, dependency flows) cannot happen, and at rest
 * each of those polls was a query in WebAssembly (with its garbage) every few seconds:
 * ~50 ms of CPU a second in all. Here a send wakes its worker through PGlite's in-process
 * NOTIFY; the instance registry (and its 20 ms event-loop sampler) is not kept, since this
 * process is the only worker (workers() answers for it); supervision (expiring runs past
 * their time, deleting old jobs) runs every 10 minutes; flows, which no job uses, and
 * background migrations are looked at hourly.
 */
const EMBEDDED = {
  useListenNotify: true,
  registerInstance: false,
  superviseIntervalSeconds: 600,
  monitorIntervalSeconds: 600,
  queueCacheIntervalSeconds: 3600,
  flowIntervalSeconds: 3600,
  bamIntervalSeconds: 3600,
} as const
/** A worker's poll on PGlite, behind NOTIFY: only a net in case a wake-up is ever missed. */
export const EMBEDDED_BACKSTOP_POLL_SECONDS = 300

/** A PgBoss on the handle's database: `common` plus, on PGlite, the embedded settings above. */
export function newBoss (h: SqlHandle, common: Omit<ConstructorOptions, 'db'>): PgBoss {
  return h.backend === 'pglite'
    ? new PgBoss({ ...common, ...EMBEDDED, db: fromPglite(h.pglite), backend: 'pglite' })
    : new PgBoss({ ...common, db: poolDb(h.pool) })
}
