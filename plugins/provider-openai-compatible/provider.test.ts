// The OpenAI-compatible provider against a fake upstream on loopback, through the real
// `openai` SDK: what is particular to it (wire format, presets, reasoning fields,
// tool-call deltas without an index, configuration). What every provider must do
// (streaming, errors, retries, timeouts, cancellation) is test/providers/provider-contract.ts.
import t from 'tap'
import { startFakeOpenAI } from '../../test/fakes/openai-upstream.ts'
import { collect, finishOf, reasoningOf, rejection, textOf, toolCallsOf } from '../../test/helpers/stream.ts'
import { makeProvider } from './test-support.ts'

const KEY = 'sk-test-abcdefghijklmnop1234'
const ask = (text: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: text }] })

const openai = (url: string, extra = {}) => makeProvider('openai', { base_url: url, ...extra }, { OPENAI_API_KEY: KEY })

t.test('plain completion: text, reported usage, model, and the request on the wire', async t => {
  const fake = await startFakeOpenAI(t, { apiKey: KEY })
  fake.enqueue({ text: 'Hello there', usage: { prompt_tokens: 7, completion_tokens: 3 } })
  const { provider } = openai(fake.url)
  const r = await provider.complete({ ...ask('hi'), temperature: 0.2, tools: [{ name: 'calc', description: 'adds', input_schema: { type: 'object' } }] })
  t.equal(r.content, 'Hello there')
  t.equal(r.finish_reason, 'stop')
  t.same(r.usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 })
  t.equal(r.model, 'gpt-4o-mini')
  const sent = fake.completions[0].body
  t.equal(sent.temperature, 0.2)
  t.same(sent.messages, [{ role: 'user', content: 'hi' }])
  t.same(sent.tools, [{ type: 'function', function: { name: 'calc', description: 'adds', parameters: { type: 'object' } } }])
})

t.test('assistant tool calls and tool results are sent in the OpenAI shape', async t => {
  const fake = await startFakeOpenAI(t)
  const { provider } = openai(fake.url)
  await provider.complete({
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: 'add' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'calc', arguments: { a: 1 } }] },
      { role: 'tool', content: '2', tool_call_id: 'c1', name: 'calc' },
    ],
  })
  const msgs = fake.completions[0].body.messages
  t.same(msgs[1], { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calc', arguments: '{"a":1}' } }] })
  t.same(msgs[2], { role: 'tool', content: '2', tool_call_id: 'c1' })
})

t.test('reasoning_content and reasoning deltas become thinking, apart from the answer', async t => {
  const fake = await startFakeOpenAI(t)
  fake.enqueue({ thinking: 'let me think', text: 'answer', thinkingField: 'reasoning_content' })
  fake.enqueue({ thinking: 'ollama thinks', text: 'ok', thinkingField: 'reasoning' })
  fake.enqueue({ thinking: 'plain thought', text: 'done', thinkingField: 'reasoning' })
  const { provider } = makeProvider('local', { base_url: fake.url })
  const a = await collect(provider.stream(ask('q')))
  t.equal(reasoningOf(a), 'let me think')
  t.equal(textOf(a), 'answer')
  t.ok(a.findLastIndex(p => p.type === 'reasoning-delta') < a.findIndex(p => p.type === 'text-delta'), 'reasoning parts before the answer\'s')
  const b = await collect(provider.stream(ask('q')))
  t.equal(reasoningOf(b), 'ollama thinks')
  const c = await provider.complete(ask('q'))
  t.equal(c.thinking, 'plain thought')
  t.equal(c.content, 'done')
})

t.test('usage omitted by the upstream is estimated and marked', async t => {
  const fake = await startFakeOpenAI(t)
  fake.enqueue({ text: 'twelve chars', usage: null }, { text: 'streamed text', usage: null })
  const { provider } = openai(fake.url)
  const r = await provider.complete(ask('a question of some length'))
  t.equal(r.usage.estimated, true)
  t.ok(r.usage.prompt_tokens > 0 && r.usage.completion_tokens === 3)
  const { usage } = finishOf(await collect(provider.stream(ask('hi'))))
  t.equal(usage.estimated, true)
  t.equal(usage.completion_tokens, 4, 'from the 13 characters relayed')
  t.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens)
})

t.test('without a key the provider is not_configured and says what to set; calls give 503', async t => {
  const { provider } = makeProvider('openai', {}, {})
  t.same(provider.status().status, 'not_configured')
  t.match(provider.status().error, /OPENAI_API_KEY or providers\.openai\.api_key/)
  const err = await rejection(provider.complete(ask('hi')))
  t.equal(err.statusCode, 503)
  t.equal((await provider.health()).status, 'not_configured')
})

t.test('a server that is not running gives a 503 naming the address to fix', async t => {
  const { provider } = makeProvider('local', { base_url: 'http://127.0.0.1:9/v1', max_retries: 0 })
  const err = await rejection(provider.complete(ask('hi')))
  t.equal(err.statusCode, 503)
  t.match(err.message, /Cannot reach local at http:\/\/127\.0\.0\.1:9\/v1/)
  t.match(err.message, /LOCAL_MODEL_URL/)
})

t.test('a custom instance needs only a name, a base URL and a key variable', async t => {
  const fake = await startFakeOpenAI(t, { apiKey: 'gsk_groqkey123456', models: ['llama-3.3-70b-versatile'] })
  const { provider } = makeProvider('groq', { base_url: fake.url, api_key_env: 'GROQ_API_KEY' }, { GROQ_API_KEY: 'gsk_groqkey123456' })
  t.equal(provider.id, 'groq')
  t.equal((await provider.complete(ask('hi'))).content, 'echo: hi')
  const models = await provider.listModels()
  t.same(models.map(m => [m.name, m.known]), [['llama-3.3-70b-versatile', false]], 'unknown models get honest defaults')
  t.equal(models[0].context_window, 4096)
  const none = makeProvider('groq', { base_url: fake.url, api_key_env: 'GROQ_API_KEY' }, {}).provider
  t.match(none.status().error, /GROQ_API_KEY or providers\.groq\.api_key/)
})

t.test('openrouter sends its attribution headers', async t => {
  const fake = await startFakeOpenAI(t)
  const { provider } = makeProvider('openrouter', { base_url: fake.url }, { OPENROUTER_API_KEY: 'sk-or-v1-xxxxxxxxxxxx' })
  await provider.complete({ ...ask('hi'), model: 'anthropic/claude-sonnet-4' })
  const h = fake.completions[0].headers
  t.equal(h['x-title'], 'agentd')
  t.ok(typeof h['http-referer'] === 'string' && h['http-referer'] !== '')
  t.equal(fake.completions[0].body.model, 'anthropic/claude-sonnet-4')
})

t.test('local lists models from its server, catalogue data applied by family', async t => {
  const fake = await startFakeOpenAI(t, { models: ['llama3.2:3b', 'mystery-model:latest'] })
  const { provider } = makeProvider('local', { base_url: fake.url }, {}, { models: { overrides: { 'local/mystery-model': { context_window: 9000 } } } })
  const models = await provider.listModels()
  const llama = models.find(m => m.name === 'llama3.2:3b')!
  t.equal(llama.known, true)
  t.equal(llama.context_window, 131072)
  t.equal(llama.supports_tools, true)
  const mystery = models.find(m => m.name === 'mystery-model:latest')!
  t.equal(mystery.context_window, 9000, 'config override applies')
  t.equal((await provider.health()).status, 'healthy')
})

t.test('local timeout: config file, then LOCAL_MODEL_TIMEOUT, then 300 s', async t => {
  t.equal(makeProvider('local', {}, {}).provider.settings?.().timeout, 300)
  t.equal(makeProvider('local', {}, { LOCAL_MODEL_TIMEOUT: '42' }).provider.settings?.().timeout, 42)
  t.equal(makeProvider('local', {}, { LOCAL_MODEL_TIMEOUT: '42' }, { providers: { local: { timeout: 300 } } }).provider.settings?.().timeout, 300)
  t.equal(makeProvider('local', {}, { LOCAL_MODEL_URL: 'http://10.0.0.5:8000/v1' }).provider.settings?.().base_url, 'http://10.0.0.5:8000/v1')
})

t.test('OpenAI gets max_completion_tokens and no sampling for reasoning models; others get max_tokens', async t => {
  const fake = await startFakeOpenAI(t)
  const { provider } = openai(fake.url)
  await provider.complete({ ...ask('hi'), model: 'o3', max_tokens: 50, temperature: 0.3 })
  await provider.complete({ ...ask('hi'), model: 'gpt-4o', max_tokens: 50, temperature: 0.3 })
  const { provider: local } = makeProvider('local', { base_url: fake.url })
  await local.complete({ ...ask('hi'), model: 'llama3.2', max_tokens: 50, temperature: 0.3 })
  const [o3, gpt, llama] = fake.completions.map(r => r.body)
  t.match(o3, { max_completion_tokens: 50 })
  t.notOk('temperature' in o3 || 'max_tokens' in o3)
  t.match(gpt, { max_completion_tokens: 50, temperature: 0.3 })
  t.match(llama, { max_tokens: 50, temperature: 0.3 })
  t.notOk('max_completion_tokens' in llama)
})

t.test('a slow consumer does not trip the idle timeout', async t => {
  const fake = await startFakeOpenAI(t)
  fake.enqueue({ text: 'abcdef', chunkSize: 2 })
  const { provider } = openai(fake.url, { timeout: 0.2 })
  let text = ''
  for await (const p of provider.stream(ask('hi'))) {
    if (p.type === 'text-delta') text += p.delta
    await new Promise(resolve => setTimeout(resolve, 300)) // longer than the timeout, on our side
  }
  t.equal(text, 'abcdef')
})

t.test('openrouter health checks the key with GET /key, not the public model list', async t => {
  const http = await import('node:http')
  const seen: string[] = []
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    const ok = req.headers.authorization === 'Bearer sk-or-v1-goodkey0000'
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
    res.end(JSON.stringify(ok ? { data: { label: 'k', usage: 0 } } : { error: { message: 'No auth credentials found', code: 401 } }))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.close() })
  const url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/api/v1`
  const good = makeProvider('openrouter', { base_url: url }, { OPENROUTER_API_KEY: 'sk-or-v1-goodkey0000' }).provider
  t.equal((await good.health()).status, 'healthy')
  const bad = await makeProvider('openrouter', { base_url: url }, { OPENROUTER_API_KEY: 'sk-or-v1-wrongkey000' }).provider.health()
  t.equal(bad.status, 'unhealthy')
  t.match(bad.error, /OPENROUTER_API_KEY/)
  t.same(seen, ['GET /api/v1/key', 'GET /api/v1/key'])
})

t.test('streamed tool-call deltas without an index (older Ollama, Gemini) are assembled by id', async t => {
  const fake = await startFakeOpenAI(t)
  fake.enqueue({
    chunkSize: 3,
    toolCallIndex: false,
    tool_calls: [
      { id: 'call_x', name: 'get_weather', arguments: { city: 'Oslo' } },
      { id: 'call_y', name: 'calculate', arguments: { expression: '1+2' } },
    ],
  })
  const { provider } = makeProvider('local', { base_url: fake.url })
  const parts = await collect(provider.stream(ask('two calls')))
  t.equal(finishOf(parts).finish_reason, 'tool_calls')
  t.same(toolCallsOf(parts), [
    { id: 'call_x', name: 'get_weather', arguments: { city: 'Oslo' } },
    { id: 'call_y', name: 'calculate', arguments: { expression: '1+2' } },
  ])
})
