// Words used in the same contexts as a word ("pet" -> dog cat animal puppy), for query
// expansion: the 30,000 most frequent English words' nearest neighbours by GloVe word
// vectors, written once by scripts/related-words.ts into related-words.txt (one line a
// word: the word, then up to four related words, nearest first; `#` lines say where it
// comes from). Read on first use.
import { readFileSync } from 'node:fs'

// A word's related words stay one string until asked for: 26,000 short strings, not arrays of them.
let table: Map<string, string> | undefined

function load (): Map<string, string> {
  if (table !== undefined) return table
  table = new Map()
  for (const line of readFileSync(new URL('./related-words.txt', import.meta.url), 'utf8').split('\n')) {
    const space = line.indexOf(' ')
    if (space > 0 && !line.startsWith('#')) table.set(line.slice(0, space), line.slice(space + 1))
  }
  return table
}

/** Up to four words used in the same contexts as `word` (lower case), nearest first; none for a word the table does not hold. */
export function relatedWords (word: string): readonly string[] {
  return load().get(word)?.split(' ') ?? []
}
