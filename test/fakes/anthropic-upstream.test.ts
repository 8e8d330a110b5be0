// The fake Anthropic API is real enough for the SDK's own stream accumulator: the
// SDK's MessageStream rebuilds the same message the non-streaming call returns.
import t from 'tap'
import Anthropic from '@anthropic-ai/sdk'
import { startFakeAnthropic } from './anthropic-upstream.ts'

t.test('SDK MessageStream accumulates the fake\'s SSE into the same message as a plain call', async t => {
  const fake = await startFakeAnthropic(t, { apiKey: 'k-123' })
  const reply = { thinking: 'hmm', signature: 's1', text: 'Hello world', tool_uses: [{ id: 'toolu_x', name: 'f', input: { a: [1, 2], b: 'c' } }], chunkSize: 3 }
  fake.enqueue(reply, reply)
  const client = new Anthropic({ apiKey: 'k-123', baseURL: fake.url, maxRetries: 0 })
  const params = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user' as const, content: 'hi' }] }
  const plain = await client.messages.create(params)
  const streamed = await client.messages.stream(params).finalMessage()
  t.same(streamed.content, plain.content)
  t.equal(streamed.stop_reason, 'tool_use')
  t.same(plain.content.map(b => b.type), ['thinking', 'text', 'tool_use'])
})

t.test('errors use Anthropic\'s body and reach the SDK as its typed errors', async t => {
  const fake = await startFakeAnthropic(t)
  fake.enqueue({ status: 529, message: 'Overloaded' })
  const client = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 })
  const err = await client.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e) as { status: number, error: { type: string, error: { type: string } } }
  t.equal(err.status, 529)
  t.equal(err.error.error.type, 'overloaded_error')
})

t.test('a wrong key gets 401 authentication_error; with echoKeyIn401 it quotes the key masked', async t => {
  const fake = await startFakeAnthropic(t, { apiKey: 'sk-ant-right-000000000', echoKeyIn401: true })
  const client = new Anthropic({ apiKey: 'sk-anWrongKey1234567wxyz', baseURL: fake.url, maxRetries: 0 })
  const err = await client.models.list().catch((e: unknown) => e) as { status: number, error: { error: { type: string, message: string } } }
  t.equal(err.status, 401)
  t.equal(err.error.error.type, 'authentication_error')
  t.equal(err.error.error.message, 'invalid x-api-key: sk-an***************wxyz')
})

t.test('like the API, the fake refuses a thinking form the model does not take', async t => {
  const fake = await startFakeAnthropic(t)
  const client = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 })
  const ask = (model: string, thinking: Anthropic.Messages.ThinkingConfigParam) => client.messages.create({ model, max_tokens: 4096, thinking, messages: [{ role: 'user', content: 'hi' }] })
  await t.rejects(ask('claude-opus-5-5', { type: 'enabled', budget_tokens: 1024 }), { message: /thinking\.type\.enabled\\?" is not supported/ })
  await t.rejects(ask('claude-haiku-4-5', { type: 'adaptive' }), { message: /thinking\.type\.adaptive\\?" is not supported/ })
  await t.resolves(ask('claude-opus-4-6', { type: 'enabled', budget_tokens: 1024 }), 'deprecated on 4.6, still taken')
  await t.resolves(ask('claude-sonnet-4-20250514', { type: 'enabled', budget_tokens: 1024 }))
  await t.resolves(ask('claude-opus-4-7', { type: 'adaptive' }))
})
