// A turn read in the light of what was said just before it: an answer ("Two nights in a
// tiny hotel.", "A studio in Eastfield.") often shares no word with the question that
// recalls it, but the turn it answers does ("How long were you stuck?", "I am moving
// out"). So a turn's stored vector is its own vector plus, weighed less, the vectors of
// the last informative turns before it in the same conversation (in the same channel a
// moment before, when the conversation has none yet: a chat sent one message at a time).
// The vectors stay in the embedder's space (the same id): queries are embedded as before.
import { normalize } from '../memory/index.ts'
import { STOPWORDS, words } from './text.ts'

/**
 * How many earlier turns a turn's vector takes in, and how much each weighs (the nearest
 * first). Tuned on LoCoMo dev with the default embedder (embed-onnx, MiniLM): 0.3 / 0.15
 * gave R@10 0.690 and 0.687 where 0.5 / 0.25 gave 0.678-0.685, 0.8 / 0.4 0.680, one turn
 * alone (0.5) 0.664, three turns 0.686; embed-hash is level (0.671 against 0.673) and the
 * synthetic set unchanged on both (docs/benchmarks.md).
 */
export const CONTEXT_WEIGHTS: readonly number[] = [0.3, 0.15]
/** How many earlier turns are looked at to find them ("OK." is skipped). */
export const CONTEXT_LOOKBACK = 4
/** An earlier turn of another conversation counts only when it came this shortly before. */
export const CONTEXT_GAP_MS = 10 * 60_000

/** Whether a turn says something a later one may lean on: two words besides function words ("OK.", "Noted." do not). */
export function informative (text: string): boolean {
  let n = 0
  for (const w of words(text)) if (!STOPWORDS.has(w) && ++n >= 2) return true
  return false
}

/**
 * The texts a new turn is read with, nearest first: of the earlier turns (oldest first, as
 * stores list them), the last informative ones, at most CONTEXT_WEIGHTS.length.
 */
export function contextTexts (earlier: ReadonlyArray<{ content: string }>): string[] {
  const out: string[] = []
  for (let i = earlier.length - 1; i >= 0 && out.length < CONTEXT_WEIGHTS.length; i--) {
    const c = earlier[i].content
    if (informative(c)) out.push(c)
  }
  return out
}

/** A question ends with a question mark (then perhaps closing quotes or brackets). */
const QUESTION = /\?[\s"'\u201d\u2019)\]]*$/

/**
 * The words a turn's keyword index takes in from its context (contextTexts), for the same
 * reason its vector does: each content word once (no function words), nearest text first.
 * None for a turn that says nothing itself ("OK.", "Sure, why not"): it would only copy
 * the question and rank beside it. None for a question either: it opens what comes next
 * rather than answering what came before, and its words are its own (on the evaluation
 * set, recall unchanged: bench/recall-quality.bench.ts; a chat's keyword candidates fewer,
 * since every question asked in a channel would otherwise carry the one before it).
 */
export function contextWords (own: string, texts: readonly string[]): string | undefined {
  if (texts.length === 0 || !informative(own) || QUESTION.test(own)) return undefined
  const seen = new Set<string>()
  for (const t of texts) {
    for (const w of words(t)) {
      if (STOPWORDS.has(w)) continue
      seen.add(w)
      if (seen.size === CONTEXT_MAX_WORDS) return [...seen].join(' ')
    }
  }
  return seen.size === 0 ? undefined : [...seen].join(' ')
}

/**
 * At most this many context words, the nearest text's first: a long text pasted before a
 * turn would otherwise copy into its keywords whole and make it a candidate for every
 * search of that text's words. Chat turns rarely come near it (the evaluation set: 14
 * words a turn, at most 21).
 */
export const CONTEXT_MAX_WORDS = 40

/** The turn's vector with its context's (nearest first) added at CONTEXT_WEIGHTS, normalised. */
export function withContext (own: number[], context: ReadonlyArray<number[] | undefined>): number[] {
  if (context.every(c => c === undefined)) return own
  const v = own.slice()
  context.forEach((c, i) => {
    const w = CONTEXT_WEIGHTS[i] ?? 0
    if (c === undefined || w === 0 || c.length !== v.length) return
    for (let k = 0; k < v.length; k++) v[k] += w * c[k]
  })
  return normalize(v)
}
