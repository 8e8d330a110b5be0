// The SQL graph store's base: the database handle behind every role (set-up on first use:
// migrations, vector mode, SqlReady), health, maintenance access and the stored vectors. The
// roles extend it in turn: entities and relationships (graph-entities.ts), facts
// (graph-facts.ts), channels (graph-store.ts, the whole).
import { sql, type Kysely } from 'kysely'
import type { EmbedderUsage, EmbeddingRef, StaleEmbedding, StaleQuery, StoreHealth } from '@agentd/sdk/contracts/memory-stores'
import { SqlReady, num, setEmbeddings, staleEmbeddings, type Row, type SqlHandle } from '@agentd/sdk/kits/sql'
import { graphMigrations } from './migrations.ts'
import { SOURCES } from './graph-rows.ts'

export class SqlGraphBase {
  readonly backend: string
  protected readonly r: SqlReady

  constructor (h: SqlHandle) {
    this.backend = h.backend
    this.r = new SqlReady(h, 'graph', graphMigrations, ['facts', 'entities'])
  }

  protected async run<T> (fn: (db: Kysely<unknown>) => Promise<T>): Promise<T> {
    return await this.r.run(fn)
  }

  /** Tables converted from real[] to vector at set-up (for the plugin's log). */
  get upgraded (): string[] { return this.r.upgraded }

  async init (): Promise<void> { await this.run(async () => {}) }


  /** For this plugin's maintenance jobs: `fn` on the set-up database, with its vector mode (connection failures as for any call). */
  async maintain<T> (fn: (db: Kysely<unknown>, mode: 'vector' | 'real[]') => Promise<T>): Promise<T> {
    return await this.run(async db => await fn(db, this.r.mode))
  }


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
          SELECT embedder, embedding_dims FROM entities UNION ALL SELECT embedder, embedding_dims FROM facts) v
        WHERE embedder IS NOT NULL GROUP BY embedder, embedding_dims`.execute(db)
      return r.rows.map(row => ({ embedder: String(row.embedder), dimensions: num(row.dims), count: num(row.n) }))
    })
  }
}
