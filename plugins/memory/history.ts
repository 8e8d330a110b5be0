// An item's history, from the audit log: every write to a fact, entity, goal or strategy
// records who made it (`actor`: user through the API, consolidation, promotion, merge,
// system) under the item's id, and an item's history is those entries in order.
import type { AuditEntry, EntityMerged } from '@agentd/sdk/contracts/memory-stores'
import type { ServiceContext } from './context.ts'

export type Actor = 'user' | 'consolidation' | 'promotion' | 'merge' | 'system'
export type ItemKind = 'fact' | 'entity' | 'goal' | 'strategy'

export interface HistoryEntry { at: string, action: string, actor: Actor, channel: string | null, details: Record<string, unknown> }

const ACTORS = new Set<Actor>(['user', 'consolidation', 'promotion', 'merge', 'system'])

/** Records one change to an item; a failure is logged, never fails the write it records. */
export async function record (ctx: ServiceContext, e: { kind: ItemKind, action: string, id: string, channel: string, actor: Actor, details?: Record<string, unknown> }): Promise<void> {
  const rel = ctx.relational
  if (rel === undefined) return
  try {
    await rel.audit({ action: `${e.kind}.${e.action}`, target: e.id, channel: e.channel, details: { ...e.details, actor: e.actor } })
  } catch (err) {
    ctx.log.warn({ err: (err as Error).message, kind: e.kind, id: e.id, action: e.action }, 'memory: a change was made but could not be written to the audit log (its history will miss it)')
  }
}

export type Recorder = (e: { kind: ItemKind, action: string, id: string, channel: string, actor: Actor, details?: Record<string, unknown> }) => Promise<void>

/**
 * A graph store's merge of two entities (`memory:entity-merged`) in the history of each
 * item it changed, as actor `merge`: the surviving entity (`entity.merge`, merged from),
 * the merged one (`entity.merged_into`, its last entry: it is gone) and each fact that was
 * linked to the merged one and is linked to the survivor now (`fact.entity_merged`).
 */
export async function recordEntityMerge (rec: Recorder, m: EntityMerged): Promise<void> {
  const common = { reason: m.reason, score: m.score, by: m.by }
  await rec({ kind: 'entity', action: 'merge', id: m.survivor.id, channel: m.survivor.channel, actor: 'merge', details: { name: m.survivor.name, merged_from: m.merged, ...common, facts_moved: m.facts.length, relationships_moved: m.relationships_moved } })
  await rec({ kind: 'entity', action: 'merged_into', id: m.merged.id, channel: m.merged.channel, actor: 'merge', details: { name: m.merged.name, merged_into: m.survivor, ...common } })
  for (const f of m.facts) {
    await rec({ kind: 'fact', action: 'entity_merged', id: f.id, channel: f.channel, actor: 'merge', details: { from_entity: m.merged, into_entity: m.survivor, ...common } })
  }
}

export function toHistory (a: AuditEntry): HistoryEntry {
  const { actor, ...details } = a.details
  const who = typeof actor === 'string' && ACTORS.has(actor as Actor) ? actor as Actor : a.action.includes('promote') ? 'promotion' : 'system'
  return { at: a.at, action: a.action, actor: who, channel: a.channel, details }
}

export async function history (ctx: ServiceContext, id: string, limit = 1000): Promise<HistoryEntry[]> {
  return (await ctx.need('relational').auditFor(id, limit)).map(toHistory)
}
