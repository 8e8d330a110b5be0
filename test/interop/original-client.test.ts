// What the original system's web client reads and writes, answered: the local server saved
// under `providers.lmstudio`, `available` on each provider of GET /api/providers, and
// `models` on each entry of GET /api/providers/health.
import t from 'tap'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { startKernel } from '../helpers/kernel.ts'
import { providersWithConfigApi } from '../helpers/workspace.ts'
import { startFakeOpenAI } from '../fakes/openai-upstream.ts'

const plugins = providersWithConfigApi()

interface ProviderRow { name: string, status: string, available: boolean, models?: string[], error?: string }

t.test('POST /api/config/update takes providers.lmstudio as the local provider', async t => {
  const fake = await startFakeOpenAI(t, { models: ['qwen3:8b', 'llama3.2:3b'] })
  // Nothing listens on the default address here, so `local` starts unavailable.
  const s = await startKernel(t, { plugins, env: { LOCAL_MODEL_URL: 'http://127.0.0.1:9/v1' } })
  const before = (await s.json('/api/providers')).body.providers.find((p: ProviderRow) => p.name === 'local') as ProviderRow
  t.equal(before.available, false)
  const r = await s.post('/api/config/update', { providers: { lmstudio: { base_url: fake.url } } })
  t.equal(r.status, 200)
  t.same(((await r.json()) as { updated: string[] }).updated, ['providers.local.base_url'])
  const file = JSON.parse(readFileSync(path.join(s.ws.dataDir, 'config.json'), 'utf8'))
  t.equal(file.providers.local.base_url, fake.url, 'written under the provider it names')
  const after = (await s.json('/api/providers')).body.providers.find((p: ProviderRow) => p.name === 'local') as ProviderRow
  t.same(after, { name: 'local', status: 'configured', available: true, models: ['qwen3:8b', 'llama3.2:3b'] })
  const dotted = await s.post('/api/config/update', { key: 'providers.lmstudio.timeout', value: 42 })
  t.equal(dotted.status, 200, 'the dotted form too')
})

t.test('a hand-written providers.lmstudio section in data/config.json configures the local provider', async t => {
  const fake = await startFakeOpenAI(t, { models: ['phi4:14b'] })
  const s = await startKernel(t, { plugins, config: { providers: { lmstudio: { base_url: fake.url } } }, env: { LOCAL_MODEL_URL: 'http://127.0.0.1:9/v1' } })
  const local = (await s.json('/api/providers')).body.providers.find((p: ProviderRow) => p.name === 'local') as ProviderRow
  t.equal(local.available, true)
  t.same(local.models, ['phi4:14b'])
})

t.test('GET /api/providers says available per provider; /api/providers/health lists models per entry', async t => {
  const fake = await startFakeOpenAI(t, { models: ['qwen3:8b'] })
  const s = await startKernel(t, { plugins, env: { LOCAL_MODEL_URL: fake.url } })
  const { body } = await s.json('/api/providers')
  const byName = Object.fromEntries((body.providers as ProviderRow[]).map(p => [p.name, p]))
  t.equal(byName.local.available, true)
  t.equal(byName.openai.available, false, 'no key: not available')
  t.equal(byName.openai.status, 'not_configured')
  const health = (await s.json('/api/providers/health')).body
  t.equal(health.providers.local.status, 'healthy')
  t.same(health.providers.local.models, ['qwen3:8b'])
  t.same(health.providers.openai.models, [], 'not configured: no models, and still an array')

  await fake.close()
  const down = (await s.json('/api/providers/health')).body
  t.equal(down.providers.local.status, 'unhealthy')
  t.same(down.providers.local.models, [], 'a listing that fails is []')
  const row = ((await s.json('/api/providers')).body.providers as ProviderRow[]).find(p => p.name === 'local')
  t.equal(row?.available, false, 'configured but unreachable: not available')
})
