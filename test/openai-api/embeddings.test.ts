// POST /v1/embeddings through the OpenAI SDK (which asks for base64 and decodes it) over
// agentd's registered embedders.
import t from 'tap'
import { repoPlugin } from '../helpers/workspace.ts'
import { startOpenAIApi } from './helpers.ts'

const extra = [{ name: 'embed-hash', module: repoPlugin('embed-hash') }]

t.test('the SDK gets one unit vector per input, by the embedder\'s plugins.json name or its id', async t => {
  const { client, s } = await startOpenAIApi(t, { extra })
  const r = await client.embeddings.create({ model: 'embed-hash', input: ['The cat sat on the mat.', 'A cat on a mat.', 'Quarterly revenue grew.'] })
  t.equal(r.data.length, 3)
  t.same(r.data.map(d => d.index), [0, 1, 2])
  const [a, b, c] = r.data.map(d => d.embedding)
  t.ok(a.length > 0 && a.length === b.length, `${a.length} dimensions`)
  const dot = (x: number[], y: number[]): number => x.reduce((n, v, i) => n + v * y[i], 0)
  t.ok(Math.abs(dot(a, a) - 1) < 1e-3, 'unit length')
  t.ok(dot(a, b) > dot(a, c), 'similar texts are nearer (the same vectors memory stores)')
  const byId = await client.embeddings.create({ model: r.model, input: 'The cat sat on the mat.' })
  t.same(byId.data[0].embedding.map(x => Math.round(x * 1e5)), a.map(x => Math.round(x * 1e5)), 'the same vector by the embedder\'s id, as floats')
  const raw = await s.post('/v1/embeddings', { model: 'embed-hash', input: 'x', encoding_format: 'float' })
  t.ok(Array.isArray(((await raw.json()) as { data: Array<{ embedding: unknown }> }).data[0].embedding), 'encoding_format float: a JSON array')
})

t.test('an unknown embedder, or dimensions it cannot make, is a 400 naming what there is', async t => {
  const { client } = await startOpenAIApi(t, { extra })
  const err = await client.embeddings.create({ model: 'text-embedding-3-large', input: 'x' }).then(() => undefined, (e: unknown) => e as { status?: number, message?: string })
  t.equal(err?.status, 400)
  t.match(err?.message, /No embedder "text-embedding-3-large"\. Available: embed-hash/)
  const dims = await client.embeddings.create({ model: 'embed-hash', input: 'x', dimensions: 3 }).then(() => undefined, (e: unknown) => e as { status?: number })
  t.equal(dims?.status, 400)
})

t.test('embed-glove, the shipped word-vector embedder, answers by its plugins.json name', async t => {
  const { client } = await startOpenAIApi(t, { extra: [{ name: 'embed-glove', module: repoPlugin('embed-glove') }] })
  const r = await client.embeddings.create({ model: 'embed-glove', input: ['What pets does she have?', 'We adopted a puppy', 'I filed my taxes'] })
  t.equal(r.model, 'glove-6b-100d-sif-v1', 'the answer names the embedder\'s id')
  const [q, near, far] = r.data.map(d => d.embedding)
  t.equal(q.length, 100)
  const dot = (x: number[], y: number[]): number => x.reduce((n, v, i) => n + v * y[i], 0)
  t.ok(dot(q, near) > dot(q, far), 'a pet question is nearer a puppy than taxes')
})
