// Key theft through base_url: a provider's key (stored or from the environment) goes only to
// the address it was configured with, and what an upstream answers never comes back raw.
// Loopback servers stand in for "elsewhere" and record every header they receive.
import t from 'tap'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin, type PluginSpec } from '../helpers/workspace.ts'
import { startFakeOpenAI } from '../fakes/openai-upstream.ts'

const plugins: PluginSpec[] = [
  { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { max_retries: 0 } },
  { name: 'providers-api', module: repoPlugin('providers-api') },
  { name: 'prompts', module: repoPlugin('prompts') },
  { name: 'chat', module: repoPlugin('chat') },
  { name: 'config-api', module: repoPlugin('config-api') },
]
const ENV_KEY = 'sk-env-secret-0123456789'
const STORED_KEY = 'sk-stored-secret-9876543210'

/** Everything sent to a provider's three calls: health, model list, chat. */
async function exercise (s: Awaited<ReturnType<typeof startKernel>>): Promise<string> {
  const health = await s.json('/api/providers/health')
  const models = await s.json('/api/providers/models?provider=openai')
  const chat = await s.post('/api/agent/chat', { message: 'hi', model: 'openai/gpt-4o-mini' })
  return JSON.stringify([health.body, models.body, await chat.text()])
}

t.test('an environment key is never sent to a base_url set at run time', async t => {
  const elsewhere = await startFakeOpenAI(t)
  const s = await startKernel(t, { plugins, env: { OPENAI_API_KEY: ENV_KEY } })
  const r = await s.post('/api/config/update', { key: 'providers.openai.base_url', value: elsewhere.url })
  t.equal(r.status, 200)
  const answers = await exercise(s)
  t.notOk(elsewhere.requests.some(q => JSON.stringify(q.headers).includes(ENV_KEY)), 'elsewhere never saw the environment key')
  t.match(answers, /OPENAI_API_KEY is not sent to providers\.openai\.base_url/, 'the answers say why the provider is not configured')
  t.notOk(answers.includes(ENV_KEY))
})

t.test('a key given together with the new base_url goes there (the legitimate change)', async t => {
  const server = await startFakeOpenAI(t, { apiKey: STORED_KEY })
  const s = await startKernel(t, { plugins, env: { OPENAI_API_KEY: ENV_KEY } })
  const r = await s.post('/api/config/update', { providers: { openai: { base_url: server.url, api_key: STORED_KEY } } })
  t.equal(r.status, 200)
  const chat = await s.post('/api/agent/chat', { message: 'hi', model: 'openai/gpt-4o-mini' })
  t.equal(chat.status, 200, await chat.clone().text())
  t.ok(server.requests.length > 0 && server.requests.every(q => q.headers.authorization === `Bearer ${STORED_KEY}`), 'the stored key, to its own address')
})

t.test('moving base_url without api_key clears the stored key; the new address never sees it', async t => {
  const first = await startFakeOpenAI(t, { apiKey: STORED_KEY })
  const elsewhere = await startFakeOpenAI(t)
  const s = await startKernel(t, { plugins, config: { providers: { openai: { base_url: first.url, api_key: STORED_KEY } } } })
  const moved = await s.post('/api/config/update', { key: 'providers.openai.base_url', value: elsewhere.url })
  t.equal(moved.status, 200)
  const body = await moved.json() as { cleared?: string[], message: string }
  t.same(body.cleared, ['providers.openai.api_key'])
  t.match(body.message, /a key goes only to the base URL it was set with/)
  await exercise(s)
  t.notOk(elsewhere.requests.some(q => JSON.stringify(q.headers).includes(STORED_KEY)), 'elsewhere never saw the stored key')
  const config = await s.json('/api/config')
  t.same(config.body.providers.openai.api_key, { set: false }, 'GET /api/config shows no key set')
  const same = await s.post('/api/config/update', { providers: { openai: { base_url: elsewhere.url, api_key: 'sk-new' } } })
  t.equal(same.status, 200)
  t.equal((await same.json() as { cleared?: string[] }).cleared, undefined, 'nothing cleared when the key comes along')
})

t.test('only http: and https: base URLs are accepted', async t => {
  const s = await startKernel(t, { plugins })
  for (const value of ['file:///etc/passwd', 'ftp://example.org/v1', 'gopher://127.0.0.1:6379/_INFO', 'javascript:alert(1)']) {
    const r = await s.post('/api/config/update', { key: 'providers.openai.base_url', value })
    t.equal(r.status, 400, value)
  }
})

t.test('an upstream\'s raw body never reaches the answer: at most one short line it states', async t => {
  const secret = 'INTERNAL-ADMIN-PAGE-token-abc123'
  const page = http.createServer((req, res) => {
    req.resume()
    const stated = req.url?.includes('stated') === true
    if (stated) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `quota\nexceeded ${'x'.repeat(500)}` }, debug: secret }))
    else res.writeHead(500, { 'content-type': 'text/html' }).end(`<html><body>${secret}\n<pre>root:x:0:0</pre></body></html>`)
  })
  await new Promise<void>(resolve => page.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { page.close() })
  const base = `http://127.0.0.1:${(page.address() as AddressInfo).port}`
  for (const suffix of ['/v1', '/stated/v1']) {
    const s = await startKernel(t, { plugins, config: { providers: { openai: { base_url: base + suffix, api_key: STORED_KEY } } } })
    const answers = await exercise(s)
    t.notOk(answers.includes(secret), `${suffix}: the body's other content is not copied`)
    t.notOk(answers.includes('root:x:0:0'), `${suffix}: nor its text`)
    if (suffix === '/stated/v1') {
      t.match(answers, /quota exceeded x+/, 'the stated message, on one line')
      t.notOk(answers.includes('x'.repeat(250)), 'cut short')
    }
  }
})
