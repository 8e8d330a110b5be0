// Fusing what the recall techniques found: per part, reciprocal rank fusion of their
// lists (each list once), repeats collapsed, the current conversation's turns left out, cut to the part's limit.
import type { RecallCandidates, RecallPart } from '@agentd/sdk/contracts/recall'
import { contentKey, rrf } from '@agentd/sdk/kits/recall'

export const PARTS: RecallPart[] = ['relevant_turns', 'facts', 'entities', 'strategies', 'active_goals']

/** How many items each part keeps after merging. */
export const partLimits = (topK: number): Record<RecallPart, number> =>
  ({ relevant_turns: topK, facts: topK, entities: Math.min(topK, 5), strategies: 3, active_goals: 5 })

/** One technique's candidates, with the weight its ranks carry in the fusion. */
export interface TechniqueCandidates { name: string, weight: number, candidates: RecallCandidates }

/**
 * Every list counts once in the fusion: a list another technique says its own already
 * contains (`includes`: hybrid's turns are keyword search fused with the service's shared
 * vector neighbours, which are the service's own technique's turns) is left out, or the
 * neighbours would count twice and bury what only a keyword technique found (a paraphrase
 * query expansion matched): bench/recall-quality.bench.ts, R@10 0.676 -> 0.775 (0.657 ->
 * 0.667 without the expansion's synonym table). The technique's other parts still count.
 */
export function countedOnce (results: TechniqueCandidates[]): TechniqueCandidates[] {
  const dropped = results.flatMap(r => (r.candidates.includes ?? []).filter(i => i.technique !== r.name))
  if (dropped.length === 0) return results
  return results.map(r => {
    const parts = dropped.filter(d => d.technique === r.name).map(d => d.part)
    return parts.length === 0 ? r : { ...r, candidates: { ...r.candidates, ...Object.fromEntries(parts.map(p => [p, []])) } }
  })
}

const timeOf = (x: Record<string, unknown>): number => typeof x.timestamp === 'string' ? Date.parse(x.timestamp) : 0

/**
 * Fuses the techniques' candidates per part by reciprocal rank fusion (score = Σ weight /
 * (k + rank) over the techniques that found the item, each list best first): an item two
 * techniques found ranks above one only one found at the same rank. Ties go to the newer
 * turn. Items the caller already has (`exclude`: the current conversation's latest turns)
 * are dropped, a turn whose text repeats a better-ranked one ("OK.") is collapsed into it,
 * and each part is cut to its limit. `found_by` names the techniques that found each item.
 * Items without an `id` come after, in order.
 */
export function fuseCandidates (all: TechniqueCandidates[], limits: Record<RecallPart, number>, k: number, exclude: ReadonlySet<string> = new Set()): Record<RecallPart, Array<Record<string, unknown>>> {
  const out = {} as Record<RecallPart, Array<Record<string, unknown>>>
  for (const part of PARTS) {
    const anon: Array<Record<string, unknown>> = []
    const foundBy = new Map<string, string[]>()
    const lists = all.map(({ name, weight, candidates }) => {
      const items = (candidates[part] ?? []).filter(item => {
        if (typeof item.id === 'string') {
          if (exclude.has(item.id)) return false
          const by = foundBy.get(item.id) ?? []
          if (!by.includes(name)) by.push(name)
          foundBy.set(item.id, by)
          return true
        }
        anon.push(item)
        return false
      })
      return { weight, items }
    })
    const fused = rrf(lists, k, item => item.id as string, part === 'relevant_turns' ? timeOf : undefined)
    const kept: Array<Record<string, unknown>> = []
    const seen = new Set<string>()
    for (const { item, score } of fused) {
      if (part === 'relevant_turns' && typeof item.content === 'string') {
        const key = contentKey(item.content)
        if (seen.has(key)) continue
        seen.add(key)
      }
      kept.push({ ...item, score: Math.round(score * 1e6) / 1e6, found_by: foundBy.get(item.id as string) ?? [] })
    }
    out[part] = [...kept, ...anon].slice(0, limits[part])
  }
  return out
}
