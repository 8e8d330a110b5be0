// Providers across live reloads: a third-party provider added to plugins.json appears
// without a restart, and a stream that started before a config change finishes on the
// old settings while the next request uses the new ones.
import t from 'tap'
import path from 'node:path'
import { startKernel } from '../../test/helpers/kernel.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'
import { startFakeOpenAI } from '../../test/fakes/openai-upstream.ts'
import { until } from '../../test/helpers/poll.ts'

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
  t.same(after.body.providers.find((p: { name: string }) => p.name === 'parrot'), { name: 'parrot', status: 'configured', available: true, models: ['parrot'] })
  const answer = await s.json('/api/test/provider-complete?model=parrot/parrot&text=cracker')
  t.equal(answer.body.content, 'Polly: cracker', 'it is callable through model resolution too')
})

// An out-of-tree provider: plain JavaScript in the user's own folder, importing nothing
// (no agentd code, no packages); it only uses what the kernel hands it (app.registry, opts).
const OUT_OF_TREE_PROVIDER = `
const CAPABILITIES = {
  supports_tools: false, supports_vision: false, supports_streaming: true, supports_json_mode: false,
  context_window: 8192, max_output_tokens: null, cost_per_1k_input: null, cost_per_1k_output: null,
}
export default async function echoProvider (app, opts) {
  const id = opts.instance
  const answer = req => (opts.prefix ?? 'echo') + ': ' + (req.messages.at(-1)?.content ?? '')
  const usage = text => ({ prompt_tokens: 1, completion_tokens: text.split(' ').length, total_tokens: 1 + text.split(' ').length })
  const provider = {
    id,
    status: () => ({ status: 'configured' }),
    listModels: async () => [{ name: 'echo-1', provider: id, ...CAPABILITIES }],
    capabilities: () => ({ ...CAPABILITIES }),
    knowsModel: model => model === 'echo-1',
    complete: async req => ({ content: answer(req), finish_reason: 'stop', tool_calls: [], model: req.model, usage: usage(answer(req)) }),
    stream: async function * (req) {
      for (const word of answer(req).split(/(?<= )/)) yield { type: 'text-delta', delta: word }
      yield { type: 'finish', finish_reason: 'stop', usage: usage(answer(req)), model: req.model }
    },
    health: async () => ({ status: 'healthy' }),
  }
  app.registry.providers.add(id, provider)
}
`

t.test('a plain-JS provider plugin with no imports, added to plugins.json by path, is listed and chats after a live reload', async t => {
  const withChat = [...base, { name: 'prompts', module: repoPlugin('prompts') }, { name: 'chat', module: repoPlugin('chat') }]
  const s = await startKernel(t, { plugins: withChat })
  s.ws.write('my-plugins/echo-provider/index.mjs', OUT_OF_TREE_PROVIDER)
  const reloaded = s.nextReload()
  s.ws.writePlugins([...withChat, { name: 'echo', module: './my-plugins/echo-provider', options: { prefix: 'Echo' } }])
  await reloaded
  t.equal(s.kernel.api.lastReload()?.ok, true, JSON.stringify(s.kernel.api.lastReload()))
  const listed = (await s.json('/api/providers')).body.providers.find((p: { name: string }) => p.name === 'echo')
  t.same(listed, { name: 'echo', status: 'configured', available: true, models: ['echo-1'] })
  const models = (await s.json('/api/providers/models?provider=echo')).body.models
  t.match(models, [{ name: 'echo-1', provider: 'echo', context_window: 8192, known: true }])
  const chat = await s.post('/api/agent/chat', { message: 'pieces of eight', model: 'echo/echo-1', use_memory: false })
  t.equal(chat.status, 200)
  t.match(await chat.json(), { answer: 'Echo: pieces of eight', provider: 'echo', model: 'echo-1' })
  const bare = await s.post('/api/agent/chat', { message: 'by bare name', model: 'echo-1', use_memory: false })
  t.match(await bare.json(), { answer: 'Echo: by bare name', provider: 'echo' }, 'its knowsModel routes the bare name')
  const stream = await (await s.post('/api/agent/chat/stream', { message: 'streamed too', model: 'echo/echo-1', use_memory: false })).text()
  const chunks = [...stream.matchAll(/^event: chunk\ndata: (.*)$/gm)].map(m => (JSON.parse(m[1]) as { content: string }).content)
  t.ok(chunks.length >= 3, `streamed in ${chunks.length} chunks`)
  t.equal(chunks.join(''), 'Echo: streamed too')
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
  const content = [...text.matchAll(/^data: (.*)$/gm)].map(m => JSON.parse(m[1]) as { type?: string, delta?: string }).map(p => p.type === 'text-delta' ? p.delta : '').join('')
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
  await until('the upstream to see its request closed', () => up.completions[0].aborted)
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
  const content = [...text.matchAll(/^data: (.*)$/gm)].map(m => JSON.parse(m[1]) as { type?: string, delta?: string }).map(p => p.type === 'text-delta' ? p.delta : '').join('')
  t.equal(content, 'streamed by claude')
  t.equal(up.messages[0].body.model, 'claude-sonnet-4-5')
  const health = await s.json('/api/providers/health')
  t.equal(health.body.providers.anthropic.status, 'healthy')
})
