// What the SQL relational store's roles share (relational-*.ts): the row mappers, the
// columns, what each table's vector was made from, and the guard around deleting turns.
import { sql, type Kysely } from 'kysely'
import type { EmbeddingRef, Goal, LearnedStrategy, ToolInvocation, Turn } from '@agentd/sdk/contracts/memory-stores'
import { iso, isoOrNull, num, obj, strArr, type Row, type VectorSource } from '@agentd/sdk/kits/sql'
import { turnsRemoved } from './channel-sizes.ts'
import { CONTEXT_GAP_MS, CONTEXT_LOOKBACK } from '@agentd/sdk/kits/recall'

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Thrown inside addTurn's transaction to roll it back when the turn's id is already stored. */
export class AlreadyStored {
  readonly turn: Turn
  constructor (turn: Turn) { this.turn = turn }
}

/**
 * The turns a turn's vector is read with (as the memory service embeds it, @agentd/sdk/kits/recall
 * context.ts): the last CONTEXT_LOOKBACK before it in its conversation, or for a conversation's
 * first turn those of its channel at most CONTEXT_GAP_MS before it; JSON, oldest first.
 */
export const TURN_CONTEXT = `(SELECT coalesce(json_agg(p.content ORDER BY p.ts, p.idx), '[]'::json)::text FROM (
    SELECT c.content, c.ts, c.idx FROM turns c WHERE c.conversation_id = turns.conversation_id AND c.idx < turns.idx
    UNION ALL
    SELECT c.content, c.ts, c.idx FROM turns c WHERE turns.idx = 0 AND c.channel = turns.channel AND c.conversation_id <> turns.conversation_id
      AND c.ts <= turns.ts AND c.ts >= turns.ts - interval '${CONTEXT_GAP_MS / 1000} seconds'
    ORDER BY ts DESC, idx DESC LIMIT ${CONTEXT_LOOKBACK}) p)`

/** What each table's vector was made from: the same text the memory service embeds. */
export const SOURCES: VectorSource[] = [
  { kind: 'turn', table: 'turns', text: 'content', context: TURN_CONTEXT, speaker: "metadata->>'name'" },
  { kind: 'goal', table: 'goals', text: 'description' },
  { kind: 'strategy', table: 'strategies', text: "description || ' ' || context_pattern" },
]

export const toTurn = (r: Row): Turn => ({
  id: String(r.id), conversation_id: String(r.conversation_id), index: num(r.idx), timestamp: iso(r.ts), role: String(r.role),
  content: String(r.content), token_count: r.token_count === null ? null : num(r.token_count), metadata: obj(r.metadata),
  channel: String(r.channel), embedder: r.embedder === null ? null : String(r.embedder),
})
export const toGoal = (r: Row): Goal => ({
  id: String(r.id), description: String(r.description), status: String(r.status) as Goal['status'], priority: num(r.priority),
  parent_goal_id: r.parent_goal_id === null ? null : String(r.parent_goal_id), created_at: iso(r.created_at), deadline: isoOrNull(r.deadline), channel: String(r.channel),
})
export const toStrategy = (r: Row): LearnedStrategy => ({
  id: String(r.id), description: String(r.description), context_pattern: String(r.context_pattern), tool_sequence: strArr(r.tool_sequence),
  success_count: num(r.success_count), failure_count: num(r.failure_count), last_used: isoOrNull(r.last_used), channel: String(r.channel),
})
export const toTool = (r: Row): ToolInvocation => ({
  id: String(r.id), conversation_id: r.conversation_id === null ? null : String(r.conversation_id), tool: String(r.tool), arguments: obj(r.arguments),
  result: String(r.result), is_error: Boolean(r.is_error), duration_ms: r.duration_ms === null ? null : num(r.duration_ms), channel: String(r.channel), created_at: iso(r.created_at),
})

/** A row's stored vector (pgvector's `[..]` or real[]'s `{..}` as text) with its embedder. */
export function storedVector (r: Row): EmbeddingRef | undefined {
  if (typeof r.vector_text !== 'string' || r.embedder === null || r.embedder === undefined) return undefined
  const vector = r.vector_text.replace(/^[[{]|[\]}]$/g, '').split(',').filter(x => x !== '').map(Number)
  return vector.length === 0 ? undefined : { vector, embedder: String(r.embedder) }
}

export const TURN_COLUMNS = ['id', 'conversation_id', 'idx', 'ts', 'role', 'content', 'token_count', 'metadata', 'channel', 'embedder']
export const TURN_COLS = sql.raw(TURN_COLUMNS.map(c => `t.${c}`).join(', '))
export const STRATEGY_COLS = sql.raw('s.id, s.description, s.context_pattern, s.tool_sequence, s.success_count, s.failure_count, s.last_used, s.channel')

/** Deletes turns, then has keyword search read the channels' sizes again (channel-sizes.ts), whether or not it committed. */
export async function removingTurns<T> (db: Kysely<unknown>, fn: () => Promise<T>): Promise<T> {
  try { return await fn() } finally { turnsRemoved(db) }
}
