// The relational + vector memory store on SQL (PGlite or PostgreSQL): turns,
// conversations, goals, strategies, tool invocations, channels, audit log.
// Set-up (migrations, vector mode) is SqlReady's, on first use.
import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { AuditEntry, CopiedKind, CopySourceItem, GoalPatch, Channel, ConversationInfo, DeleteCounts, EmbedderUsage, EmbeddingRef, GraphStore, Goal, NewGoal, NewLearnedStrategy, NewToolInvocation, NewTurn, PageResult, RelationalStore, StaleEmbedding, StaleQuery, StoreHealth, LearnedStrategy, StrategyRun, ToolInvocation, Turn, VectorQuery } from '@agentd/sdk/contracts/memory-stores'
import {
  SQL_CHANNEL_TX, SqlReady, iso, isoOrNull, jsonb, likeContains, nearestRows, num, obj, setEmbeddings, staleEmbeddings, strArr, vectorValue,
  type Row, type SqlHandle, type SqlTxParticipant, type VectorSource,
} from '@agentd/sdk/kits/sql'
import { relationalMigrations } from './migrations.ts'
import { keywordSearch } from './keyword-search.ts'
import { turnAdded, turnsRemoved } from './channel-sizes.ts'
import { CONTEXT_GAP_MS, CONTEXT_LOOKBACK } from '@agentd/sdk/kits/recall'
import { recordStrategyRun } from './strategy-runs.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Thrown inside addTurn's transaction to roll it back when the turn's id is already stored. */
class AlreadyStored {
  readonly turn: Turn
  constructor (turn: Turn) { this.turn = turn }
}

/**
 * The turns a turn's vector is read with (as the memory service embeds it, @agentd/sdk/kits/recall
 * context.ts): the last CONTEXT_LOOKBACK before it in its conversation, or for a conversation's
 * first turn those of its channel at most CONTEXT_GAP_MS before it; JSON, oldest first.
 */
const TURN_CONTEXT = `(SELECT coalesce(json_agg(p.content ORDER BY p.ts, p.idx), '[]'::json)::text FROM (
    SELECT c.content, c.ts, c.idx FROM turns c WHERE c.conversation_id = turns.conversation_id AND c.idx < turns.idx
    UNION ALL
    SELECT c.content, c.ts, c.idx FROM turns c WHERE turns.idx = 0 AND c.channel = turns.channel AND c.conversation_id <> turns.conversation_id
      AND c.ts <= turns.ts AND c.ts >= turns.ts - interval '${CONTEXT_GAP_MS / 1000} seconds'
    ORDER BY ts DESC, idx DESC LIMIT ${CONTEXT_LOOKBACK}) p)`

/** What each table's vector was made from: the same text the memory service embeds. */
const SOURCES: VectorSource[] = [
  { kind: 'turn', table: 'turns', text: 'content', context: TURN_CONTEXT },
  { kind: 'goal', table: 'goals', text: 'description' },
  { kind: 'strategy', table: 'strategies', text: "description || ' ' || context_pattern" },
]

const toTurn = (r: Row): Turn => ({
  id: String(r.id), conversation_id: String(r.conversation_id), index: num(r.idx), timestamp: iso(r.ts), role: String(r.role),
  content: String(r.content), token_count: r.token_count === null ? null : num(r.token_count), metadata: obj(r.metadata),
  channel: String(r.channel), embedder: r.embedder === null ? null : String(r.embedder),
})
const toGoal = (r: Row): Goal => ({
  id: String(r.id), description: String(r.description), status: String(r.status) as Goal['status'], priority: num(r.priority),
  parent_goal_id: r.parent_goal_id === null ? null : String(r.parent_goal_id), created_at: iso(r.created_at), deadline: isoOrNull(r.deadline), channel: String(r.channel),
})
const toStrategy = (r: Row): LearnedStrategy => ({
  id: String(r.id), description: String(r.description), context_pattern: String(r.context_pattern), tool_sequence: strArr(r.tool_sequence),
  success_count: num(r.success_count), failure_count: num(r.failure_count), last_used: isoOrNull(r.last_used), channel: String(r.channel),
})
const toTool = (r: Row): ToolInvocation => ({
  id: String(r.id), conversation_id: r.conversation_id === null ? null : String(r.conversation_id), tool: String(r.tool), arguments: obj(r.arguments),
  result: String(r.result), is_error: Boolean(r.is_error), duration_ms: r.duration_ms === null ? null : num(r.duration_ms), channel: String(r.channel), created_at: iso(r.created_at),
})

/** A row's stored vector (pgvector's `[..]` or real[]'s `{..}` as text) with its embedder. */
function storedVector (r: Row): EmbeddingRef | undefined {
  if (typeof r.vector_text !== 'string' || r.embedder === null || r.embedder === undefined) return undefined
  const vector = r.vector_text.replace(/^[[{]|[\]}]$/g, '').split(',').filter(x => x !== '').map(Number)
  return vector.length === 0 ? undefined : { vector, embedder: String(r.embedder) }
}

const TURN_COLUMNS = ['id', 'conversation_id', 'idx', 'ts', 'role', 'content', 'token_count', 'metadata', 'channel', 'embedder']
const TURN_COLS = sql.raw(TURN_COLUMNS.map(c => `t.${c}`).join(', '))
const STRATEGY_COLS = sql.raw('s.id, s.description, s.context_pattern, s.tool_sequence, s.success_count, s.failure_count, s.last_used, s.channel')

/** Deletes turns, then has keyword search read the channels' sizes again (channel-sizes.ts), whether or not it committed. */
async function removingTurns<T> (db: Kysely<unknown>, fn: () => Promise<T>): Promise<T> {
  try { return await fn() } finally { turnsRemoved(db) }
}

export class SqlRelationalStore implements RelationalStore {
  readonly backend: string
  readonly #r: SqlReady

  constructor (h: SqlHandle) {
    this.backend = h.backend
    this.#r = new SqlReady(h, 'relational', relationalMigrations, SOURCES.map(x => x.table))
  }

  /** Tables converted from real[] to vector at set-up (for the plugin's log). */
  get upgraded (): string[] { return this.#r.upgraded }

  async #run<T> (fn: (db: Kysely<unknown>) => Promise<T>): Promise<T> {
    return await this.#r.run(fn)
  }

  /** Sets up the schema now; throws StoreUnavailableError when the database is down. */
  async init (): Promise<void> { await this.#run(async () => {}) }

  async health (): Promise<StoreHealth> { return await this.#r.health() }

  async addTurn (t: NewTurn): Promise<Turn> {
    return await this.#run(async db => {
      const e = t.embedding
      if (e !== undefined) await this.#r.index('turns', e.vector.length)
      try {
        const turn = await db.transaction().execute(async trx => {
        // The conversation row is the lock that serialises index assignment.
        const conv = await sql<{ idx: number }>`INSERT INTO conversations (id, channel, turn_count) VALUES (${t.conversation_id}, ${t.channel}, 1)
          ON CONFLICT (id) DO UPDATE SET turn_count = conversations.turn_count + 1, updated_at = now()
          RETURNING turn_count - 1 AS idx`.execute(trx)
        if (t.id !== undefined) {
          // A retried write (outbox replay, a reply lost in an outage) is stored once. Checked
          // under the conversation's lock, so a first attempt still committing is seen; the
          // throw rolls back the count this transaction took.
          const had = await sql<Row>`SELECT ${TURN_COLS} FROM turns t WHERE t.id = ${t.id}::uuid`.execute(trx)
          if (had.rows.length > 0) throw new AlreadyStored(toTurn(had.rows[0]))
        }
        const idx = num(conv.rows[0].idx)
        const r = await sql<Row>`INSERT INTO turns AS t (id, conversation_id, idx, ts, role, content, token_count, metadata, channel, embedding, embedder, embedding_dims, context)
          VALUES (${t.id ?? randomUUID()}, ${t.conversation_id}, ${idx}, COALESCE(${t.timestamp ?? null}::timestamptz, now()), ${t.role}, ${t.content}, ${t.token_count ?? null}, ${jsonb(t.metadata ?? {})}::jsonb,
            ${t.channel}, ${vectorValue(this.#r.mode, e?.vector)}, ${e?.embedder ?? null}, ${e?.vector.length ?? null}, ${t.context ?? null})
          RETURNING ${TURN_COLS}`.execute(trx)
        return toTurn(r.rows[0])
        })
        turnAdded(db, t.channel)
        return turn
      } catch (err) {
        if (err instanceof AlreadyStored) return err.turn
        throw err
      }
    })
  }

  async conversationTurns (conversationId: string, limit: number): Promise<Turn[]> {
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT * FROM (SELECT ${TURN_COLS} FROM turns t WHERE t.conversation_id = ${conversationId} ORDER BY t.idx DESC LIMIT ${limit}) t ORDER BY t.idx`.execute(db)
      return r.rows.map(toTurn)
    })
  }

  async similarTurns (q: VectorQuery): Promise<Array<Turn & { score: number }>> {
    return await this.#run(async db => {
      const v = q.embedding.vector
      await this.#r.index('turns', v.length)
      const rows = await nearestRows(db, this.#r.mode, { table: 'turns', alias: 't', cols: TURN_COLS }, q)
      return rows.map(row => ({ ...toTurn(row), score: num(row.score) }))
    })
  }

  async copySource (q: { kind: CopiedKind, after?: string, limit: number }): Promise<CopySourceItem[]> {
    const table = q.kind === 'turn' ? 'turns' : q.kind === 'goal' ? 'goals' : 'strategies'
    return await this.#run(async db => {
      // By primary key, past the last id copied: each batch is an index range, however far the run is.
      const r = await sql<Row>`SELECT x.*, x.embedding::text AS vector_text FROM ${sql.table(table)} x
        WHERE ${q.after ?? null}::uuid IS NULL OR x.id > ${q.after ?? null}::uuid ORDER BY x.id LIMIT ${q.limit}`.execute(db)
      return r.rows.map(row => {
        const embedding = storedVector(row)
        const more = embedding === undefined ? {} : { embedding }
        if (q.kind === 'turn') return { kind: 'turn' as const, item: toTurn(row), ...more }
        if (q.kind === 'goal') return { kind: 'goal' as const, item: toGoal(row), ...more }
        return { kind: 'strategy' as const, item: toStrategy(row), ...more }
      })
    })
  }

  async copySourceCount (): Promise<Record<CopiedKind, number>> {
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT (SELECT count(*) FROM turns) AS turn, (SELECT count(*) FROM goals) AS goal, (SELECT count(*) FROM strategies) AS strategy`.execute(db)
      return { turn: num(r.rows[0].turn), goal: num(r.rows[0].goal), strategy: num(r.rows[0].strategy) }
    })
  }

  async recentTurns (channels: string[], limit: number): Promise<Turn[]> {
    return await this.#run(async db => {
      // The newest of each channel by its (channel, ts) index, then merged: one ORDER BY over
      // channel = ANY(...) sorted every row of the channels (200 ms at 50k turns in PGlite).
      const r = await sql<Row>`SELECT t.* FROM (SELECT DISTINCT unnest(${channels}::text[]) AS name) c CROSS JOIN LATERAL (
          SELECT ${TURN_COLS} FROM turns t WHERE t.channel = c.name ORDER BY t.ts DESC, t.idx DESC LIMIT ${limit}) t
        ORDER BY t.ts DESC, t.idx DESC LIMIT ${limit}`.execute(db)
      return r.rows.map(toTurn)
    })
  }

  async deleteConversation (conversationId: string): Promise<DeleteCounts | null> {
    return await this.#run(async db => await removingTurns(db, async () => await db.transaction().execute(async trx => {
      const turns = await sql`DELETE FROM turns WHERE conversation_id = ${conversationId}`.execute(trx)
      const tools = await sql`DELETE FROM tool_invocations WHERE conversation_id = ${conversationId}`.execute(trx)
      const conv = await sql`DELETE FROM conversations WHERE id = ${conversationId}`.execute(trx)
      if (Number(conv.numAffectedRows ?? 0) === 0) return null
      return { turns: Number(turns.numAffectedRows ?? 0), conversations: 1, tool_invocations: Number(tools.numAffectedRows ?? 0) }
    })))
  }

  async resetConsolidation (): Promise<number> {
    return await this.#run(async db => Number((await sql`UPDATE conversations SET consolidated_at = NULL WHERE consolidated_at IS NOT NULL`.execute(db)).numAffectedRows ?? 0))
  }

  async searchTurns (q: { text: string, channels: string[], limit: number }): Promise<Array<Turn & { score: number }>> {
    return await this.#run(async db => (await keywordSearch(db, TURN_COLUMNS, q)).map(row => ({ ...toTurn(row), score: num(row.score) })))
  }

  // Compared at millisecond precision: the contract's timestamps are ISO strings with
  // milliseconds, so a job that marks a conversation consolidated as of the updated_at it
  // read (PostgreSQL keeps microseconds) must not see it again.
  async unconsolidatedConversations (q: { limit: number, idle_seconds?: number }): Promise<ConversationInfo[]> {
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT id, channel, turn_count, created_at, updated_at, consolidated_at FROM conversations
        WHERE (consolidated_at IS NULL OR date_trunc('milliseconds', updated_at) > consolidated_at) AND updated_at <= now() - make_interval(secs => ${q.idle_seconds ?? 0}::float8)
        ORDER BY updated_at, id LIMIT ${q.limit}`.execute(db)
      return r.rows.map(row => ({
        id: String(row.id), channel: String(row.channel), turn_count: num(row.turn_count), created_at: iso(row.created_at),
        updated_at: iso(row.updated_at), consolidated_at: isoOrNull(row.consolidated_at),
      }))
    })
  }

  async markConsolidated (ids: string[], at?: string): Promise<number> {
    if (ids.length === 0) return 0
    return await this.#run(async db => Number((await sql`UPDATE conversations SET consolidated_at = COALESCE(${at ?? null}::timestamptz, now())
      WHERE id = ANY(${ids}::text[])`.execute(db)).numAffectedRows ?? 0))
  }

  async addGoal (g: NewGoal): Promise<Goal> {
    return await this.#run(async db => {
      const e = g.embedding
      const r = await sql<Row>`INSERT INTO goals (id, description, status, priority, parent_goal_id, deadline, channel, embedding, embedder, embedding_dims)
        VALUES (${randomUUID()}, ${g.description}, ${g.status ?? 'active'}, ${g.priority ?? 3}, ${g.parent_goal_id ?? null}, ${g.deadline ?? null},
          ${g.channel}, ${vectorValue(this.#r.mode, e?.vector)}, ${e?.embedder ?? null}, ${e?.vector.length ?? null}) RETURNING *`.execute(db)
      return toGoal(r.rows[0])
    })
  }

  async goals (q: { channels?: string[], status?: Goal['status'], limit: number }): Promise<Goal[]> {
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT * FROM goals WHERE (${q.channels ?? null}::text[] IS NULL OR channel = ANY(${q.channels ?? null}::text[]))
        AND (${q.status ?? null}::text IS NULL OR status = ${q.status ?? null}) ORDER BY priority DESC, created_at DESC LIMIT ${q.limit}`.execute(db)
      return r.rows.map(toGoal)
    })
  }

  async goal (id: string): Promise<Goal | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT * FROM goals WHERE id = ${id}::uuid`.execute(db)
      return r.rows[0] === undefined ? undefined : toGoal(r.rows[0])
    })
  }

  async updateGoal (id: string, p: GoalPatch): Promise<Goal | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.#run(async db => {
      const e = p.embedding
      const r = await sql<Row>`UPDATE goals SET
          description = COALESCE(${p.description ?? null}, description),
          status = COALESCE(${p.status ?? null}, status),
          priority = COALESCE(${p.priority ?? null}::int, priority),
          deadline = CASE WHEN ${p.deadline !== undefined} THEN ${p.deadline ?? null}::timestamptz ELSE deadline END,
          embedding = CASE WHEN ${e !== undefined} THEN ${vectorValue(this.#r.mode, e?.vector)} ELSE embedding END,
          embedder = CASE WHEN ${e !== undefined} THEN ${e?.embedder ?? null} ELSE embedder END,
          embedding_dims = CASE WHEN ${e !== undefined} THEN ${e?.vector.length ?? null}::int ELSE embedding_dims END
        WHERE id = ${id}::uuid RETURNING *`.execute(db)
      return r.rows[0] === undefined ? undefined : toGoal(r.rows[0])
    })
  }

  async deleteGoal (id: string): Promise<boolean> {
    if (!UUID.test(id)) return false
    return await this.#run(async db => Number((await sql`DELETE FROM goals WHERE id = ${id}::uuid`.execute(db)).numAffectedRows ?? 0) > 0)
  }

  async strategy (id: string): Promise<LearnedStrategy | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT ${STRATEGY_COLS} FROM strategies s WHERE s.id = ${id}::uuid`.execute(db)
      return r.rows[0] === undefined ? undefined : toStrategy(r.rows[0])
    })
  }

  async deleteStrategy (id: string): Promise<boolean> {
    if (!UUID.test(id)) return false
    return await this.#run(async db => Number((await sql`DELETE FROM strategies WHERE id = ${id}::uuid`.execute(db)).numAffectedRows ?? 0) > 0)
  }

  async addStrategy (s: NewLearnedStrategy): Promise<LearnedStrategy> {
    return await this.#run(async db => {
      const e = s.embedding
      if (e !== undefined) await this.#r.index('strategies', e.vector.length)
      const r = await sql<Row>`INSERT INTO strategies AS s (id, description, context_pattern, tool_sequence, channel, embedding, embedder, embedding_dims)
        VALUES (${randomUUID()}, ${s.description}, ${s.context_pattern}, ${jsonb(s.tool_sequence ?? [])}::jsonb, ${s.channel},
          ${vectorValue(this.#r.mode, e?.vector)}, ${e?.embedder ?? null}, ${e?.vector.length ?? null}) RETURNING ${STRATEGY_COLS}`.execute(db)
      return toStrategy(r.rows[0])
    })
  }

  async recordStrategyRun (run: StrategyRun): Promise<{ strategy?: LearnedStrategy, created: boolean, counted: boolean }> {
    return await this.#run(async db => {
      const e = run.embedding
      // Outside the transaction: PGlite has one connection, which the transaction holds.
      if (e !== undefined) await this.#r.index('strategies', e.vector.length)
      const res = await db.transaction().execute(async trx => await recordStrategyRun(trx, STRATEGY_COLS, run, vectorValue(this.#r.mode, e?.vector)))
      return { ...(res.row === undefined ? {} : { strategy: toStrategy(res.row) }), created: res.created, counted: res.counted }
    })
  }

  async strategies (q: { channel?: string, search?: string, offset: number, limit: number }): Promise<PageResult<LearnedStrategy>> {
    return await this.#run(async db => {
      const where = sql`(${q.channel ?? null}::text IS NULL OR s.channel = ${q.channel ?? null})
        AND (${q.search ?? null}::text IS NULL OR s.description ILIKE ${q.search === undefined ? null : likeContains(q.search)} ESCAPE '\\'
          OR s.context_pattern ILIKE ${q.search === undefined ? null : likeContains(q.search)} ESCAPE '\\')`
      const total = await sql<{ n: number }>`SELECT count(*)::int AS n FROM strategies s WHERE ${where}`.execute(db)
      const r = await sql<Row>`SELECT ${STRATEGY_COLS} FROM strategies s WHERE ${where} ORDER BY s.created_at DESC, s.id LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db)
      return { items: r.rows.map(toStrategy), total: num(total.rows[0].n) }
    })
  }

  async similarStrategies (q: VectorQuery): Promise<Array<LearnedStrategy & { score: number }>> {
    return await this.#run(async db => {
      await this.#r.index('strategies', q.embedding.vector.length)
      const rows = await nearestRows(db, this.#r.mode, { table: 'strategies', alias: 's', cols: STRATEGY_COLS }, q)
      return rows.map(row => ({ ...toStrategy(row), score: num(row.score) }))
    })
  }

  async addToolInvocation (t: NewToolInvocation): Promise<ToolInvocation> {
    return await this.#run(async db => {
      const id = t.id ?? randomUUID()
      const r = await sql<Row>`INSERT INTO tool_invocations (id, conversation_id, tool, arguments, result, is_error, duration_ms, channel, created_at)
        VALUES (${id}, ${t.conversation_id}, ${t.tool}, ${jsonb(t.arguments)}::jsonb, ${t.result}, ${t.is_error}, ${t.duration_ms}, ${t.channel}, COALESCE(${t.created_at ?? null}::timestamptz, now()))
        ON CONFLICT (id) DO NOTHING RETURNING *`.execute(db)
      // Nothing returned: a retried write whose first attempt was stored.
      if (r.rows.length > 0) return toTool(r.rows[0])
      return toTool((await sql<Row>`SELECT * FROM tool_invocations WHERE id = ${id}::uuid`.execute(db)).rows[0])
    })
  }

  async toolInvocations (q: { conversation_id?: string, channel?: string, since?: string, limit: number }): Promise<ToolInvocation[]> {
    return await this.#run(async db => {
      // `since` is inclusive: calls recorded in the same millisecond as the last one seen are read again, never skipped.
      const r = await sql<Row>`SELECT * FROM tool_invocations WHERE (${q.conversation_id ?? null}::text IS NULL OR conversation_id = ${q.conversation_id ?? null})
        AND (${q.channel ?? null}::text IS NULL OR channel = ${q.channel ?? null})
        AND (${q.since ?? null}::timestamptz IS NULL OR created_at >= ${q.since ?? null}::timestamptz) ORDER BY seq LIMIT ${q.limit}`.execute(db)
      return r.rows.map(toTool)
    })
  }

  async createChannel (name: string): Promise<{ created: boolean, channel: Channel }> {
    return await this.#run(async db => {
      const ins = await sql<Row>`INSERT INTO memory_channels (name) VALUES (${name}) ON CONFLICT DO NOTHING RETURNING name, created_at`.execute(db)
      if (ins.rows.length > 0) return { created: true, channel: { name, created_at: iso(ins.rows[0].created_at) } }
      const r = await sql<Row>`SELECT name, created_at FROM memory_channels WHERE name = ${name}`.execute(db)
      return { created: false, channel: { name, created_at: iso(r.rows[0].created_at) } }
    })
  }

  async channels (): Promise<Channel[]> {
    return await this.#run(async db => {
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
    return await this.#run(async db => await removingTurns(db, async () => await db.transaction().execute(async trx => await this.#deleteChannelIn(trx, name))))
  }

  /** One transaction when the graph store is the SQL one on this same database. */
  async deleteChannelWith (name: string, graph: GraphStore): Promise<{ relational: DeleteCounts, graph: DeleteCounts } | undefined> {
    const part = (graph as Partial<SqlTxParticipant>)[SQL_CHANNEL_TX]?.(this.#r.h)
    if (part === undefined) return undefined
    // Set up outside the transaction: PGlite has one connection, which the transaction holds.
    await part.prepare()
    return await this.#run(async db => await removingTurns(db, async () => await db.transaction().execute(async trx => ({
      relational: await this.#deleteChannelIn(trx, name),
      graph: await part.deleteChannel(trx, name),
    }))))
  }

  async countByChannel (): Promise<Record<string, Record<string, number>>> {
    return await this.#r.countByChannel(sql<Row>`SELECT channel, 'turns' AS kind, count(*)::int AS n FROM turns GROUP BY channel
        UNION ALL SELECT channel, 'strategies', count(*)::int FROM strategies GROUP BY channel
        UNION ALL SELECT channel, 'goals', count(*)::int FROM goals GROUP BY channel
        UNION ALL SELECT channel, 'conversations', count(*)::int FROM conversations GROUP BY channel`)
  }

  async deleteMemories (): Promise<number> {
    return await this.#run(async db => await db.transaction().execute(async trx => {
      const s = await sql`DELETE FROM strategies`.execute(trx)
      const g = await sql`DELETE FROM goals`.execute(trx)
      return Number(s.numAffectedRows ?? 0) + Number(g.numAffectedRows ?? 0)
    }))
  }

  async audit (e: { action: string, target?: string, channel?: string, details?: Record<string, unknown> }): Promise<void> {
    await this.#run(async db => {
      await sql`INSERT INTO memory_audit_log (action, target, channel, details) VALUES (${e.action}, ${e.target ?? null}, ${e.channel ?? null}, ${jsonb(e.details ?? {})}::jsonb)`.execute(db)
    })
  }

  async pruneToolInvocations (days: number): Promise<number> {
    return await this.#run(async db => Number((await sql`DELETE FROM tool_invocations WHERE created_at < now() - make_interval(days => ${days}::int)`.execute(db)).numAffectedRows ?? 0))
  }

  async pruneAudit (days: number): Promise<number> {
    return await this.#run(async db => Number((await sql`DELETE FROM memory_audit_log WHERE at < now() - make_interval(days => ${days}::int)`.execute(db)).numAffectedRows ?? 0))
  }

  async auditFor (target: string, limit: number): Promise<AuditEntry[]> {
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT at, action, target, channel, details FROM memory_audit_log WHERE target = ${target} ORDER BY id LIMIT ${limit}`.execute(db)
      return r.rows.map(row => ({ at: iso(row.at), action: String(row.action), target: row.target === null ? null : String(row.target), channel: row.channel === null ? null : String(row.channel), details: obj(row.details) }))
    })
  }

  async auditLog (limit: number): Promise<Array<{ at: string, action: string, target: string | null, channel: string | null, details: Record<string, unknown> }>> {
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT at, action, target, channel, details FROM memory_audit_log ORDER BY id DESC LIMIT ${limit}`.execute(db)
      return r.rows.map(row => ({ at: iso(row.at), action: String(row.action), target: row.target === null ? null : String(row.target), channel: row.channel === null ? null : String(row.channel), details: obj(row.details) }))
    })
  }

  async staleEmbeddings (q: StaleQuery): Promise<StaleEmbedding[]> {
    return await this.#run(async db => await staleEmbeddings(db, SOURCES, q))
  }

  async setEmbeddings (items: Array<{ kind: string, id: string, embedding: EmbeddingRef | null }>): Promise<number> {
    return await this.#run(async db => await setEmbeddings(db, this.#r, SOURCES, items))
  }

  async embedderUsage (): Promise<EmbedderUsage[]> {
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT embedder, embedding_dims AS dims, count(*)::int AS n FROM (
          SELECT embedder, embedding_dims FROM turns UNION ALL SELECT embedder, embedding_dims FROM strategies
          UNION ALL SELECT embedder, embedding_dims FROM goals) v WHERE embedder IS NOT NULL GROUP BY embedder, embedding_dims`.execute(db)
      return r.rows.map(row => ({ embedder: String(row.embedder), dimensions: num(row.dims), count: num(row.n) }))
    })
  }
}
