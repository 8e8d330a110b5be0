// Against the fake OpenAI server on loopback, through the real openai SDK.
import t from 'tap'
import { startFakeOpenAI } from '../../test/fakes/openai-upstream.ts'
import { OpenAIEmbedder } from './openai-embedder.ts'

const base = { model: 'text-embedding-3-small', dimensions: 1536, timeoutMs: 5000, sendDimensions: false }

t.test('embeds a batch in order as unit vectors and records the model', async t => {
  const fake = await startFakeOpenAI(t, { apiKey: 'sk-test' })
  const e = new OpenAIEmbedder({ ...base, apiKey: 'sk-test', baseURL: fake.url })
  const [a, b, a2] = await e.embed(['alpha', 'beta', 'alpha'])
  t.equal(a.length, 1536)
  t.ok(Math.abs(Math.hypot(...a) - 1) < 1e-5)
  t.same(a, a2)
  t.notSame(a, b)
  t.equal(e.id, 'openai:text-embedding-3-small')
  const req = fake.requests.find(r => r.path.endsWith('/embeddings'))
  t.same(req?.body.input, ['alpha', 'beta', 'alpha'])
  t.equal(req?.body.model, 'text-embedding-3-small')
})

t.test('asks for shortened vectors when told to', async t => {
  const fake = await startFakeOpenAI(t)
  const e = new OpenAIEmbedder({ ...base, dimensions: 256, sendDimensions: true, apiKey: 'k', baseURL: fake.url })
  const [v] = await e.embed(['x'])
  t.equal(v.length, 256)
})

t.test('a dimension mismatch says which option to set', async t => {
  const fake = await startFakeOpenAI(t)
  const e = new OpenAIEmbedder({ ...base, dimensions: 384, apiKey: 'k', baseURL: fake.url })
  await t.rejects(e.embed(['x']), /set its "dimensions" option to 1536/)
})

t.test('a wrong key fails with the upstream reason and status error', async t => {
  const fake = await startFakeOpenAI(t, { apiKey: 'right' })
  const e = new OpenAIEmbedder({ ...base, apiKey: 'wrong', baseURL: fake.url })
  await t.rejects(e.embed(['x']), /embeddings endpoint failed.*Incorrect API key/)
  t.equal(e.status().status, 'error')
  t.notMatch(e.status().error, /wrong/, 'the key is never echoed')
})

t.test('a wrong real-length key quoted masked by the upstream never reaches the error or status', async t => {
  const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123'
  const fake = await startFakeOpenAI(t, { apiKey: 'sk-right' })
  const e = new OpenAIEmbedder({ ...base, apiKey: key, baseURL: fake.url })
  const err = await e.embed(['x']).then(() => undefined, (x: unknown) => x as Error)
  t.match(err?.message, /Incorrect API key provided: \[redacted\]/)
  for (const text of [err?.message ?? '', e.status().error ?? '', JSON.stringify(err)]) {
    t.notMatch(text, /sk-pr|0123|\*\*\*/, 'neither the key nor its masked form')
  }
})

t.test('no key: a clear error without a network call', async t => {
  const e = new OpenAIEmbedder({ ...base, apiKey: undefined, baseURL: undefined })
  await t.rejects(e.embed(['x']), /OPENAI_API_KEY/)
})
