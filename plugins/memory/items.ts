// One item by id (a fact, an entity, a goal, a strategy) and its history: the audit log's
// entries about it, and the changes made beside the write API (consolidation, promotion,
// merges) written to it.
import type { Entity, Fact, Goal, LearnedStrategy } from '@agentd/sdk/contracts/memory-stores'
import type { ServiceContext } from './context.ts'
import { MemoryErrors } from './errors.ts'
import { history, record, type Actor, type HistoryEntry, type ItemKind } from './history.ts'

const PLURAL: Record<ItemKind, string> = { fact: 'facts', entity: 'entities', goal: 'goals', strategy: 'strategies' }

export class Items {
  readonly #ctx: ServiceContext
  constructor (ctx: ServiceContext) { this.#ctx = ctx }

  /** The item, or a 404 that says how to list them. */
  async item (kind: ItemKind, id: string): Promise<Fact | Entity | Goal | LearnedStrategy> {
    const ctx = this.#ctx
    const found = kind === 'fact'
      ? await ctx.need('graph').fact(id)
      : kind === 'entity'
        ? await ctx.need('graph').entity(id)
        : kind === 'goal' ? await ctx.need('relational').goal(id) : await ctx.need('relational').strategy(id)
    if (found === undefined) throw new MemoryErrors.NOT_FOUND(`No ${kind} with id "${id}". GET /api/memory/${PLURAL[kind]} lists them.`)
    return found
  }

  /** What changed an item, oldest first. A deleted item keeps its history; an id never seen is a 404. */
  async history (kind: ItemKind, id: string): Promise<{ exists: boolean, history: HistoryEntry[] }> {
    const entries = (await history(this.#ctx, id)).filter(h => h.action.startsWith(`${kind}.`))
    const exists = await this.item(kind, id).then(() => true, (err: unknown) => { if ((err as { statusCode?: number }).statusCode === 404) return false; throw err })
    if (!exists && entries.length === 0) throw new MemoryErrors.NOT_FOUND(`No ${kind} with id "${id}", and none in the audit log (which keeps the memory plugin's audit_retention_days).`)
    return { exists, history: entries }
  }

  /** Writes one change of an item to its history, for changes made beside the write API (consolidation, promotion, merges). */
  async recordChange (e: { kind: ItemKind, action: string, id: string, channel: string, actor: Actor, details?: Record<string, unknown> }): Promise<void> { await record(this.#ctx, e) }
}
