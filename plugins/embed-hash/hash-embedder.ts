// Feature hashing ("the hashing trick"): features of each word are hashed into a fixed
// number of signed buckets, then the vector is normalised. No model, no network,
// deterministic: texts that share words and word pieces land close together.
// hash-v2 (the default): each word weighs by its rarity in everyday English (word-weights.ts:
// "the" next to nothing, "sourdough" a lot), and brings its Porter2 stem ("adopted" and
// "adopting" meet), the word itself, the stem bigram with the word before it, and its
// character trigrams (typos, compounds). hash-v1 (every word alike) stays for vectors stored
// by it: `version: 1` in the plugin options.
import { normalize } from '@agentd/sdk/kits/memory'
import type { Embedder } from '@agentd/sdk/contracts/embedder'
import stem from 'wink-porter2-stemmer'
import { rarity } from './word-weights.ts'

/** FNV-1a, 32 bit. */
function fnv1a (s: string, seed = 0x811c9dc5): number {
  let h = seed
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

export function tokenize (text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

type Add = (feature: string, weight: number) => void

function hashInto (dims: number, fill: (add: Add) => void): number[] {
  const v = new Array<number>(dims).fill(0)
  fill((feature, weight) => {
    // A second hash picks the sign, so collisions cancel out on average.
    const sign = (fnv1a(feature, 0x9747b28c) & 1) === 0 ? 1 : -1
    v[fnv1a(feature) % dims] += sign * weight
  })
  return normalize(v)
}

const trigrams = (w: string): string[] => {
  const chars = [...`<${w}>`]
  const out: string[] = []
  for (let j = 0; j + 3 <= chars.length; j++) out.push(chars.slice(j, j + 3).join(''))
  return out
}

/** hash-v1: unigrams, bigrams and character trigrams, every word alike. */
export function hashEmbedV1 (text: string, dims: number): number[] {
  const words = tokenize(text)
  return hashInto(dims, add => words.forEach((w, i) => {
    add(`w:${w}`, 1)
    if (i > 0) add(`b:${words[i - 1]} ${w}`, 0.5)
    for (const g of trigrams(w)) add(`c:${g}`, 0.35)
  }))
}

/** A word's stem and weight; words repeat across texts, so they are kept (bounded). */
interface WordInfo { stem: string, weight: number, grams: string[] }
const INFO = new Map<string, WordInfo>()
const INFO_MAX = 50_000
/** Rarity (ln N/count) below this counts nothing: "the", "you", "a". */
const FLOOR = 2
/** Names and words the list does not know weigh like a word seen about 6 times in 50 million. */
const UNKNOWN = 14

function info (w: string): WordInfo {
  let i = INFO.get(w)
  if (i === undefined) {
    // The square root: rare words count more, not overwhelmingly more (a rare typo must not outvote the topic).
    i = { stem: stem(w), weight: Math.sqrt(Math.max(0, Math.min(rarity(w), UNKNOWN) - FLOOR)), grams: trigrams(w) }
    if (INFO.size >= INFO_MAX) INFO.clear()
    INFO.set(w, i)
  }
  return i
}

/** hash-v2: rarity-weighted stems, words, stem bigrams and character trigrams. */
export function hashEmbed (text: string, dims: number): number[] {
  const raw = tokenize(text)
  const words = raw.map(info)
  return hashInto(dims, add => words.forEach((w, i) => {
    if (w.weight === 0) return
    add(`s:${w.stem}`, w.weight)
    add(`w:${raw[i]}`, 0.5 * w.weight)
    const prev = words[i - 1]
    if (prev !== undefined && prev.weight > 0) add(`b:${prev.stem} ${w.stem}`, 0.3 * Math.min(w.weight, prev.weight))
    // Trigrams share the word's weight, so a long word does not outweigh a short one by its length.
    const g = 0.9 * w.weight / Math.sqrt(Math.max(1, w.grams.length))
    for (const x of w.grams) add(`c:${x}`, g)
  }))
}

export class HashEmbedder implements Embedder {
  readonly id: string
  readonly dimensions: number
  readonly #embed: (text: string, dims: number) => number[]
  constructor (dimensions = 384, version: 1 | 2 = 2) {
    this.dimensions = dimensions
    this.#embed = version === 1 ? hashEmbedV1 : hashEmbed
    // The id is stored with every vector: a new scheme gets a new id, so vectors of the old one are re-embedded.
    const base = `hash-v${version}`
    this.id = dimensions === 384 ? base : `${base}-${dimensions}`
  }

  async embed (texts: string[]): Promise<number[][]> { return texts.map(t => this.#embed(t, this.dimensions)) }
  status (): { status: string } { return { status: 'ready' } }
}
