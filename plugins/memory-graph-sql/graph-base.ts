// The SQL graph store's base: the SQL kit's SqlStore over this plugin's migrations and
// vector tables (entities, facts), and the maintenance jobs' access to the database. The
// roles extend it in turn: entities and relationships (graph-entities.ts), facts
// (graph-facts.ts), channels (graph-store.ts, the whole).
import type { Kysely } from 'kysely'
import { SqlStore, type SqlHandle } from '@agentd/sdk/kits/sql'
import { graphMigrations } from './migrations.ts'
import { SOURCES } from './graph-rows.ts'

export class SqlGraphBase extends SqlStore {
  constructor (h: SqlHandle) { super(h, 'graph', graphMigrations, SOURCES, ['facts', 'entities']) }

  /** For this plugin's maintenance jobs: `fn` on the set-up database, with its vector mode (connection failures as for any call). */
  async maintain<T> (fn: (db: Kysely<unknown>, mode: 'vector' | 'real[]') => Promise<T>): Promise<T> {
    return await this.run(async db => await fn(db, this.r.mode))
  }
}
