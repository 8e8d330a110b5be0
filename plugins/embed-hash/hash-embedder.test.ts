import t from 'tap'
import { HashEmbedder, tokenize } from './hash-embedder.ts'

const cos = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i], 0)

t.test('vectors are 384-dimensional, unit length and deterministic', async t => {
  const e = new HashEmbedder()
  const [a, b] = await e.embed(['The cat sat on the mat', 'The cat sat on the mat'])
  t.equal(a.length, 384)
  t.ok(Math.abs(Math.hypot(...a) - 1) < 1e-9)
  t.same(a, b)
  t.equal(e.id, 'hash-v2')
})

t.test('version 1 keeps the old scheme and its id, so vectors it stored stay comparable', async t => {
  const v1 = new HashEmbedder(384, 1)
  t.equal(v1.id, 'hash-v1')
  t.equal(new HashEmbedder(256, 1).id, 'hash-v1-256')
  t.equal(new HashEmbedder(256).id, 'hash-v2-256')
  const [a] = await v1.embed(['The cat sat on the mat'])
  const [b] = await new HashEmbedder().embed(['The cat sat on the mat'])
  t.notSame(a, b)
})

t.test('a shared rare word outweighs shared common words (it did not in hash-v1)', async t => {
  const texts = ['what is the sourdough starter', 'bubbling sourdough', 'what is the plan']
  const [q, rare, common] = await new HashEmbedder().embed(texts)
  t.ok(cos(q, rare) > cos(q, common), `rare ${cos(q, rare)} common ${cos(q, common)}`)
  const [q1, rare1, common1] = await new HashEmbedder(384, 1).embed(texts)
  t.ok(cos(q1, rare1) < cos(q1, common1), 'hash-v1 weighs every word alike')
})

t.test('inflections meet by their stem', async t => {
  const e = new HashEmbedder()
  const [q, inflected, other] = await e.embed(['when did they adopt the dog', 'we adopted a dog', 'we walked a dog'])
  t.ok(cos(q, inflected) > cos(q, other), `inflected ${cos(q, inflected)} other ${cos(q, other)}`)
})

t.test('function words alone give a zero vector, not NaN', async t => {
  const [v] = await new HashEmbedder().embed(['you'])
  t.ok(v.every(x => Number.isFinite(x)))
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
