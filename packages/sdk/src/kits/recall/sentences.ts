// A turn read one sentence at a time. A sentence encoder pools a text's tokens into one
// vector, so a turn of three sentences ("Hey Mel! I went to a support group yesterday. It
// was so powerful.") comes out as the blur of the three, near none of the questions that
// recall one of them ("When did Caroline go to the support group?"). So a stored turn's
// vector adds, to its own, the vector of each of its sentences, each read with who said it
// (the question names the person more often than not). It stays one vector in the
// embedder's space: the stores, the indexes and the query side are unchanged.
//
// Measured on LoCoMo dev (MiniLM, vector search alone, recall@10): the whole turn 0.528;
// with its sentences 0.545 without the speaker, 0.599 with it; the sentences alone 0.593;
// each sentence with the turn's date stamp as well as the speaker 0.588 (docs/benchmarks.md).
import { informative } from './context.ts'
import { normalize } from '../memory/index.ts'

/** At most this many sentences of a turn are embedded (a long paste costs at most this many runs). */
export const MAX_SENTENCES = 8

/**
 * A transcript line's label: "Caroline: ...", "[1:56 pm on 8 May, 2023] Caroline: ...". One to
 * three words of a name (a capital first) before the colon, perhaps after a bracketed stamp.
 */
const LABEL = /^\s*(?:\[[^\]\n]{1,80}\]\s*)?(\p{Lu}[\p{L}\p{M}.'’-]*(?:\s\p{Lu}[\p{L}\p{M}.'’-]*){0,2}):\s+(?=\S)/u

const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' })

/**
 * The texts a turn's sentences are embedded as, each after its speaker ("Caroline: I went
 * to a support group yesterday."): none for a turn of one sentence (its own vector is that
 * sentence's). Sentences that say nothing ("Wow!", "Thanks so much!") are left out: they would
 * pull the turn toward every greeting.
 */
export function sentenceTexts (content: string, speaker?: string): string[] {
  const label = LABEL.exec(content)
  const body = label === null ? content : content.slice(label[0].length)
  const all = [...segmenter.segment(body)].map(s => s.segment.trim()).filter(s => s !== '')
  if (all.length < 2) return []
  // Who said it: the name the writer gave, else the transcript label's.
  const who = speaker !== undefined && speaker.trim() !== '' ? speaker.trim() : label?.[1]
  return all.filter(informative).slice(0, MAX_SENTENCES).map(s => who === undefined ? s : `${who}: ${s}`)
}

/** The turn's vector with its sentences' added (each a unit vector, weighed as the turn's own), normalised. */
export function withSentences (own: number[], sentences: ReadonlyArray<number[] | undefined>): number[] {
  const vs = sentences.filter((s): s is number[] => s !== undefined && s.length === own.length)
  if (vs.length === 0) return own
  const v = own.slice()
  for (const s of vs) for (let k = 0; k < v.length; k++) v[k] += s[k]
  return normalize(v)
}
