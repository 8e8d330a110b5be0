// An item's history, from the audit log: every write to a fact, entity, goal or strategy
// records who made it (`actor`: user through the API, consolidation, promotion, merge,
// system) under the item's id, and an item's history is those entries in order.
import type { AuditEntry } from '@agentd/sdk/contracts/memory-stores'
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

export function toHistory (a: AuditEntry): HistoryEntry {
  const { actor, ...details } = a.details
  const who = typeof actor === 'string' && ACTORS.has(actor as Actor) ? actor as Actor : a.action.includes('promote') ? 'promotion' : 'system'
  return { at: a.at, action: a.action, actor: who, channel: a.channel, details }
}

export async function history (ctx: ServiceContext, id: string, limit = 1000): Promise<HistoryEntry[]> {
  return (await ctx.need('relational').auditFor(id, limit)).map(toHistory)
}
