// The graph memory store on SQL (same database as memory-sql): every graph role
// (contracts/memory-stores.ts). Entities and relationships (graph-entities.ts), facts
// (graph-facts.ts) and the base (graph-base.ts: the handle, health, stored vectors) are the
// classes it extends; its channels and its maintenance (maintenance.ts: decay, entity linking) (deleted in memory-sql's transaction when both share a
// database) are here. Neighbourhoods come from a recursive CTE that walks relationships
// both ways, up to depth 3, never revisiting an entity.
import { sql, type Kysely } from 'kysely'
import type { DeleteCounts, EntityMerged, GraphStore } from '@agentd/sdk/contracts/memory-stores'
import { SQL_CHANNEL_TX, type Row, type SqlChannelPart, type SqlHandle, type SqlTxParticipant } from '@agentd/sdk/kits/sql'
import { SqlFactRoles } from './graph-facts.ts'
import { decay, linkEntities } from './maintenance.ts'

export class SqlGraphStore extends SqlFactRoles implements GraphStore, SqlTxParticipant {
  [SQL_CHANNEL_TX] (h: SqlHandle): SqlChannelPart | undefined {
    if (h !== this.r.h) return undefined
    return { prepare: async () => { await this.init() }, deleteChannel: async (trx, name) => await this.#deleteChannelIn(trx, name) }
  }

  async #deleteChannelIn (trx: Kysely<unknown>, name: string): Promise<DeleteCounts> {
    const facts = Number((await sql`DELETE FROM facts WHERE channel = ${name}`.execute(trx)).numAffectedRows ?? 0)
    const rels = Number((await sql`DELETE FROM relationships WHERE channel = ${name}`.execute(trx)).numAffectedRows ?? 0)
    const entities = Number((await sql`DELETE FROM entities WHERE channel = ${name}`.execute(trx)).numAffectedRows ?? 0)
    return { entities, facts, relationships: rels }
  }

  async deleteChannel (name: string): Promise<DeleteCounts> {
    return await this.run(async db => await db.transaction().execute(async trx => await this.#deleteChannelIn(trx, name)))
  }

  async countByChannel (): Promise<Record<string, Record<string, number>>> {
    return await this.r.countByChannel(sql<Row>`SELECT channel, 'entities' AS kind, count(*)::int AS n FROM entities GROUP BY channel
        UNION ALL SELECT channel, 'facts', count(*)::int FROM facts GROUP BY channel`)
  }

  async deleteAll (): Promise<number> {
    return await this.run(async db => await db.transaction().execute(async trx => {
      let n = 0
      for (const table of ['relationships', 'fact_entities', 'facts', 'entities']) n += Number((await sql`DELETE FROM ${sql.table(table)}`.execute(trx)).numAffectedRows ?? 0)
      return n
    }))
  }

  // Maintenance, run by the decay and entity_linking job plugins (maintenance.ts).
  async decay (o: { halfLifeDays: number, minIdleHours: number }): Promise<{ entities: number, facts: number }> {
    return await this.maintain(async db => await decay(db, o.halfLifeDays, o.minIdleHours))
  }

  async linkEntities (o: { similarity: number, maxMerges: number, signal: AbortSignal, onMerged?: (m: EntityMerged) => Promise<void> }): Promise<Record<string, number>> {
    return await this.maintain(async (db, mode) => await linkEntities(db, mode, o.similarity, o.maxMerges, o.signal, o.onMerged))
  }
}
