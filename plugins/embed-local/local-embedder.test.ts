// The real transformers.js loading path cannot download weights here (no network), so it
// is tested for failing fast and clearly; everything around it runs on a stand-in extractor.
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { LocalEmbedder, type Extractor } from './local-embedder.ts'

t.test('offline, the real loader fails fast with a message that says what to do', async t => {
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'agentd-models-'))
  t.teardown(() => { rmSync(cacheDir, { recursive: true, force: true }) })
  const e = new LocalEmbedder({ model: 'Xenova/all-MiniLM-L6-v2', dimensions: 384, cacheDir })
  t.equal(e.status().status, 'not_loaded', 'nothing loads before first use')
  const started = Date.now()
  await t.rejects(e.embed(['hello']), /Xenova\/all-MiniLM-L6-v2.*(cannot be downloaded|could not be loaded)/)
  t.ok(Date.now() - started < 30_000, `failed within ${Date.now() - started} ms`)
  t.equal(e.status().status, 'error')
  t.match(e.status().error, /embed-hash|LOCAL_EMBEDDING_MODEL/)
})

const fakeExtractor = (dims: number): Extractor => async (texts) => ({ tolist: () => texts.map(s => Array.from({ length: dims }, (_, i) => (s.length + i) % 5)) })

t.test('loads once on first use, however many calls wait for it', async t => {
  let loads = 0
  const e = new LocalEmbedder({ model: 'm', dimensions: 4, loader: async () => { loads++; await new Promise(resolve => setTimeout(resolve, 30)); return fakeExtractor(4) } })
  const p = Promise.all([e.embed(['a']), e.embed(['bb']), e.embed(['ccc'])])
  t.equal(e.status().status, 'loading')
  const out = await p
  t.equal(loads, 1)
  t.equal(e.status().status, 'ready')
  for (const [v] of out) t.ok(Math.abs(Math.hypot(...v) - 1) < 1e-9, 'unit length')
  t.equal(e.id, 'local:m')
})

t.test('a failed load is retried by the next call', async t => {
  let n = 0
  const e = new LocalEmbedder({ model: 'm', dimensions: 4, loader: async () => { if (n++ === 0) throw new Error('fetch failed'); return fakeExtractor(4) } })
  await t.rejects(e.embed(['x']), /cannot be downloaded/)
  const [v] = await e.embed(['x'])
  t.equal(v.length, 4)
})

t.test('a dimension mismatch names the option to fix', async t => {
  const e = new LocalEmbedder({ model: 'm', dimensions: 384, loader: async () => fakeExtractor(8) })
  await t.rejects(e.embed(['x']), /set it to 8/)
})
