// Opens the SQL backend as a pooled resource: a pg Pool or one PGlite instance, wrapped
// in Kysely. Opening never needs the server to be up: pg connects lazily and reconnects
// by itself, so a database that is down at start or goes away later only makes calls
// fail (as StoreUnavailableError) until it is back.
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { mkdirSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import type { PGlite } from '@electric-sql/pglite'
import type { ResourceSpec } from '../../kernel/plugin.ts'
import { PGliteDialect } from './pglite-dialect.ts'
import { NulSafePlugin } from './nul-safe.ts'
import { redactUri, type SqlTarget } from './target.ts'
import { Breaker } from './breaker.ts'
import { pgliteSeedDump, seedDataDir } from './pglite-seed.ts'
import { keepStatistics, STATISTICS_CHECK_MS, StatementCounter } from './statistics.ts'
import path from 'node:path'

interface SqlHandleBase {
  readonly db: Kysely<unknown>
  readonly schema: string
  /** For logs and health: the URI without its password, or the PGlite folder. */
  readonly label: string
  /** Shared by every store on this database: one outage, one cool-down. */
  readonly breaker: Breaker
  close: () => Promise<void>
}

/**
 * One open database. `db` is what stores use. The driver underneath is there for a
 * library that needs its own client on the same database (a job queue): `pglite` is the
 * one embedded instance (its single connection is shared: see pglite-dialect.ts for why
 * a Kysely transaction cannot be entered by another client's query), `pool` the pg Pool.
 */
export type SqlHandle = SqlHandleBase & (
  | { readonly backend: 'pglite', readonly pglite: PGlite }
  | { readonly backend: 'postgres', readonly pool: pg.Pool }
)

/**
 * Postgres settings for one user's embedded database. The defaults are a server's: 128 MB
 * of shared buffers alone made PGlite hold ~350 MB resident; 16 MB holds the memory
 * tables' hot pages at this scale (the recall bench's p95 is the check).
 */
export const PGLITE_SETTINGS = ['shared_buffers = 16MB', 'wal_buffers = 1MB', 'temp_buffers = 2MB', 'maintenance_work_mem = 32MB']

type Log = Pick<FastifyInstance['log'], 'warn'>

async function openPglite (target: Extract<SqlTarget, { backend: 'pglite' }>, log: Log): Promise<SqlHandle> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { vector } = await import('@electric-sql/pglite-pgvector')
  if (target.dir !== null) {
    mkdirSync(path.dirname(target.dir), { recursive: true })
    await seedDataDir(target.dir, target.schema)
  }
  // A folder starts as a copy of the seed (above); an in-memory instance loads the seed's tar, or the dump it was given.
  const start = target.dir === null ? { loadDataDir: target.load ?? await pgliteSeedDump() } : { dataDir: target.dir }
  const pglite = await PGlite.create({ ...start, extensions: { vector }, postgresqlconf: PGLITE_SETTINGS })
  await pglite.exec('CREATE EXTENSION IF NOT EXISTS vector')
  // A channel filter is applied after the HNSW scan; iterative scans keep going until
  // enough rows pass it, so a small channel in a big table still gets its nearest rows.
  await pglite.exec('SET hnsw.iterative_scan = strict_order')
  if (target.schema !== 'public') await pglite.exec(`CREATE SCHEMA IF NOT EXISTS "${target.schema}"; SET search_path TO "${target.schema}", public`)
  const statements = new StatementCounter()
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite), plugins: [new NulSafePlugin(), statements] })
  // No autovacuum in PGlite: the handle ANALYZEs tables that grew (statistics.ts), looking
  // only when statements ran since it last looked.
  const stopStatistics = keepStatistics(db, target.schema, err => { log.warn({ err: (err as Error).message }, 'PGlite: could not refresh planner statistics') }, STATISTICS_CHECK_MS, 5_000, statements)
  return {
    db, backend: 'pglite', pglite, schema: target.schema, label: target.dir ?? 'pglite (in memory)', breaker: new Breaker(0),
    close: async () => { stopStatistics(); await db.destroy(); await pglite.close() },
  }
}

function openPostgres (target: Extract<SqlTarget, { backend: 'postgres' }>, log: Log): SqlHandle {
  const pool = new pg.Pool({
    connectionString: target.uri,
    max: target.poolSize,
    connectionTimeoutMillis: target.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // search_path per connection: the memory tables live in their own schema, pgvector's types in public.
    options: `-c search_path="${target.schema}",public`,
  })
  // Same reason as for PGlite; a placeholder setting is harmless where pgvector is absent.
  pool.on('connect', client => {
    client.query('SET hnsw.iterative_scan = strict_order').catch(() => {})
    // pg-pool listens for errors only on idle clients: a connection that drops while its
    // client is checked out (between the queries of a transaction, or just before release)
    // would emit an 'error' nobody handles and kill the process. Its query fails anyway.
    client.on('error', err => { log.warn({ err: err.message }, `SQL store (${redactUri(target.uri)}): a PostgreSQL connection in use failed`) })
  })
  // An idle client whose server went away emits 'error'; unhandled, it would kill the process.
  pool.on('error', err => { log.warn({ err: err.message }, `SQL store (${redactUri(target.uri)}): an idle PostgreSQL connection failed; it will be replaced`) })
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }), plugins: [new NulSafePlugin()] })
  return { db, backend: 'postgres', pool, schema: target.schema, label: redactUri(target.uri), breaker: new Breaker(target.cooldownMs ?? 5000), close: async () => { await db.destroy() } }
}

/** Opens a handle outside the pool (tests, benches); the caller closes it. */
export async function openSql (target: SqlTarget, log: Log): Promise<SqlHandle> {
  return target.backend === 'pglite' ? await openPglite(target, log) : openPostgres(target, log)
}

/**
 * The resource spec of a target's handle: kind `sql:<backend>`, keyed by the whole target.
 * Every plugin that acquires it with an equal target (the same resolved options) gets the
 * same instance, and the pool closes it when the last holder's generation closes.
 */
export function sqlResource (target: SqlTarget, log: Log): ResourceSpec<SqlHandle> {
  return {
    kind: `sql:${target.backend}`,
    options: target,
    create: async () => await openSql(target, log),
    dispose: async h => { await h.close() },
  }
}

/** The SQL handle for this target from the resource pool: same target, same instance across reloads and plugins. */
export async function acquireSql (app: FastifyInstance, target: SqlTarget): Promise<SqlHandle> {
  return await app.resources.acquire(sqlResource(target, app.log))
}

/** Creates the schema on PostgreSQL (PGlite did it when opening). */
export async function ensureSchema (h: SqlHandle): Promise<void> {
  if (h.backend === 'postgres' && h.schema !== 'public') await sql.raw(`CREATE SCHEMA IF NOT EXISTS "${h.schema}"`).execute(h.db)
}
