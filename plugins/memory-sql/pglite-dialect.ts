// A Kysely dialect for PGlite 0.5: Kysely's own Postgres adapter, query compiler and
// introspector over one PGlite instance. PGlite has a single connection, so the driver
// hands it out through a queue: a transaction holds it until it commits.
import {
  CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely'
import type { PGlite } from '@electric-sql/pglite'

class PGliteConnection implements DatabaseConnection {
  readonly #db: PGlite
  constructor (db: PGlite) { this.#db = db }

  async executeQuery<R> (q: CompiledQuery): Promise<QueryResult<R>> {
    const res = await this.#db.query<R>(q.sql, q.parameters as unknown[])
    return { rows: res.rows, numAffectedRows: res.affectedRows === undefined ? undefined : BigInt(res.affectedRows) }
  }

  // eslint-disable-next-line require-yield
  async * streamQuery<R> (): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect: streaming queries are not supported; page with LIMIT/OFFSET.')
  }
}

class PGliteDriver implements Driver {
  readonly #db: PGlite
  readonly #conn: PGliteConnection
  #tail: Promise<void> = Promise.resolve()
  #release: (() => void) | undefined

  constructor (db: PGlite) { this.#db = db; this.#conn = new PGliteConnection(db) }
  async init (): Promise<void> { await this.#db.waitReady }

  async acquireConnection (): Promise<DatabaseConnection> {
    const prev = this.#tail
    let release!: () => void
    this.#tail = new Promise<void>(resolve => { release = resolve })
    await prev
    this.#release = release
    return this.#conn
  }

  async releaseConnection (): Promise<void> {
    const r = this.#release
    this.#release = undefined
    r?.()
  }

  async beginTransaction (c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw('begin')) }
  async commitTransaction (c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw('commit')) }
  async rollbackTransaction (c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw('rollback')) }
  // The PGlite instance belongs to the resource pool, which closes it.
  async destroy (): Promise<void> {}
}

export class PGliteDialect implements Dialect {
  readonly #db: PGlite
  constructor (db: PGlite) { this.#db = db }
  createAdapter (): PostgresAdapter { return new PostgresAdapter() }
  createDriver (): Driver { return new PGliteDriver(this.#db) }
  createQueryCompiler (): PostgresQueryCompiler { return new PostgresQueryCompiler() }
  createIntrospector (db: Kysely<unknown>): PostgresIntrospector { return new PostgresIntrospector(db) }
}
