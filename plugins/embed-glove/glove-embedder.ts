// GloVe sentence vectors: the average of a text's word vectors (GloVe 6B, 100-d, the 30,000
// most frequent words; glove-words.txt and glove-vectors.bin, written by
// scripts/glove-table.ts), each word weighed by its rarity as SIF does (Arora et al. 2017:
// a / (a + p(word)), p from the word's frequency rank by Zipf's law), so "the" counts next
// to nothing and "hospital" fully. Words used in the same contexts lie close ("pet", "dog"),
// so a question can meet an answer that shares none of its words; words the table does not
// hold (most names) add nothing, which is what the keyword techniques beside it are for.
// 3 MB read on first use (~10 ms), ~8 MB resident; about 10 us a sentence.
import { readFileSync } from 'node:fs'
import { normalize } from '@agentd/sdk/kits/memory'
import type { Embedder } from '@agentd/sdk/contracts/embedder'

export const GLOVE_DIMENSIONS = 100
/** SIF's smoothing: words more frequent than about this share of all words count less. */
const SIF_A = 1e-3
/** Zipf's law over GloVe 6B's 400,000 words: p(rank r) = 1 / (r * H), H the harmonic number. */
const HARMONIC = Math.log(400_000) + 0.5772

export interface GloveTable {
  index: Map<string, number>
  vectors: Int8Array
  scales: Float32Array
  /** The direction every average leans to (the words' frequency-weighted mean): removed, as SIF removes its first component. */
  common: number[]
}

/** Row i is the (i + 1)-th most frequent word: SIF's a / (a + p), p by Zipf's law. */
const sifWeight = (i: number): number => SIF_A / (SIF_A + 1 / ((i + 1) * HARMONIC))

/** Reads the shipped table (or another folder's, for tests). */
export function readGloveTable (dir: URL = new URL('./', import.meta.url)): GloveTable {
  const words = readFileSync(new URL('glove-words.txt', dir), 'utf8').split('\n').filter(w => w !== '')
  const raw = readFileSync(new URL('glove-vectors.bin', dir))
  const row = 4 + GLOVE_DIMENSIONS
  if (raw.length !== words.length * row) throw new Error(`glove-vectors.bin holds ${raw.length} bytes, ${words.length * row} expected for ${words.length} words: write both files again with scripts/glove-table.ts.`)
  const vectors = new Int8Array(words.length * GLOVE_DIMENSIONS)
  const scales = new Float32Array(words.length)
  for (let i = 0; i < words.length; i++) {
    scales[i] = raw.readFloatLE(i * row)
    vectors.set(new Int8Array(raw.buffer, raw.byteOffset + i * row + 4, GLOVE_DIMENSIONS), i * GLOVE_DIMENSIONS)
  }
  // What a random word of running text adds to a sum: its frequency times its weight times
  // its vector. Every sentence's average shares this direction, which makes unrelated texts
  // look alike (cosines of 0.6-0.7); taking it out spreads them.
  const common = new Array<number>(GLOVE_DIMENSIONS).fill(0)
  for (let i = 0; i < words.length; i++) {
    const w = sifWeight(i) / ((i + 1) * HARMONIC) * scales[i]
    for (let d = 0; d < GLOVE_DIMENSIONS; d++) common[d] += w * vectors[i * GLOVE_DIMENSIONS + d]
  }
  return { index: new Map(words.map((w, i) => [w, i])), vectors, scales, common: normalize(common) }
}

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu

/** The table rows of a text's words; a hyphenated or elided word not in the table by its parts. */
function rows (table: GloveTable, text: string): number[] {
  const out: number[] = []
  for (const w of text.normalize('NFKC').toLowerCase().replace(/’/g, "'").match(WORD) ?? []) {
    const i = table.index.get(w)
    if (i !== undefined) { out.push(i); continue }
    for (const part of w.split(/['-]/)) {
      const j = table.index.get(part)
      if (j !== undefined) out.push(j)
    }
  }
  return out
}

export function gloveEmbed (table: GloveTable, text: string): number[] {
  const v = new Array<number>(GLOVE_DIMENSIONS).fill(0)
  const found = rows(table, text)
  if (found.length === 0) return v
  for (const i of found) {
    const weight = sifWeight(i) * table.scales[i]
    const base = i * GLOVE_DIMENSIONS
    for (let d = 0; d < GLOVE_DIMENSIONS; d++) v[d] += weight * table.vectors[base + d]
  }
  const along = v.reduce((s, x, d) => s + x * table.common[d], 0)
  return normalize(v.map((x, d) => x - along * table.common[d]))
}

export class GloveEmbedder implements Embedder {
  readonly id = 'glove-6b-100d-sif-v1'
  readonly dimensions = GLOVE_DIMENSIONS
  readonly #read: () => GloveTable
  #table: GloveTable | undefined

  constructor (opts: { read?: () => GloveTable } = {}) {
    this.#read = opts.read ?? (() => readGloveTable())
  }

  status (): { status: string } { return { status: this.#table === undefined ? 'not_loaded' : 'ready' } }

  async embed (texts: string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted()
    this.#table ??= this.#read()
    const table = this.#table
    return texts.map(t => gloveEmbed(table, t))
  }
}
