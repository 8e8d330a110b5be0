// Merging what the recall techniques found: per part, one item per id (the higher score
// wins), best first, cut to the part's limit.
import type { RecallCandidates, RecallPart } from '@agentd/sdk/contracts/recall'

export const PARTS: RecallPart[] = ['relevant_turns', 'facts', 'entities', 'strategies', 'active_goals']

/** How many items each part keeps after merging. */
export const partLimits = (topK: number): Record<RecallPart, number> =>
  ({ relevant_turns: topK, facts: topK, entities: Math.min(topK, 5), strategies: 3, active_goals: 5 })

/**
 * Merges candidates per part: one item per `id` (the higher `score` wins), ordered by
 * score (items without one after, in the order given), cut to the part's limit.
 */
export function mergeCandidates (all: RecallCandidates[], limits: Record<RecallPart, number>): Record<RecallPart, Array<Record<string, unknown>>> {
  const out = {} as Record<RecallPart, Array<Record<string, unknown>>>
  for (const part of PARTS) {
    const byId = new Map<string, Record<string, unknown>>()
    const anon: Array<Record<string, unknown>> = []
    for (const c of all) {
      for (const item of c[part] ?? []) {
        const id = typeof item.id === 'string' ? item.id : undefined
        if (id === undefined) { anon.push(item); continue }
        const had = byId.get(id)
        if (had === undefined || score(item) > score(had)) byId.set(id, item)
      }
    }
    const items = [...byId.values(), ...anon]
    const scored = items.map((item, i) => ({ item, i })).sort((a, b) => {
      const sa = typeof a.item.score === 'number' ? a.item.score : undefined
      const sb = typeof b.item.score === 'number' ? b.item.score : undefined
      if (sa !== undefined && sb !== undefined && sa !== sb) return sb - sa
      if (sa !== undefined && sb === undefined) return -1
      if (sa === undefined && sb !== undefined) return 1
      return a.i - b.i
    })
    out[part] = scored.slice(0, limits[part]).map(x => x.item)
  }
  return out
}

const score = (x: Record<string, unknown>): number => typeof x.score === 'number' ? x.score : -Infinity
