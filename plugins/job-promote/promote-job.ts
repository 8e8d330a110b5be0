// The `promote` job: facts and entities prominent enough (SPEC.md: confidence >= 0.85,
// access_count >= 5, stated in >= 2 conversations; entities by salience >= 0.85; all
// settings) move to the `_global` channel, which every recall and every list reads. The
// store merges an item into `_global`'s copy when one is there already.
import type { Job, JobContext } from '@agentd/sdk/contracts/job'
import type { GraphStore } from '@agentd/sdk/contracts/memory-stores'
import type { ItemChange } from '@agentd/sdk/contracts/memory-jobs'
import { GLOBAL_CHANNEL } from '@agentd/sdk/kits/memory'
import type { PromoteSettingsValues } from './settings.ts'

/** What the job needs (the plugin builds it over the memory plugin's job support). */
export interface PromoteDeps {
  graph: () => GraphStore
  settings: () => PromoteSettingsValues
  /** Writes a change to the item's history. */
  history?: (e: ItemChange) => Promise<void>
}

export type PromoteMetrics = { facts_promoted: number, entities_promoted: number, merged: number, items_processed?: number }

export function promoteJob (deps: PromoteDeps, everySeconds = 3600): Job {
  return {
    name: 'promote',
    group: 'memory',
    description: 'Promotes facts and entities over the promotion thresholds to the _global channel',
    schedule: { every_seconds: everySeconds },
    run: async (ctx: JobContext) => await promote(deps, ctx),
  }
}

const PAGE = 100

export async function promote (deps: PromoteDeps, ctx: JobContext): Promise<PromoteMetrics> {
  const s = deps.settings()
  const g = deps.graph()
  const m: PromoteMetrics = { facts_promoted: 0, entities_promoted: 0, merged: 0 }
  // Items that move leave the candidate list, so each page is read from the start again.
  for (;;) {
    ctx.signal.throwIfAborted()
    const page = await g.facts({ min_confidence: s.promotion_min_confidence, min_access_count: s.promotion_min_access_count, min_conversations: s.promotion_min_conversations, flagged: false, offset: 0, limit: PAGE, exclude_channel: GLOBAL_CHANNEL })
    if (page.items.length === 0) break
    for (const f of page.items) {
      const r = await g.moveToChannel('fact', f.id, GLOBAL_CHANNEL)
      if (r === undefined) continue
      await deps.history?.({ kind: 'fact', action: 'promote', id: f.id, channel: f.channel, actor: 'promotion', details: { to: GLOBAL_CHANNEL, into: r.id, merged: r.merged } })
      // Merged into _global's copy: that one's history says so too.
      if (r.merged) await deps.history?.({ kind: 'fact', action: 'merge', id: r.id, channel: GLOBAL_CHANNEL, actor: 'merge', details: { claim: f.claim, merged_from: { id: f.id, channel: f.channel }, by: 'promotion' } })
      m.facts_promoted++
      if (r.merged) m.merged++
    }
    if (page.items.length < PAGE) break
  }
  for (;;) {
    ctx.signal.throwIfAborted()
    const page = await g.entities({ min_salience: s.promotion_min_entity_salience, offset: 0, limit: PAGE, exclude_channel: GLOBAL_CHANNEL })
    if (page.items.length === 0) break
    for (const e of page.items) {
      const r = await g.moveToChannel('entity', e.id, GLOBAL_CHANNEL)
      if (r === undefined) continue
      await deps.history?.({ kind: 'entity', action: 'promote', id: e.id, channel: e.channel, actor: 'promotion', details: { to: GLOBAL_CHANNEL, into: r.id, merged: r.merged } })
      if (r.merged) await deps.history?.({ kind: 'entity', action: 'merge', id: r.id, channel: GLOBAL_CHANNEL, actor: 'merge', details: { name: e.name, merged_from: { id: e.id, name: e.name, type: e.type, channel: e.channel }, by: 'promotion' } })
      m.entities_promoted++
      if (r.merged) m.merged++
    }
    if (page.items.length < PAGE) break
  }
  return { ...m, items_processed: m.facts_promoted + m.entities_promoted }
}
