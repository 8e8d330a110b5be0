// Providers across live reloads: a third-party provider added to plugins.json appears
// without a restart, and a stream that started before a config change finishes on the
// old settings while the next request uses the new ones.
import t from 'tap'
import path from 'node:path'
import { startKernel } from '../../test/helpers/kernel.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'
import { startFakeOpenAI } from '../../test/fakes/openai-upstream.ts'

const compat = repoPlugin('provider-openai-compatible')
const fixture = (name: string): string => path.join(repoPlugin('providers-api'), 'fixtures', name)
const base = [
  { name: 'local', module: compat },
  { name: 'providers-api', module: repoPlugin('providers-api') },
  { name: 'config-api', module: repoPlugin('config-api') },
  { name: 'stream-route', module: fixture('stream-route') },
]

t.test('a third-party provider plugin loaded by path appears in /api/providers after a live reload', async t => {
  const s = await startKernel(t, { plugins: base })
  const before = await s.json('/api/providers')
  t.notOk(before.body.providers.some((p: { name: string }) => p.name === 'parrot'))
  const reloaded = s.nextReload()
  s.ws.writePlugins([...base, { name: 'parrot', module: fixture('parrot-provider'), options: { greeting: 'Polly' } }])
  await reloaded
  t.equal(s.kernel.api.lastReload()?.ok, true)
  const after = await s.json('/api/providers')
  t.same(after.body.providers.find((p: { name: string }) => p.name === 'parrot'), { name: 'parrot', status: 'configured', models: ['parrot'] })
  const answer = await s.json('/api/test/provider-complete?model=parrot/parrot&text=cracker')
  t.equal(answer.body.content, 'Polly: cracker', 'it is callable through model resolution too')
})

t.test('a stream running during a config change finishes on the old settings; the next uses the new', async t => {
  const oldUp = await startFakeOpenAI(t, { fallback: () => ({ text: 'old-server-'.repeat(6), chunkSize: 4, delayMs: 25 }) })
  const newUp = await startFakeOpenAI(t, { fallback: () => ({ text: 'new-server' }) })
  const s = await startKernel(t, { plugins: base, env: { LOCAL_MODEL_URL: oldUp.url } })
  const res = await s.get('/api/test/provider-stream?model=local/llama3.2', { headers: { accept: 'text/event-stream' } })
  t.equal(res.status, 200)
  const reader = res.body!.getReader()
  let text = new TextDecoder().decode((await reader.read()).value)
  const update = await s.post('/api/config/update', { providers: { local: { base_url: newUp.url } } })
  t.equal(update.status, 200)
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
  }
  const content = [...text.matchAll(/^data: (.*)$/gm)].map(m => JSON.parse(m[1]) as { content?: string }).map(c => c.content ?? '').join('')
  t.equal(content, 'old-server-'.repeat(6), 'the running stream finished whole on the old server')
  t.match(text, /event: done/)
  const next = await s.json('/api/test/provider-complete?model=local/llama3.2')
  t.equal(next.body.content, 'new-server', 'the next request went to the new address')
  t.equal(oldUp.completions.length, 1)
  t.equal(newUp.completions.length, 1)
})

t.test('a client that disconnects from a stream closes the upstream request', async t => {
  const up = await startFakeOpenAI(t, { fallback: () => ({ text: 'z'.repeat(400), chunkSize: 1, delayMs: 10 }) })
  const s = await startKernel(t, { plugins: base, env: { LOCAL_MODEL_URL: up.url } })
  const ac = new AbortController()
  const res = await s.get('/api/test/provider-stream?model=local/llama3.2', { headers: { accept: 'text/event-stream' }, signal: ac.signal })
  const reader = res.body!.getReader()
  await reader.read()
  ac.abort()
  const deadline = Date.now() + 3000
  while (!up.completions[0].aborted && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 20))
  t.equal(up.completions[0].aborted, true, 'the upstream saw its request closed')
})

t.test('anthropic through the kernel: a bare claude name resolves to it and streams', async t => {
  const { startFakeAnthropic } = await import('../../test/fakes/anthropic-upstream.ts')
  const up = await startFakeAnthropic(t, { apiKey: 'sk-ant-kernel-test-1234' })
  up.enqueue({ text: 'streamed by claude', chunkSize: 3 })
  const s = await startKernel(t, {
    plugins: [{ name: 'anthropic', module: repoPlugin('provider-anthropic') }, ...base],
    env: { ANTHROPIC_API_KEY: 'sk-ant-kernel-test-1234', ANTHROPIC_BASE_URL: up.url },
  })
  const res = await s.get('/api/test/provider-stream?model=claude-sonnet-4-5', { headers: { accept: 'text/event-stream' } })
  const text = await res.text()
  const content = [...text.matchAll(/^data: (.*)$/gm)].map(m => JSON.parse(m[1]) as { content?: string }).map(c => c.content ?? '').join('')
  t.equal(content, 'streamed by claude')
  t.equal(up.messages[0].body.model, 'claude-sonnet-4-5')
  const health = await s.json('/api/providers/health')
  t.equal(health.body.providers.anthropic.status, 'healthy')
})
