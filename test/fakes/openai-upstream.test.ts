// The fake must speak the real wire format: the real SDK is the judge.
import t from 'tap'
import OpenAI from 'openai'
import { startFakeOpenAI } from './openai-upstream.ts'

t.test('the openai SDK reads a scripted completion and a streamed tool call', async t => {
  const fake = await startFakeOpenAI(t)
  const client = new OpenAI({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 })
  fake.enqueue({ text: 'hello there' }, { tool_calls: [{ id: 'c1', name: 'calculate', arguments: { expression: '1+1' } }], chunkSize: 3 })
  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
  t.equal(r.choices[0].message.content, 'hello there')
  const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true })
  let args = ''
  let name = ''
  for await (const chunk of stream) {
    const tc = chunk.choices[0]?.delta.tool_calls?.[0]
    if (tc?.function?.name !== undefined) name = tc.function.name
    args += tc?.function?.arguments ?? ''
  }
  t.equal(name, 'calculate')
  t.same(JSON.parse(args), { expression: '1+1' })
  const models = await client.models.list()
  t.same(models.data.map(m => m.id), ['gpt-4o-mini', 'gpt-4o'])
})

t.test('a wrong key gets a 401 that quotes it masked, as the real API does', async t => {
  const fake = await startFakeOpenAI(t, { apiKey: 'sk-right-key-000000000' })
  const wrong = 'sk-abWrongKey1234567wxyz'
  const client = new OpenAI({ apiKey: wrong, baseURL: fake.url, maxRetries: 0 })
  const err = await client.models.list().catch((e: unknown) => e) as { status: number, message: string }
  t.equal(err.status, 401)
  t.match(err.message, 'Incorrect API key provided: sk-ab***************wxyz.')
  t.notMatch(err.message, wrong)
  fake.echoKeyIn401 = false
  const bare = await client.models.list().catch((e: unknown) => e) as { message: string }
  t.match(bare.message, /Incorrect API key provided\.$/)
})
