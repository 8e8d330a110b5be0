// A Kysely dialect for PGlite 0.5: Kysely's own Postgres adapter, query compiler and
// introspector over one PGlite instance. PGlite has a single connection, so the driver
// hands it out through a queue: a transaction holds it until it commits. A Kysely
// transaction runs inside PGlite's own `transaction()`, which holds PGlite's lock for its
// whole length: another client of the same instance (a job queue given `handle.pglite`)
// waits for the commit instead of slipping its statements into the open transaction, as
// it would between a plain BEGIN and COMMIT sent as separate queries.
import {
  PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler,
  type CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely'
import type { PGlite, Transaction } from '@electric-sql/pglite'

/** An open PGlite transaction: how to end it (true: commit), and its end. */
interface OpenTx { end: (commit: boolean) => void, done: Promise<void> }

class PGliteConnection implements DatabaseConnection {
  readonly #db: PGlite
  /** Set while a Kysely transaction runs: its queries go through it. */
  tx: Transaction | undefined
  constructor (db: PGlite) { this.#db = db }

  async executeQuery<R> (q: CompiledQuery): Promise<QueryResult<R>> {
    const res = await (this.tx ?? this.#db).query<R>(q.sql, q.parameters as unknown[])
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
  #open: OpenTx | undefined

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

  async beginTransaction (): Promise<void> {
    const conn = this.#conn
    let started!: () => void
    const begun = new Promise<void>(resolve => { started = resolve })
    let end!: (commit: boolean) => void
    const ended = new Promise<boolean>(resolve => { end = resolve })
    // Settles after PGlite's COMMIT (or ROLLBACK); rejects when either fails.
    const done = this.#db.transaction(async tx => {
      conn.tx = tx
      started()
      try {
        if (!await ended && !tx.closed) await tx.rollback()
      } finally { conn.tx = undefined }
    })
    this.#open = { end, done }
    await Promise.race([begun, done])
  }

  async commitTransaction (): Promise<void> { await this.#end(true) }
  async rollbackTransaction (): Promise<void> { await this.#end(false) }

  async #end (commit: boolean): Promise<void> {
    const open = this.#open
    if (open === undefined) throw new Error('PGlite dialect: no transaction is open')
    this.#open = undefined
    open.end(commit)
    await open.done
  }
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
