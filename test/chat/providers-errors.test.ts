// Provider failures as a chat client sees them, over HTTP through the kernel, the real
// OpenAI-compatible provider and the fake upstream: a hung upstream is a 504 within the
// configured timeout, a rejected key a 502 that says what to set, and the key (or the
// masked form the upstream quotes back) reaches neither the answer nor the log.
import t, { type Test } from 'tap'
import { Writable } from 'node:stream'
import pino from 'pino'
import { Kernel } from '../../core/kernel.ts'
import { testEnv } from '../helpers/kernel.ts'
import { repoPlugin, Workspace } from '../helpers/workspace.ts'
import { maskKey, startFakeOpenAI } from '../fakes/openai-upstream.ts'
import { fixture, parseSse } from './helpers.ts'
import { pollUntil } from '../helpers/poll.ts'

interface Booted { url: string, lines: string[], post: (p: string, body: unknown) => Promise<Response> }

/** A kernel with openai -> the fake, prompts and chat; every log line (trace and up) is kept. */
async function boot (t: Test, upstream: string, env: Record<string, string>, config: unknown = {}): Promise<Booted> {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.writePlugins([
    { name: 'openai', module: repoPlugin('provider-openai-compatible') },
    { name: 'test-tools', module: fixture('test-tools') },
    { name: 'prompts', module: repoPlugin('prompts') },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'chat', module: repoPlugin('chat') },
  ])
  ws.writeConfig(config)
  const lines: string[] = []
  const logger = pino({ level: 'trace' }, new Writable({ write (c, _e, cb) { lines.push(String(c)); cb() } }))
  const kernel = new Kernel({ cwd: ws.dir, env: testEnv(ws, { OPENAI_BASE_URL: upstream, ...env }), logger, watch: false })
  const addr = await kernel.start()
  t.teardown(async () => { await kernel.close() })
  const url = `http://127.0.0.1:${addr.port}`
  const post = async (p: string, body: unknown): Promise<Response> =>
    await fetch(url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { url, lines, post }
}

const ask = { message: 'hello?', model: 'openai/gpt-4o-mini', use_memory: false }

t.test('a hung upstream with providers.openai.timeout 0.5 is a 504 AGENT_ERR_PROVIDER_TIMEOUT within the timeout', async t => {
  const fake = await startFakeOpenAI(t)
  fake.enqueue({ hang: true })
  const k = await boot(t, fake.url, { OPENAI_API_KEY: 'sk-timeout-test-00000000' }, { providers: { openai: { timeout: 0.5 } } })
  const started = performance.now()
  const res = await k.post('/api/agent/chat', ask)
  const took = performance.now() - started
  const body = await res.json() as { error: string, code: string, statusCode: number }
  t.equal(res.status, 504)
  t.equal(body.code, 'AGENT_ERR_PROVIDER_TIMEOUT')
  t.equal(body.statusCode, 504)
  t.match(body.error, /openai did not answer within 0\.5 s/)
  t.match(body.error, /providers\.openai\.timeout/, 'it says which setting raises the limit')
  t.ok(took >= 450, `not before the timeout (${took.toFixed(0)} ms)`)
  t.ok(took < 2500, `soon after it, with no retry (${took.toFixed(0)} ms)`)
  t.equal(fake.completions.length, 1, 'a timeout is not retried')
  t.equal(await pollUntil(() => fake.completions[0].aborted, a => a, 3000), true, 'the hung upstream request was closed')
})

t.test('a stream whose upstream hangs gets start, then an error event with the 504 and its code', async t => {
  const fake = await startFakeOpenAI(t)
  fake.enqueue({ hang: true })
  const k = await boot(t, fake.url, { OPENAI_API_KEY: 'sk-timeout-test-00000000' }, { providers: { openai: { timeout: 0.5 } } })
  const started = performance.now()
  const res = await k.post('/api/agent/chat/stream', ask)
  const events = parseSse(await res.text())
  t.ok(performance.now() - started < 2500, 'the stream ended soon after the timeout')
  t.same(events.map(e => e.event), ['start', 'error'])
  t.match(events[1].data, { code: 'AGENT_ERR_PROVIDER_TIMEOUT', statusCode: 504, error: /openai did not answer within 0\.5 s/ })
})

t.test('a rejected key is a 502 naming openai and OPENAI_API_KEY; the key and its masked echo reach neither answer nor log', async t => {
  const wrong = 'sk-xqZWrongKey-5eKrEt-Q7vZ'
  const fake = await startFakeOpenAI(t, { apiKey: 'sk-the-right-key-0000000000' })
  // The upstream really does quote the key back, masked, like the real API.
  const direct = await fetch(`${fake.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${wrong}`, 'content-type': 'application/json' }, body: '{}' })
  const upstreamText = await direct.text()
  t.ok(upstreamText.includes(maskKey(wrong)), `the fake's 401 quotes ${maskKey(wrong)}`)

  const k = await boot(t, fake.url, { OPENAI_API_KEY: wrong })
  const res = await k.post('/api/agent/chat', ask)
  const text = await res.text()
  const body = JSON.parse(text) as { error: string, code: string, statusCode: number }
  t.equal(res.status, 502)
  t.equal(body.code, 'AGENT_ERR_PROVIDER_AUTH')
  t.match(body.error, /openai rejected the API key/)
  t.match(body.error, /OPENAI_API_KEY/, 'it names the variable to set')
  const stream = await (await k.post('/api/agent/chat/stream', ask)).text()
  t.match(parseSse(stream).at(-1), { event: 'error', data: { code: 'AGENT_ERR_PROVIDER_AUTH', statusCode: 502, error: /OPENAI_API_KEY/ } })

  t.ok(k.lines.some(l => l.includes('AGENT_ERR_PROVIDER_AUTH')), 'the failure was logged')
  const visible = [wrong, maskKey(wrong), wrong.slice(0, 5), wrong.slice(-4), '5eKrEt']
  for (const [where, out] of [['response', text], ['stream', stream], ['log', k.lines.join('')]] as const) {
    for (const part of visible) t.notOk(out.includes(part), `"${part}" is not in the ${where}`)
  }
})
