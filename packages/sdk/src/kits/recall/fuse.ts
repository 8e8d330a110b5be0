// Reciprocal rank fusion (Cormack et al. 2009): each ranked list adds weight / (k + rank)
// to every item it holds, so an item several lists agree on rises, and lists whose scores
// are on different scales (a text rank, a cosine) combine without calibration.

export interface RankedList<T> { weight: number, items: T[] }

/**
 * Fuses ranked lists (best first) into one, best first. Items are the same when `key`
 * says so; the first list's copy of an item is kept. `score` is the fused score.
 * Ties keep the order of `tieBreak` (higher first) when given, else first seen first.
 */
export function rrf<T> (lists: Array<RankedList<T>>, k: number, key: (x: T) => string, tieBreak?: (x: T) => number): Array<{ item: T, score: number }> {
  const acc = new Map<string, { item: T, score: number, seen: number }>()
  let seen = 0
  for (const list of lists) {
    if (list.weight <= 0) continue
    list.items.forEach((item, rank) => {
      const id = key(item)
      const had = acc.get(id)
      const add = list.weight / (k + rank + 1)
      if (had === undefined) acc.set(id, { item, score: add, seen: seen++ })
      else had.score += add
    })
  }
  return [...acc.values()].sort((a, b) => {
    if (b.score !== a.score) return b.score - a.score
    if (tieBreak !== undefined) {
      const d = tieBreak(b.item) - tieBreak(a.item)
      if (d !== 0) return d
    }
    return a.seen - b.seen
  }).map(({ item, score }) => ({ item, score }))
}

/** Text compared for "the same turn said again": case, spacing and final punctuation ignored. */
export function contentKey (text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.!?…\s]+$/u, '')
}
