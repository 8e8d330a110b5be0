// What every store on the SQL database starts from (memory-sql's relational store,
// memory-graph-sql's graph store): the handle set up on first use (migrations, vector
// mode: SqlReady), health, and the stored vectors of its tables (re-embedding, the
// embedders they came from). A store's roles extend it, one class per role.
import { sql, type Kysely } from 'kysely'
import type { EmbedderUsage, EmbeddingRef, StaleEmbedding, StaleQuery, StoreHealth } from '../../contracts/memory-stores.ts'
import type { SqlHandle } from './connect.ts'
import type { Migration } from './migrate.ts'
import { SqlReady } from './sql-ready.ts'
import { setEmbeddings, staleEmbeddings, type VectorSource } from './reembed.ts'
import { num, type Row } from './rows.ts'

export class SqlStore {
  readonly backend: string
  protected readonly r: SqlReady
  /** The tables with a vector, and what each was made from. */
  protected readonly sources: VectorSource[]

  constructor (h: SqlHandle, component: 'relational' | 'graph', migrations: Migration[], sources: VectorSource[], vectorTables = sources.map(s => s.table)) {
    this.backend = h.backend
    this.sources = sources
    this.r = new SqlReady(h, component, migrations, vectorTables)
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
    return await this.run(async db => await staleEmbeddings(db, this.sources, q))
  }

  async setEmbeddings (items: Array<{ kind: string, id: string, embedding: EmbeddingRef | null }>): Promise<number> {
    return await this.run(async db => await setEmbeddings(db, this.r, this.sources, items))
  }

  async embedderUsage (): Promise<EmbedderUsage[]> {
    const union = sql.raw(this.sources.map(s => `SELECT embedder, embedding_dims FROM ${s.table}`).join(' UNION ALL '))
    return await this.run(async db => {
      const r = await sql<Row>`SELECT embedder, embedding_dims AS dims, count(*)::int AS n FROM (${union}) v
        WHERE embedder IS NOT NULL GROUP BY embedder, embedding_dims`.execute(db)
      return r.rows.map(row => ({ embedder: String(row.embedder), dimensions: num(row.dims), count: num(row.n) }))
    })
  }
}
