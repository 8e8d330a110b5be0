// The OpenAI-compatible API around the completion itself, driven by the real `openai` SDK:
// model listing, OpenAI's error shape on /v1, the API key as a Bearer token, agentd's
// profile and memory per request, and where the client's system message goes.
import t from 'tap'
import OpenAI from 'openai'
import { startOpenAIApi, MODEL } from './helpers.ts'
import { fixturePlugin } from '../helpers/workspace.ts'
import { memoryJournal } from '../helpers/fake-memory.ts'
import { pollUntil } from '../helpers/poll.ts'

const PROMPTS = `
global_prompt: { enabled: true, content: GLOBAL-PROMPT }
profiles:
  - { id: plain, name: Plain, is_default: true, sections: [{ id: s, name: S, type: persona, enabled: true, order: 1, content: PLAIN-SECTION }] }
  - { id: pirate, name: Pirate, sections: [{ id: s, name: S, type: persona, enabled: true, order: 1, content: PIRATE-SECTION }] }
`

t.test('GET /v1/models lists agentd\'s model ids in OpenAI\'s list shape', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.models = ['gpt-4o-mini', 'gpt-4o']
  const ids: string[] = []
  for await (const m of client.models.list()) { ids.push(m.id); t.equal(m.object, 'model'); t.equal(m.owned_by, 'openai') }
  t.ok(ids.includes('openai/gpt-4o-mini'), 'ids are provider/model, what /v1/chat/completions takes')
  const one = await client.models.retrieve('openai/gpt-4o-mini')
  t.equal(one.id, 'openai/gpt-4o-mini')
  const missing = await client.models.retrieve('openai/nope').catch((e: unknown) => e)
  t.ok(missing instanceof OpenAI.NotFoundError)
})

t.test('a wrong type is a 400 in OpenAI\'s error shape naming the field', async t => {
  const { s, client } = await startOpenAIApi(t)
  const err = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], temperature: 'hot' as unknown as number }).catch((e: unknown) => e)
  t.ok(err instanceof OpenAI.BadRequestError)
  const e = err as InstanceType<typeof OpenAI.BadRequestError>
  t.equal(e.type, 'invalid_request_error')
  t.equal(e.param, 'temperature')
  t.equal(e.code, 'AGENT_ERR_VALIDATION')
  const raw = await s.json('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, messages: 'hi' }) })
  t.equal(raw.status, 400)
  t.same(Object.keys(raw.body), ['error'])
  t.same(Object.keys(raw.body.error).sort(), ['code', 'message', 'param', 'type'])
  t.equal(raw.body.error.param, 'messages')
})

t.test('an unknown /v1 path is a 404, a wrong method a 405, in OpenAI\'s shape', async t => {
  const { s } = await startOpenAIApi(t)
  const r = await s.json('/v1/embeddingz', { method: 'POST' })
  t.equal(r.status, 404)
  t.equal(r.body.error.type, 'invalid_request_error')
  t.match(r.body.error.message, /\/v1\/chat\/completions/)
  const wrong = await s.json('/v1/chat/completions')
  t.equal(wrong.status, 405, 'a known path with the wrong method')
  t.equal(wrong.headers.get('allow'), 'POST, OPTIONS')
  t.equal(wrong.body.error.code, 'AGENT_ERR_METHOD_NOT_ALLOWED')
})

t.test('fields agentd does not know are ignored; n > 1 and non-text parts are refused clearly', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ text: 'fine' })
  const r = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], seed: 7, logprobs: false, metadata: { a: 'b' }, store: false, parallel_tool_calls: true })
  t.equal(r.choices[0].message.content, 'fine')
  const n = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], n: 2 }).catch((e: unknown) => e)
  t.ok(n instanceof OpenAI.BadRequestError)
  t.equal((n as InstanceType<typeof OpenAI.BadRequestError>).param, 'n')
  // Images are for user messages (test/openai-api/images.test.ts); audio is nowhere.
  const audio = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }] }).catch((e: unknown) => e)
  t.ok(audio instanceof OpenAI.BadRequestError)
  t.match((audio as Error).message, /text and image_url parts are supported \(got "input_audio"\)/)
  const systemImage = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'data:,' } }] as never }, { role: 'user', content: 'x' }] }).catch((e: unknown) => e)
  t.ok(systemImage instanceof OpenAI.BadRequestError)
  t.match((systemImage as Error).message, /only text parts are supported on this role/)
})

t.test('Authorization: Bearer <AGENT_API_KEY> is accepted like X-API-Key; a wrong one is a 401', async t => {
  const env = { AGENT_API_KEY_REQUIRED: 'true', AGENT_API_KEY: 'agent-secret-key' }
  const { s, client, fake } = await startOpenAIApi(t, { env, clientKey: 'agent-secret-key' })
  fake.enqueue({ text: 'authorised' })
  const r = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] })
  t.equal(r.choices[0].message.content, 'authorised')
  const wrong = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: 'not-the-key', maxRetries: 0 })
  const err = await wrong.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e)
  t.ok(err instanceof OpenAI.AuthenticationError)
  t.equal((err as InstanceType<typeof OpenAI.AuthenticationError>).type, 'authentication_error')
  const rest = await s.get('/api/providers', { headers: { authorization: 'Bearer agent-secret-key' } })
  t.equal(rest.status, 200, 'the Bearer key opens every route, not only /v1')
  t.equal((await s.get('/api/index', { headers: { authorization: 'Bearer wrong' } })).status, 401)
})

t.test('the client\'s system message joins agentd\'s composed prompt after the profile sections', async t => {
  const { client, fake } = await startOpenAIApi(t, { prompts: PROMPTS })
  fake.enqueue({ text: 'ok' })
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: 'CLIENT-SYSTEM' }, { role: 'user', content: 'hello' }] })
  const sent = fake.completions[0].body.messages as Array<{ role: string, content: string }>
  t.equal(sent.filter(m => m.role === 'system').length, 1, 'one system message')
  t.match(sent[0].content, /^GLOBAL-PROMPT[\s\S]*PLAIN-SECTION[\s\S]*CLIENT-SYSTEM$/)
  t.same(sent.slice(1), [{ role: 'user', content: 'hello' }])
})

t.test('profile per request: an extra body field or the X-Agent-Profile header; unknown is a 404', async t => {
  const { client, fake } = await startOpenAIApi(t, { prompts: PROMPTS })
  fake.enqueue({ text: 'a' }, { text: 'b' })
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], profile_id: 'pirate' } as OpenAI.ChatCompletionCreateParamsNonStreaming)
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }, { headers: { 'X-Agent-Profile': 'pirate' } })
  for (const c of fake.completions) t.match(c.body.messages[0].content, /PIRATE-SECTION/)
  const err = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }, { headers: { 'X-Agent-Profile': 'nope' } }).catch((e: unknown) => e)
  t.ok(err instanceof OpenAI.NotFoundError)
})

t.test('memory per request: `user` is the channel key, a header names one, X-Agent-Memory: false turns it off', async t => {
  const { client, fake } = await startOpenAIApi(t, { extra: [{ name: 'fake-memory', module: fixturePlugin('fake-memory'), options: { context: 'REMEMBERED-FACT' } }] })
  memoryJournal().length = 0
  fake.enqueue({ text: 'answer one' })
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'first question' }], user: 'alice' })
  t.match(fake.completions[0].body.messages[0].content, /REMEMBERED-FACT/, 'recalled memory is in the prompt')
  await pollUntil(() => memoryJournal().filter(c => c.op === 'storeTurn').length, n => n === 2)
  const stored = memoryJournal().filter(c => c.op === 'storeTurn').map(c => [c.arg.role, c.arg.content, c.arg.channel])
  t.same(stored, [['user', 'first question', 'alice'], ['assistant', 'answer one', 'alice']])
  t.equal(memoryJournal().find(c => c.op === 'recall')?.arg.channel, 'alice')

  memoryJournal().length = 0
  fake.enqueue({ text: 'two' })
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'q' }], user: 'bob@example.com' }, { headers: { 'X-Agent-Channel': 'team-a' } })
  t.equal(memoryJournal().find(c => c.op === 'recall')?.arg.channel, 'team-a', 'the header wins over `user`')

  memoryJournal().length = 0
  fake.enqueue({ text: 'three' })
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'q' }], user: 'bob@example.com' })
  t.match(memoryJournal().find(c => c.op === 'recall')?.arg.channel, /^user-[0-9a-f]{16}$/, 'a `user` that is no channel name maps to a stable one')

  memoryJournal().length = 0
  fake.enqueue({ text: 'four' })
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'q' }] }, { headers: { 'X-Agent-Memory': 'false' } })
  t.notMatch(fake.completions.at(-1)?.body.messages[0].content, /REMEMBERED-FACT/)
  t.equal(memoryJournal().length, 0, 'no recall, no store')
})

t.test('the chat length limit applies to the newest user message', async t => {
  const { client } = await startOpenAIApi(t, { env: { AGENT_MAX_CHAT_LENGTH: '20' } })
  const err = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x'.repeat(21) }] }).catch((e: unknown) => e)
  t.ok(err instanceof OpenAI.APIError)
  t.equal((err as InstanceType<typeof OpenAI.APIError>).status, 413)
  t.match((err as Error).message, /AGENT_MAX_CHAT_LENGTH/)
})
