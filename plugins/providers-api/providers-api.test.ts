// The providers endpoints on a real kernel, with fake upstreams on loopback.
import t from 'tap'
import { startKernel } from '../../test/helpers/kernel.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'
import { startFakeOpenAI } from '../../test/fakes/openai-upstream.ts'
import { startSilentServer } from '../../test/helpers/silent-server.ts'
import { until } from '../../test/helpers/poll.ts'

const compat = repoPlugin('provider-openai-compatible')
const api = { name: 'providers-api', module: repoPlugin('providers-api') }

t.test('providers without keys load and are listed as not_configured with what to set', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'openai', module: compat }, { name: 'openrouter', module: compat }, api] })
  const { status, body } = await s.json('/api/providers')
  t.equal(status, 200)
  t.same(body.providers.map((p: { name: string, status: string }) => [p.name, p.status]), [['openai', 'not_configured'], ['openrouter', 'not_configured']])
  t.match(body.providers[0].error, /OPENAI_API_KEY or providers\.openai\.api_key/)
  t.match(body.providers[1].error, /OPENROUTER_API_KEY/)
})

t.test('a configured provider lists its models; local lists its server\'s', async t => {
  const fake = await startFakeOpenAI(t, { models: ['llama3.2:latest', 'qwen3:8b'] })
  const s = await startKernel(t, {
    plugins: [{ name: 'openai', module: compat }, { name: 'local', module: compat }, api],
    env: { OPENAI_API_KEY: 'sk-test-123456789', LOCAL_MODEL_URL: fake.url },
  })
  const { body } = await s.json('/api/providers')
  const byName = Object.fromEntries(body.providers.map((p: { name: string }) => [p.name, p]))
  t.equal(byName.openai.status, 'configured')
  t.ok(byName.openai.models.includes('gpt-4o-mini'))
  t.same(byName.local.models, ['llama3.2:latest', 'qwen3:8b'])
})

t.test('GET /api/providers/models gives capabilities, filtered by ?provider=', async t => {
  const fake = await startFakeOpenAI(t, { models: ['llama3.2:latest', 'odd-model'] })
  const s = await startKernel(t, {
    plugins: [{ name: 'openai', module: compat }, { name: 'local', module: compat }, api],
    env: { LOCAL_MODEL_URL: fake.url },
  })
  const all = await s.json('/api/providers/models')
  t.equal(all.status, 200)
  t.equal(all.body.count, all.body.models.length)
  const mini = all.body.models.find((m: { name: string }) => m.name === 'gpt-4o-mini')
  t.match(mini, { provider: 'openai', context_window: 128000, supports_tools: true, supports_vision: true, supports_streaming: true, known: true })
  t.ok(mini.cost_per_1k_input > 0)
  const local = await s.json('/api/providers/models?provider=local')
  t.same(local.body.models.map((m: { name: string, known: boolean }) => [m.name, m.known]), [['llama3.2:latest', true], ['odd-model', false]])
  const odd = local.body.models[1]
  // Nobody describes it and the server cannot tell: tools are offered (until the server refuses them).
  t.match(odd, { context_window: 4096, supports_tools: true, cost_per_1k_input: null })
  t.notOk('learnt' in odd, 'nothing learnt')
  const missing = await s.json('/api/providers/models?provider=nope')
  t.equal(missing.status, 404)
  t.match(missing.body.error, /openai, local/)
})

t.test('health: real calls in parallel; degraded when one fails; not_configured does not degrade', async t => {
  const up = await startFakeOpenAI(t)
  const s = await startKernel(t, {
    plugins: [{ name: 'openai', module: compat }, { name: 'local', module: compat }, { name: 'groq', module: compat, options: { base_url: up.url, api_key_env: 'GROQ_API_KEY' } }, api],
    env: { LOCAL_MODEL_URL: up.url, GROQ_API_KEY: 'gsk_123456789' },
  })
  const ok = await s.json('/api/providers/health')
  t.equal(ok.body.status, 'healthy')
  t.equal(ok.body.providers.openai.status, 'not_configured')
  t.equal(ok.body.providers.local.status, 'healthy')
  t.ok(up.requests.filter(r => r.path.endsWith('/models')).length >= 2, 'each provider made a real call')
  await up.close()
  const bad = await s.json('/api/providers/health')
  t.equal(bad.body.status, 'degraded')
  t.equal(bad.body.providers.local.status, 'unhealthy')
  t.match(bad.body.providers.local.error, /Cannot reach local/)
})

t.test('health of a hung upstream answers within the health timeout', async t => {
  const hang = await startSilentServer(t)
  const s = await startKernel(t, {
    plugins: [{ name: 'local', module: compat }, { ...api, options: { health_timeout_ms: 300 } }],
    env: { LOCAL_MODEL_URL: hang.url('/v1') },
  })
  // The upstream never answers: an answer at all is the health timeout's.
  const { body } = await s.json('/api/providers/health')
  t.equal(body.status, 'degraded')
  t.match(body.providers.local.error, /within 0.3 s/)
})

t.test('a model listing that hangs is a 504 naming the provider for ?provider=, and an error entry in the lists', async t => {
  const hang = await startSilentServer(t)
  const s = await startKernel(t, {
    plugins: [{ name: 'local', module: compat }, { ...api, options: { list_timeout_ms: 300 } }],
    env: { LOCAL_MODEL_URL: hang.url('/v1') },
  })
  const one = await s.json('/api/providers/models?provider=local')
  t.equal(one.status, 504)
  t.equal(one.body.code, 'AGENT_ERR_PROVIDER_TIMEOUT')
  t.match(one.body.error, /local model listing did not answer within 0.3 s/)
  const all = await s.json('/api/providers/models')
  t.equal(all.status, 200)
  t.match(all.body.errors.local, /within 0.3 s/)
  const list = await s.json('/api/providers')
  t.match(list.body.providers[0], { name: 'local', status: 'configured', error: /within 0.3 s/ })
})

t.test('health checks run in parallel: both calls start before either times out', async t => {
  const hang = await startSilentServer(t)
  const url = hang.url('/v1')
  // A time limit far longer than the test: one after the other, the second call could only
  // start when the first gave up, so both arriving while neither can have given up is the proof.
  const s = await startKernel(t, {
    plugins: [{ name: 'local', module: compat }, { name: 'vllm', module: compat, options: { base_url: url } }, { ...api, options: { health_timeout_ms: 60_000 } }],
    env: { LOCAL_MODEL_URL: url },
  })
  const health = s.json('/api/providers/health')
  // Each provider's health call and its model listing (the entry's `models`) run at once: 4 calls.
  await until('every health call to reach the upstream', () => hang.arrivals.length === 4, 30_000)
  await hang.close() // both fail now, as connections reset
  const { body } = await health
  t.same([body.providers.local.status, body.providers.vllm.status], ['unhealthy', 'unhealthy'])
  t.equal(hang.arrivals.length, 4, 'each provider made its calls (health and its model listing), all at once')
})
