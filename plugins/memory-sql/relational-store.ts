// The relational + vector memory store on SQL (PGlite or PostgreSQL): every relational role
// (contracts/memory-stores.ts). Turns and conversations (relational-turns.ts), goals,
// strategies and tool calls (relational-procedural.ts) and the base (relational-base.ts:
// the handle, health, stored vectors) are the classes it extends; channels and the audit
// log are here. Set-up (migrations, vector mode) is SqlReady's, on first use.
import { sql, type Kysely } from 'kysely'
import type { AuditEntry, Channel, DeleteCounts, GraphStore, RelationalStore } from '@agentd/sdk/contracts/memory-stores'
import { SQL_CHANNEL_TX, SqlReady, iso, jsonb, obj, type Row, type SqlTxParticipant } from '@agentd/sdk/kits/sql'
import { SqlProceduralRoles } from './relational-procedural.ts'
import { removingTurns } from './relational-rows.ts'

export class SqlRelationalStore extends SqlProceduralRoles implements RelationalStore {
  async createChannel (name: string): Promise<{ created: boolean, channel: Channel }> {
    return await this.run(async db => {
      const ins = await sql<Row>`INSERT INTO memory_channels (name) VALUES (${name}) ON CONFLICT DO NOTHING RETURNING name, created_at`.execute(db)
      if (ins.rows.length > 0) return { created: true, channel: { name, created_at: iso(ins.rows[0].created_at) } }
      const r = await sql<Row>`SELECT name, created_at FROM memory_channels WHERE name = ${name}`.execute(db)
      return { created: false, channel: { name, created_at: iso(r.rows[0].created_at) } }
    })
  }

  async channels (): Promise<Channel[]> {
    return await this.run(async db => {
      // A channel that only exists because data was written in it still counts as a channel.
      const r = await sql<Row>`SELECT name, min(created_at) AS created_at FROM (
          SELECT name, created_at FROM memory_channels
          UNION ALL SELECT channel, min(created_at) FROM conversations GROUP BY channel
          UNION ALL SELECT channel, min(created_at) FROM strategies GROUP BY channel
          UNION ALL SELECT channel, min(created_at) FROM goals GROUP BY channel) c GROUP BY name ORDER BY name`.execute(db)
      return r.rows.map(row => ({ name: String(row.name), created_at: iso(row.created_at) }))
    })
  }

  async #deleteChannelIn (trx: Kysely<unknown>, name: string): Promise<DeleteCounts> {
    const n = async (q: ReturnType<typeof sql>): Promise<number> => Number((await q.execute(trx)).numAffectedRows ?? 0)
    const turns = await n(sql`DELETE FROM turns WHERE channel = ${name}`)
    // A conversation belongs to the channel it started in; its turns in other channels stay.
    const conversations = await n(sql`DELETE FROM conversations c WHERE c.channel = ${name} AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.conversation_id = c.id)`)
    const strategies = await n(sql`DELETE FROM strategies WHERE channel = ${name}`)
    const goals = await n(sql`DELETE FROM goals WHERE channel = ${name}`)
    const toolInvocations = await n(sql`DELETE FROM tool_invocations WHERE channel = ${name}`)
    const channel = await n(sql`DELETE FROM memory_channels WHERE name = ${name}`)
    return { turns, conversations, strategies, goals, tool_invocations: toolInvocations, channels: channel }
  }

  async deleteChannel (name: string): Promise<DeleteCounts> {
    return await this.run(async db => await removingTurns(db, async () => await db.transaction().execute(async trx => await this.#deleteChannelIn(trx, name))))
  }

  /** One transaction when the graph store is the SQL one on this same database. */
  async deleteChannelWith (name: string, graph: GraphStore): Promise<{ relational: DeleteCounts, graph: DeleteCounts } | undefined> {
    const part = (graph as Partial<SqlTxParticipant>)[SQL_CHANNEL_TX]?.(this.r.h)
    if (part === undefined) return undefined
    // Set up outside the transaction: PGlite has one connection, which the transaction holds.
    await part.prepare()
    return await this.run(async db => await removingTurns(db, async () => await db.transaction().execute(async trx => ({
      relational: await this.#deleteChannelIn(trx, name),
      graph: await part.deleteChannel(trx, name),
    }))))
  }

  async countByChannel (): Promise<Record<string, Record<string, number>>> {
    return await this.r.countByChannel(sql<Row>`SELECT channel, 'turns' AS kind, count(*)::int AS n FROM turns GROUP BY channel
        UNION ALL SELECT channel, 'strategies', count(*)::int FROM strategies GROUP BY channel
        UNION ALL SELECT channel, 'goals', count(*)::int FROM goals GROUP BY channel
        UNION ALL SELECT channel, 'conversations', count(*)::int FROM conversations GROUP BY channel`)
  }

  async deleteMemories (): Promise<number> {
    return await this.run(async db => await db.transaction().execute(async trx => {
      const s = await sql`DELETE FROM strategies`.execute(trx)
      const g = await sql`DELETE FROM goals`.execute(trx)
      return Number(s.numAffectedRows ?? 0) + Number(g.numAffectedRows ?? 0)
    }))
  }

  async audit (e: { action: string, target?: string, channel?: string, details?: Record<string, unknown> }): Promise<void> {
    await this.run(async db => {
      await sql`INSERT INTO memory_audit_log (action, target, channel, details) VALUES (${e.action}, ${e.target ?? null}, ${e.channel ?? null}, ${jsonb(e.details ?? {})}::jsonb)`.execute(db)
    })
  }

  async pruneToolInvocations (days: number): Promise<number> {
    return await this.run(async db => Number((await sql`DELETE FROM tool_invocations WHERE created_at < now() - make_interval(days => ${days}::int)`.execute(db)).numAffectedRows ?? 0))
  }

  async pruneAudit (days: number): Promise<number> {
    return await this.run(async db => Number((await sql`DELETE FROM memory_audit_log WHERE at < now() - make_interval(days => ${days}::int)`.execute(db)).numAffectedRows ?? 0))
  }

  async auditFor (target: string, limit: number): Promise<AuditEntry[]> {
    return await this.run(async db => {
      const r = await sql<Row>`SELECT at, action, target, channel, details FROM memory_audit_log WHERE target = ${target} ORDER BY id LIMIT ${limit}`.execute(db)
      return r.rows.map(row => ({ at: iso(row.at), action: String(row.action), target: row.target === null ? null : String(row.target), channel: row.channel === null ? null : String(row.channel), details: obj(row.details) }))
    })
  }

  async auditLog (limit: number): Promise<Array<{ at: string, action: string, target: string | null, channel: string | null, details: Record<string, unknown> }>> {
    return await this.run(async db => {
      const r = await sql<Row>`SELECT at, action, target, channel, details FROM memory_audit_log ORDER BY id DESC LIMIT ${limit}`.execute(db)
      return r.rows.map(row => ({ at: iso(row.at), action: String(row.action), target: row.target === null ? null : String(row.target), channel: row.channel === null ? null : String(row.channel), details: obj(row.details) }))
    })
  }

}
