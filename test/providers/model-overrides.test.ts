// Model overrides across real providers: the providers API's resolution over two
// OpenAI-compatible providers built as their plugin builds them.
import t from 'tap'
import { createRegistry } from '@agentd/sdk'
import { ConfigView, readSettings } from '../../core/config.ts'
import { resolveModel } from '../../plugins/providers-api/resolve-model.ts'

const pick = (s: Parameters<typeof resolveModel>[0], spec?: string): [string, string] => { const r = resolveModel(s, spec); return [r.providerId, r.model] }

t.test('a plain-name override changes capabilities only; a provider/model override may route', async t => {
  // Two configured providers built as the plugin builds them; local is the default provider
  // (the default model llama3.2 is in its catalogue), openai comes first in the registry.
  const { buildProvider } = await import('../../plugins/provider-openai-compatible/index.ts')
  const { capturingLogger } = await import('../helpers/log.ts')
  const overrides = { 'mistral-x': { context_window: 5000 }, 'openai/tuned-x': { context_window: 7000 } }
  const env = Object.freeze({ OPENAI_API_KEY: 'sk-resolve-test-0000' })
  const view = new ConfigView(env, readSettings(env, process.cwd()), { models: { overrides } })
  const registry = createRegistry()
  for (const id of ['openai', 'local']) registry.providers.add(id, buildProvider(view, { instance: id, max_retries: 0, stream_usage: true }, capturingLogger().logger))
  t.same(registry.providers.values().map(p => p.status().status), ['configured', 'configured'])
  const s = { registry, agentConfig: view }
  t.same(pick(s, 'mistral-x'), ['local', 'mistral-x'], 'the plain override does not make openai (first) claim it: the default provider serves it')
  t.equal(registry.providers.get('openai').capabilities('mistral-x').context_window, 5000, 'the plain override still applies to openai')
  t.equal(registry.providers.get('local').capabilities('mistral-x').context_window, 5000, 'and to local')
  t.same(pick(s, 'tuned-x'), ['openai', 'tuned-x'], 'a provider/model override routes the bare name to that provider')
  t.equal(registry.providers.get('openai').capabilities('tuned-x').context_window, 7000)
  t.equal(registry.providers.get('local').capabilities('tuned-x').context_window, 4096, 'a qualified override is for its provider only')
})
