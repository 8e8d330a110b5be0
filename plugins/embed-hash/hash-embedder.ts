// Feature hashing ("the hashing trick"): word unigrams, word bigrams and character
// trigrams of each word are hashed into a fixed number of signed buckets, then the
// vector is normalised. No model, no network, deterministic: texts that share words
// and word pieces land close together, which is what tests and a first-run server need.
import { normalize } from '@agentd/sdk/kits/memory'
import type { Embedder } from '@agentd/sdk/contracts/embedder'

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

export function hashEmbed (text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0)
  const add = (feature: string, weight: number): void => {
    const h = fnv1a(feature)
    // A second hash picks the sign, so collisions cancel out on average.
    const sign = (fnv1a(feature, 0x9747b28c) & 1) === 0 ? 1 : -1
    v[h % dims] += sign * weight
  }
  const words = tokenize(text)
  words.forEach((w, i) => {
    add(`w:${w}`, 1)
    if (i > 0) add(`b:${words[i - 1]} ${w}`, 0.5)
    const padded = `<${w}>`
    const chars = [...padded]
    for (let j = 0; j + 3 <= chars.length; j++) add(`c:${chars.slice(j, j + 3).join('')}`, 0.35)
  })
  return normalize(v)
}

export class HashEmbedder implements Embedder {
  readonly id: string
  readonly dimensions: number
  constructor (dimensions = 384) {
    this.dimensions = dimensions
    this.id = dimensions === 384 ? 'hash-v1' : `hash-v1-${dimensions}`
  }

  async embed (texts: string[]): Promise<number[][]> { return texts.map(t => hashEmbed(t, this.dimensions)) }
  status (): { status: string } { return { status: 'ready' } }
}
