// Fusing what the recall techniques found: per part, reciprocal rank fusion of their
// lists, each at the weight its technique gives it, repeats collapsed, the current conversation's turns left out, cut to the part's limit.
import type { Ranked, RecallCandidates, RecallPart, RecallParts } from '@agentd/sdk/contracts/recall'
import { contentKey, rrf } from '@agentd/sdk/kits/recall'

/** How many items each part keeps after merging. */
export const partLimits = (topK: number): Record<RecallPart, number> =>
  ({ relevant_turns: topK, facts: topK, entities: Math.min(topK, 5), strategies: 3, active_goals: 5 })

/** What the caller has already (left out): turns by id, and turns by text (`contentKey`). */
export interface Seen { ids: ReadonlySet<string>, texts: ReadonlySet<string> }
const NOTHING_SEEN: Seen = { ids: new Set(), texts: new Set() }

/** One technique's candidates, with the weight its ranks carry in the fusion. */
export interface TechniqueCandidates { name: string, weight: number, candidates: RecallCandidates }

const timeOf = (x: { timestamp?: unknown }): number => typeof x.timestamp === 'string' ? Date.parse(x.timestamp) : 0

/** An item of any part, as the fusion reads it (a technique from outside may leave `id` out). */
type Item = Ranked & { id?: unknown, content?: unknown, timestamp?: unknown }

/**
 * Fuses the techniques' candidates per part by reciprocal rank fusion (score = Σ weight /
 * (k + rank) over the techniques that found the item, each list best first): an item two
 * techniques found ranks above one only one found at the same rank. Ties go to the newer
 * turn. Items the caller already has (`exclude`: the current conversation's latest turns,
 * by id, or turns saying what its prompt holds, by text) are dropped, a turn whose text repeats a better-ranked one ("OK.") is collapsed into it,
 * and each part is cut to its limit. `found_by` names the techniques that found each item.
 * Items without an `id` come after, in order.
 */
export function fuseCandidates (all: TechniqueCandidates[], limits: Record<RecallPart, number>, k: number, exclude: Seen = NOTHING_SEEN): RecallParts {
  const part = <P extends RecallPart>(p: P): RecallParts[P] => {
    const lists = all.map(({ name, weight, candidates }) => ({ name, weight: candidates.weights?.[p] ?? weight, items: (candidates[p] ?? []) as Item[] }))
    return fusePart(lists, p === 'relevant_turns', k, exclude).slice(0, limits[p]) as RecallParts[P]
  }
  return { relevant_turns: part('relevant_turns'), facts: part('facts'), entities: part('entities'), strategies: part('strategies'), active_goals: part('active_goals') }
}

function fusePart<T extends Item> (lists: Array<{ name: string, weight: number, items: T[] }>, turns: boolean, k: number, exclude: Seen): T[] {
  const anon: T[] = []
  const foundBy = new Map<string, string[]>()
  const ranked = lists.map(({ name, weight, items }) => ({
    weight,
    items: items.filter(item => {
      if (typeof item.id !== 'string') { anon.push(item); return false }
      if (exclude.ids.has(item.id)) return false
      if (turns && exclude.texts.size > 0 && typeof item.content === 'string' && exclude.texts.has(contentKey(item.content))) return false
      const by = foundBy.get(item.id) ?? []
      if (!by.includes(name)) by.push(name)
      foundBy.set(item.id, by)
      return true
    }),
  }))
  const fused = rrf(ranked, k, item => item.id as string, turns ? timeOf : undefined)
  const kept: T[] = []
  const seen = new Set<string>()
  for (const { item, score } of fused) {
    if (turns && typeof item.content === 'string') {
      const key = contentKey(item.content)
      if (seen.has(key)) continue
      seen.add(key)
    }
    kept.push({ ...item, score: Math.round(score * 1e6) / 1e6, found_by: foundBy.get(item.id as string) ?? [] })
  }
  return [...kept, ...anon]
}
