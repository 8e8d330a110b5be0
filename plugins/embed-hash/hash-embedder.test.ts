import t from 'tap'
import { HashEmbedder, tokenize } from './hash-embedder.ts'

const cos = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i], 0)

t.test('vectors are 384-dimensional, unit length and deterministic', async t => {
  const e = new HashEmbedder()
  const [a, b] = await e.embed(['The cat sat on the mat', 'The cat sat on the mat'])
  t.equal(a.length, 384)
  t.ok(Math.abs(Math.hypot(...a) - 1) < 1e-9)
  t.same(a, b)
  t.equal(e.id, 'hash-v1')
})

t.test('related texts are closer than unrelated ones', async t => {
  const e = new HashEmbedder()
  const [q, near, far] = await e.embed(['my favourite colour is blue', 'what is my favourite colour?', 'the train leaves at nine'])
  t.ok(cos(q, near) > cos(q, far) + 0.2, `near ${cos(q, near)} far ${cos(q, far)}`)
})

t.test('word pieces count: inflections stay close', async t => {
  const e = new HashEmbedder()
  const [a, b, c] = await e.embed(['programming', 'programmer', 'banana'])
  t.ok(cos(a, b) > cos(a, c))
})

t.test('empty text gives a zero vector, not NaN', async t => {
  const [v] = await new HashEmbedder().embed([''])
  t.ok(v.every(x => x === 0))
})

t.test('tokenize keeps letters and digits of any script', async t => {
  t.same(tokenize("Zürich's 東京 50%!"), ['zürich', 's', '東京', '50'])
})
