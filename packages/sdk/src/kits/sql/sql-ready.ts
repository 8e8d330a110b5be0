// Per store and database: migrations, the vector mode (pgvector or the real[] fallback),
// the real[] -> vector upgrade once pgvector is there, and the lazily built HNSW indexes.
// Set-up runs on first use and again after a failure, so a database that was down at
// start is set up as soon as it answers.
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { StoreHealth } from '../../contracts/memory-stores.ts'
import type { SqlHandle } from './connect.ts'
import { ensureSchema } from './connect.ts'
import { columnVectorType, detectVector, migrate, upgradeVectorColumns, type Migration } from './migrate.ts'
import { num, type Row } from './rows.ts'
import { guarded } from './unavailable.ts'
import { ensureVectorIndex, type VectorMode } from './vector.ts'

export class SqlReady {
  readonly h: SqlHandle
  readonly #component: 'relational' | 'graph'
  readonly #migrations: Migration[]
  /** The component's tables with an embedding column; the first one tells the mode. */
  readonly #tables: string[]
  #ready: Promise<void> | undefined
  mode: VectorMode = 'real[]'
  warning: string | undefined
  /** Tables whose real[] columns were converted to vector at this set-up (for the log). */
  upgraded: string[] = []
  readonly #indexed = new Set<string>()

  constructor (h: SqlHandle, component: 'relational' | 'graph', migrations: Migration[], vectorTables: string[]) {
    this.h = h; this.#component = component; this.#migrations = migrations; this.#tables = vectorTables
  }

  async ready (): Promise<void> {
    this.#ready ??= (async () => {
      await ensureSchema(this.h)
      const v = await detectVector(this.h.db)
      await migrate(this.h.db, this.#component, this.#migrations, { vectorType: v.type })
      if (v.type === 'vector') this.upgraded = await upgradeVectorColumns(this.h.db, this.#tables)
      this.mode = await columnVectorType(this.h.db, this.#tables[0])
      this.warning = this.mode === 'vector' ? undefined : (v.warning ?? 'The embedding columns were created without pgvector: similarity search uses an exact cosine scan.')
    })()
    // A failed setup (database down) is retried by the next call.
    this.#ready.catch(() => { this.#ready = undefined })
    await this.#ready
  }

  /** `fn` on the set-up database; a connection failure is a StoreUnavailableError and counts on the handle's breaker. */
  async run<T> (fn: (db: Kysely<unknown>) => Promise<T>): Promise<T> {
    return await guarded(this.#component, this.h.backend, async () => { await this.ready(); return await fn(this.h.db) }, this.h.breaker)
  }

  /** The store's health: one round trip, set-up included (a store whose migrations fail is not healthy). */
  async health (): Promise<StoreHealth> {
    try {
      await this.run(async db => { await sql`SELECT 1`.execute(db) })
      return { status: 'healthy', backend: this.h.backend, ...(this.warning === undefined ? {} : { warning: this.warning }) }
    } catch (err) {
      return { status: 'unhealthy', backend: this.h.backend, error: (err as Error).message }
    }
  }

  /** Counts per channel and kind from a query of `(channel, kind, n)` rows (the stores' channel listings). */
  async countByChannel (query: RawBuilder<Row>): Promise<Record<string, Record<string, number>>> {
    return await this.run(async db => {
      const out: Record<string, Record<string, number>> = {}
      for (const row of (await query.execute(db)).rows) (out[String(row.channel)] ??= {})[String(row.kind)] = num(row.n)
      return out
    })
  }

  async index (table: string, dims: number): Promise<void> {
    const key = `${table}:${dims}`
    if (this.#indexed.has(key)) return
    await ensureVectorIndex(this.h.db, this.mode, table, dims)
    this.#indexed.add(key)
  }
}
