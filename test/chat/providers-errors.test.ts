// Provider failures as a chat client sees them, over HTTP through the kernel, the real
// OpenAI-compatible provider and the fake upstream: a hung upstream is a 504 within the
// configured timeout, a rejected key a 502 that says what to set, and the key (or the
// masked form the upstream quotes back) reaches neither the answer nor the log.
import t, { type Test } from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { maskKey, startFakeOpenAI } from '../fakes/openai-upstream.ts'
import { fixture, parseSse } from './helpers.ts'
import { pollUntil } from '../helpers/poll.ts'

interface Booted { url: string, log: () => string, post: (p: string, body: unknown) => Promise<Response> }

/** A kernel with openai -> the fake, prompts and chat; every log line (trace and up) is kept. */
async function boot (t: Test, upstream: string, env: Record<string, string>, config: unknown = {}): Promise<Booted> {
  const s = await startKernel(t, {
    plugins: [
      { name: 'openai', module: repoPlugin('provider-openai-compatible') },
      { name: 'test-tools', module: fixture('test-tools') },
      { name: 'prompts', module: repoPlugin('prompts') },
      { name: 'providers-api', module: repoPlugin('providers-api') },
      { name: 'chat', module: repoPlugin('chat') },
    ],
    config,
    env: { OPENAI_BASE_URL: upstream, ...env },
    watch: false,
    logLevel: 'trace',
  })
  return { url: s.url, log: s.logText, post: async (p, body) => await s.post(p, body) }
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
  // The upstream never answers, so an answer at all is the timeout's; no upper bound in ms.
  t.equal(fake.completions.length, 1, 'a timeout is not retried')
  t.equal(await pollUntil(() => fake.completions[0].aborted, a => a, 3000), true, 'the hung upstream request was closed')
})

t.test('a stream whose upstream hangs gets start, then an error event with the 504 and its code', async t => {
  const fake = await startFakeOpenAI(t)
  fake.enqueue({ hang: true })
  const k = await boot(t, fake.url, { OPENAI_API_KEY: 'sk-timeout-test-00000000' }, { providers: { openai: { timeout: 0.5 } } })
  // The upstream never answers: the stream ending at all is the timeout's doing.
  const res = await k.post('/api/agent/chat/stream', ask)
  const events = parseSse(await res.text())
  t.equal(fake.completions.length, 1, 'not retried')
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

  t.match(k.log(), 'AGENT_ERR_PROVIDER_AUTH', 'the failure was logged')
  const visible = [wrong, maskKey(wrong), wrong.slice(0, 5), wrong.slice(-4), '5eKrEt']
  for (const [where, out] of [['response', text], ['stream', stream], ['log', k.log()]] as const) {
    for (const part of visible) t.notOk(out.includes(part), `"${part}" is not in the ${where}`)
  }
})
