// The in-process key-value store, kept across restarts: every change is written behind to
// the SQL database (the embedded PGlite under AGENT_DATA_DIR by default, through the SQL
// kit's shared handle), and the next start loads what has not expired. Reads never touch
// the database, so memory-kv stays the fast path; writes are batched every
// flush_interval_ms. TTLs are kept as absolute times, so a key that expires while the
// server is stopped is gone when it starts again.
import { sql, type Kysely } from 'kysely'
import type { FastifyBaseLogger } from 'fastify'
import { ensureSchema, jsonb, migrate, num, type Migration, type Row, type SqlHandle } from '@agentd/sdk/kits/sql'
import type { Entry, LocalKvStore } from './local-store.ts'

const migrations: Migration[] = [{
  version: 1,
  name: 'agentd_kv: the in-process key-value store written behind',
  up: async (db) => {
    await sql`CREATE TABLE IF NOT EXISTS agentd_kv (
      key text PRIMARY KEY, value jsonb NOT NULL, ttl_ms bigint, expires_at_ms bigint,
      touched_at timestamptz NOT NULL DEFAULT clock_timestamp())`.execute(db)
    await sql`CREATE INDEX IF NOT EXISTS agentd_kv_expires ON agentd_kv (expires_at_ms) WHERE expires_at_ms IS NOT NULL`.execute(db)
  },
}]

/** Rows per INSERT statement of a flush. */
const BATCH = 200

export class SqlKvPersistence {
  readonly #h: SqlHandle
  readonly #log: FastifyBaseLogger
  readonly #intervalMs: number
  readonly #dirty = new Set<string>()
  #store: LocalKvStore | undefined
  #timer: NodeJS.Timeout | undefined
  #chain: Promise<void> = Promise.resolve()
  #failing = false
  #ready: Promise<void> | undefined

  constructor (h: SqlHandle, log: FastifyBaseLogger, intervalMs: number) {
    this.#h = h
    this.#log = log
    this.#intervalMs = intervalMs
  }

  get db (): Kysely<unknown> { return this.#h.db }
  get pending (): number { return this.#dirty.size }

  /** Creates the table and loads every live key into `store` (most recently written last). */
  async load (store: LocalKvStore, maxKeys: number): Promise<number> {
    this.#store = store
    await this.#setUp()
    const now = Date.now()
    await sql`DELETE FROM agentd_kv WHERE expires_at_ms <= ${now}`.execute(this.db)
    const r = await sql<Row>`SELECT key, value::text AS value, ttl_ms, expires_at_ms FROM agentd_kv
      ORDER BY touched_at DESC LIMIT ${maxKeys}`.execute(this.db)
    const entries: Array<[string, Entry]> = r.rows.reverse().map(row => [String(row.key), {
      value: JSON.parse(String(row.value)) as unknown,
      ttlMs: row.ttl_ms === null ? undefined : num(row.ttl_ms),
      expiresAt: row.expires_at_ms === null ? undefined : num(row.expires_at_ms),
    }])
    store.restore(entries)
    return entries.length
  }

  /** The table, once; tried again after a failure (a database down at start). */
  async #setUp (): Promise<void> {
    this.#ready ??= (async () => {
      await ensureSchema(this.#h)
      await migrate(this.db, 'kv', migrations, { vectorType: 'real[]' })
    })()
    try { await this.#ready } catch (err) { this.#ready = undefined; throw err }
  }

  /** A key changed: written with the next flush. */
  changed (key: string): void {
    this.#dirty.add(key)
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => { this.#timer = undefined; void this.flush() }, this.#intervalMs)
      this.#timer.unref()
    }
  }

  /** Writes every changed key now (one at a time: flushes never overlap). */
  async flush (): Promise<void> {
    this.#chain = this.#chain.then(async () => { await this.#flushOnce() })
    await this.#chain
  }

  async #flushOnce (): Promise<void> {
    const store = this.#store
    if (store === undefined || this.#dirty.size === 0) return
    const keys = [...this.#dirty]
    this.#dirty.clear()
    const live: Array<[string, Entry]> = []
    const gone: string[] = []
    for (const key of keys) {
      const e = store.peek(key)
      if (e === undefined) gone.push(key)
      else live.push([key, e])
    }
    try {
      await this.#setUp()
      await this.db.transaction().execute(async trx => {
        if (gone.length > 0) await sql`DELETE FROM agentd_kv WHERE key = ANY(${gone}::text[])`.execute(trx)
        for (let i = 0; i < live.length; i += BATCH) {
          const rows = live.slice(i, i + BATCH).map(([key, e]) =>
            sql`(${key}, ${jsonb(e.value)}::jsonb, ${e.ttlMs ?? null}::bigint, ${e.expiresAt ?? null}::bigint, clock_timestamp())`)
          await sql`INSERT INTO agentd_kv (key, value, ttl_ms, expires_at_ms, touched_at) VALUES ${sql.join(rows)}
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, ttl_ms = EXCLUDED.ttl_ms, expires_at_ms = EXCLUDED.expires_at_ms, touched_at = EXCLUDED.touched_at`.execute(trx)
        }
      })
      if (this.#failing) this.#log.info('memory-kv: writing to the database works again')
      this.#failing = false
    } catch (err) {
      // The in-process store still serves; the keys are written with a later flush.
      for (const key of keys) this.#dirty.add(key)
      if (!this.#failing) this.#log.warn({ err: (err as Error).message, keys: keys.length }, 'memory-kv: could not write changes to the database; they stay in process and are written once it answers')
      this.#failing = true
      if (this.#timer === undefined) {
        this.#timer = setTimeout(() => { this.#timer = undefined; void this.flush() }, Math.max(this.#intervalMs, 1000))
        this.#timer.unref()
      }
    }
  }

  /** Writes what is left and stops the timer (the generation is closing). */
  async close (): Promise<void> {
    clearTimeout(this.#timer)
    this.#timer = undefined
    await this.flush()
  }
}
