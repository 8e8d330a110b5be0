// The SQL relational store's base: the database handle behind every role (set-up on first
// use: migrations, vector mode, SqlReady), health, and the stored vectors (re-embedding).
// The roles extend it in turn: turns (relational-turns.ts), goals, strategies and tool calls
// (relational-procedural.ts), channels and the audit log (relational-store.ts, the whole).
import { sql, type Kysely } from 'kysely'
import type { EmbedderUsage, EmbeddingRef, StaleEmbedding, StaleQuery, StoreHealth } from '@agentd/sdk/contracts/memory-stores'
import { SqlReady, num, setEmbeddings, staleEmbeddings, type Row, type SqlHandle } from '@agentd/sdk/kits/sql'
import { relationalMigrations } from './migrations.ts'
import { SOURCES } from './relational-rows.ts'

export class SqlStoreBase {
  readonly backend: string
  protected readonly r: SqlReady

  constructor (h: SqlHandle) {
    this.backend = h.backend
    this.r = new SqlReady(h, 'relational', relationalMigrations, SOURCES.map(x => x.table))
  }

  /** Tables converted from real[] to vector at set-up (for the plugin's log). */
  get upgraded (): string[] { return this.r.upgraded }

  protected async run<T> (fn: (db: Kysely<unknown>) => Promise<T>): Promise<T> {
    return await this.r.run(fn)
  }

  /** Sets up the schema now; throws StoreUnavailableError when the database is down. */
  async init (): Promise<void> { await this.run(async () => {}) }

  async health (): Promise<StoreHealth> { return await this.r.health() }

  async staleEmbeddings (q: StaleQuery): Promise<StaleEmbedding[]> {
    return await this.run(async db => await staleEmbeddings(db, SOURCES, q))
  }

  async setEmbeddings (items: Array<{ kind: string, id: string, embedding: EmbeddingRef | null }>): Promise<number> {
    return await this.run(async db => await setEmbeddings(db, this.r, SOURCES, items))
  }

  async embedderUsage (): Promise<EmbedderUsage[]> {
    return await this.run(async db => {
      const r = await sql<Row>`SELECT embedder, embedding_dims AS dims, count(*)::int AS n FROM (
          SELECT embedder, embedding_dims FROM turns UNION ALL SELECT embedder, embedding_dims FROM strategies
          UNION ALL SELECT embedder, embedding_dims FROM goals) v WHERE embedder IS NOT NULL GROUP BY embedder, embedding_dims`.execute(db)
      return r.rows.map(row => ({ embedder: String(row.embedder), dimensions: num(row.dims), count: num(row.n) }))
    })
  }
}
