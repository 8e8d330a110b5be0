// Limits that keep one client from holding the machine: refused API keys count against the
// rate limit, a request body must arrive in bounded time (a stream's response does not),
// and work that holds resources is capped (503 with Retry-After past the cap).
import t from 'tap'
import net from 'node:net'
import { once } from 'node:events'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin, type PluginSpec } from '../helpers/workspace.ts'
import { startFakeOpenAI } from '../fakes/openai-upstream.ts'
import { gate } from '../helpers/gate.ts'
import { until } from '../helpers/poll.ts'
import { fixture } from '../chat/helpers.ts'

const tools: PluginSpec[] = [{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }, { name: 'tools-api', module: repoPlugin('tools-api') }]

t.test('with rate limiting on, wrong API keys are counted: guessing meets 429', async t => {
  const s = await startKernel(t, { plugins: tools, env: { AGENT_API_KEY_REQUIRED: 'true', AGENT_API_KEY: 'right-key', AGENT_RATE_LIMIT_ENABLED: 'true', AGENT_RATE_LIMIT: '3/m' } })
  const statuses: number[] = []
  for (let i = 0; i < 5; i++) statuses.push((await s.get('/api/tools', { headers: { 'x-api-key': `guess-${i}` } })).status)
  t.same(statuses, [401, 401, 401, 429, 429], 'three guesses, then the limit')
  const late = await s.get('/api/tools', { headers: { 'x-api-key': 'right-key' } })
  t.equal(late.status, 429, 'the right key too, once the allowance is spent')
  t.ok(Number(late.headers.get('retry-after')) > 0, 'with Retry-After')
})

t.test('a request body sent a byte at a time is cut off after AGENT_REQUEST_TIMEOUT_MS', async t => {
  const s = await startKernel(t, { plugins: tools, env: { AGENT_REQUEST_TIMEOUT_MS: '600' } })
  const { port } = new URL(s.url)
  const sock = net.connect(Number(port), '127.0.0.1')
  await once(sock, 'connect')
  sock.write(`POST /api/tools/call HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"na`)
  const drip = setInterval(() => { if (!sock.destroyed) sock.write(' ') }, 100)
  t.teardown(() => { clearInterval(drip); sock.destroy() })
  let answer = ''
  sock.on('data', (d: Buffer) => { answer += d.toString() })
  const started = Date.now()
  await once(sock, 'close')
  const took = Date.now() - started
  t.ok(took < 10_000, `closed after ${took} ms, though the client kept sending`)
  t.match(answer, /^HTTP\/1\.1 408/, 'with 408 Request Timeout')
})

t.test('a stream longer than AGENT_REQUEST_TIMEOUT_MS keeps streaming (only the request is timed)', async t => {
  const fake = await startFakeOpenAI(t)
  fake.enqueue({ text: 'one two three four five six', chunkSize: 4, delayMs: 250 })
  const s = await startKernel(t, {
    plugins: [{ name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } }, { name: 'providers-api', module: repoPlugin('providers-api') }, { name: 'prompts', module: repoPlugin('prompts') }, { name: 'chat', module: repoPlugin('chat') }],
    env: { AGENT_REQUEST_TIMEOUT_MS: '400', OPENAI_API_KEY: 'sk-test' },
  })
  const started = Date.now()
  const res = await s.post('/api/agent/chat/stream', { message: 'hi', model: 'openai/gpt-4o-mini' })
  const text = await res.text()
  t.ok(Date.now() - started > 800, 'the stream ran well past the request timeout')
  t.match(text, /event: done/, 'and ended with done')
  t.match(text, /"content":" six"/, 'every chunk arrived')
})

t.test('past AGENT_MAX_CONCURRENT_STREAMS a new stream gets 503 AGENT_ERR_BUSY with Retry-After; a slot frees when a stream ends', async t => {
  const fake = await startFakeOpenAI(t)
  const held = gate()
  fake.enqueue({ text: 'held', gate: held.promise }, { text: 'next' })
  const s = await startKernel(t, {
    plugins: [{ name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } }, { name: 'providers-api', module: repoPlugin('providers-api') }, { name: 'prompts', module: repoPlugin('prompts') }, { name: 'chat', module: repoPlugin('chat') }],
    env: { AGENT_MAX_CONCURRENT_STREAMS: '1', OPENAI_API_KEY: 'sk-test' },
  })
  const body = { message: 'hi', model: 'openai/gpt-4o-mini' }
  const first = s.post('/api/agent/chat/stream', body)
  await until('the first stream reaches the model', () => fake.completions.length === 1)
  const refused = await s.post('/api/agent/chat/stream', body)
  t.equal(refused.status, 503)
  t.equal(refused.headers.get('retry-after'), '1')
  t.match(await refused.json(), { code: 'AGENT_ERR_BUSY', error: /AGENT_MAX_CONCURRENT_STREAMS/ })
  const bad = await s.post('/api/agent/chat/stream', { message: '' })
  t.equal(bad.status, 400, 'a bad request is still a 400, whatever the load')
  held.open()
  t.match(await (await first).text(), /event: done/)
  const after = await s.post('/api/agent/chat/stream', body)
  t.equal(after.status, 200, 'the slot came back when the first stream ended')
  await after.text()
})

t.test('past AGENT_MAX_CONCURRENT_TOOL_CALLS a tool call gets 503', async t => {
  const s = await startKernel(t, { plugins: [...tools, { name: 'test-tools', module: fixture('test-tools') }], env: { AGENT_MAX_CONCURRENT_TOOL_CALLS: '1' } })
  const held = gate()
  ;(globalThis as { __testGates?: Map<string, typeof held> }).__testGates ??= new Map()
  const slow = s.post('/api/tools/call', { name: 'slow_echo', arguments: { text: 'x', ms: 800 } })
  await new Promise(resolve => setTimeout(resolve, 200))
  const refused = await s.post('/api/tools/call', { name: 'calculate', arguments: { expression: '1 + 1' } })
  t.equal(refused.status, 503, await refused.clone().text())
  t.equal(refused.headers.get('retry-after'), '1')
  await (await slow).text()
  t.equal((await s.post('/api/tools/call', { name: 'calculate', arguments: { expression: '1 + 1' } })).status, 200)
})
