// When does an extracted fact state what a LoCoMo observation states? Both are short
// third-person sentences about one speaker ("Caroline attended an LGBTQ support group
// recently..." against "Caroline went to an LGBTQ support group."). The match: the fact
// comes from the observation's evidence turn, and they share content words: at least two,
// and at least half of the fact's (so a long observation is not matched by any fact that
// names one of its words). Content words: lower case, no stop words, no speaker names (every
// fact and observation names its speaker, which says nothing about the content), the
// first five letters of each word (a crude stem: "painted"/"painting", "support"/"supportive").
import { STOPWORDS } from '@agentd/sdk/kits/recall'

const EXTRA_STOP = new Set(['user', 'also', 'really', 'recently', 'currently', 'feels', 'feel', 'thing', 'things', 'lot', 'much', 'very', 'just', 'one', 'get', 'got', 'going'])

export function contentWords (text: string, names: readonly string[]): Set<string> {
  const skip = new Set(names.map(n => n.toLowerCase()))
  const out = new Set<string>()
  for (const raw of text.toLowerCase().replace(/['’]s\b/g, '').split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 3 || STOPWORDS.has(raw) || EXTRA_STOP.has(raw) || skip.has(raw)) continue
    out.add(raw.slice(0, 5))
  }
  return out
}

export function overlap (fact: Set<string>, observation: Set<string>): number {
  let n = 0
  for (const w of fact) if (observation.has(w)) n++
  return n
}

export const matches = (fact: Set<string>, observation: Set<string>): boolean => {
  const n = overlap(fact, observation)
  return n >= 2 && n >= fact.size / 2
}
