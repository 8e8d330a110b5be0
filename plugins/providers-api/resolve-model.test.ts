// Model resolution rules (DECISIONS.md "Model ids") over a real registry and config view.
import t from 'tap'
import { createRegistry } from '@agentd/sdk'
import { ConfigView, readSettings } from '../../core/config.ts'
import type { RuntimeConfig } from '../../core/config-schema.ts'
import { DEFAULT_CAPABILITIES } from '@agentd/sdk/kits/provider'
import type { Provider } from '@agentd/sdk/contracts/provider'
import { resolveModel } from './resolve-model.ts'

function fakeProvider (id: string, knows: string[] = [], configured = true): Provider {
  return {
    id,
    status: () => configured ? { status: 'configured' } : { status: 'not_configured', error: 'set a key' },
    listModels: async () => [],
    capabilities: () => ({ ...DEFAULT_CAPABILITIES }),
    knowsModel: m => knows.includes(m),
    complete: async () => { throw new Error('not used') },
    stream: async function * () { /* not used */ },
    health: async () => ({ status: 'healthy' }),
  }
}

function scope (ids: Array<Provider | string>, env: Record<string, string> = {}, file: RuntimeConfig = {}) {
  const registry = createRegistry()
  for (const p of ids) { const prov = typeof p === 'string' ? fakeProvider(p) : p; registry.providers.add(prov.id, prov) }
  const e = Object.freeze({ ...env })
  return { registry, agentConfig: new ConfigView(e, readSettings(e, process.cwd()), file) }
}

const pick = (s: ReturnType<typeof scope>, spec?: string) => { const r = resolveModel(s, spec); return [r.providerId, r.model] }

t.test('provider/model is explicit; the rest after the first slash is the model', async t => {
  const s = scope(['openai', 'local', 'openrouter'])
  t.same(pick(s, 'openai/gpt-4o-mini'), ['openai', 'gpt-4o-mini'])
  t.same(pick(s, 'local/llama3.2'), ['local', 'llama3.2'])
  t.same(pick(s, 'openrouter/anthropic/claude-sonnet-4'), ['openrouter', 'anthropic/claude-sonnet-4'])
})

t.test('a bare name the catalogue knows goes to that provider, configured ones first', async t => {
  const s = scope([fakeProvider('openrouter', ['mistral-x'], false), fakeProvider('groq', ['mistral-x']), 'local'])
  t.same(pick(s, 'mistral-x'), ['groq', 'mistral-x'])
  const s2 = scope([fakeProvider('openrouter', ['meta-llama/llama-3.3-70b-instruct']), 'local'])
  t.same(pick(s2, 'meta-llama/llama-3.3-70b-instruct'), ['openrouter', 'meta-llama/llama-3.3-70b-instruct'], 'a catalogue id with a slash')
})

t.test('name rules: gpt- and o1..o4 -> openai, claude -> anthropic, a colon -> local', async t => {
  const s = scope(['local', 'openai', 'anthropic'])
  t.same(pick(s, 'gpt-4.1-mini'), ['openai', 'gpt-4.1-mini'])
  t.same(pick(s, 'o3'), ['openai', 'o3'])
  t.same(pick(s, 'o4-mini'), ['openai', 'o4-mini'])
  t.same(pick(s, 'claude-sonnet-4-5'), ['anthropic', 'claude-sonnet-4-5'])
  t.same(pick(s, 'qwen3:8b'), ['local', 'qwen3:8b'])
})

t.test('anything else goes to the default provider; no spec means the default model', async t => {
  const s = scope(['openai', 'local'])
  t.same(pick(s, 'mistral'), ['local', 'mistral'])
  t.same(pick(s), ['local', 'llama3.2'], 'DEFAULT_MODEL falls back to llama3.2 on local')
  const s2 = scope(['openai', 'local'], { DEFAULT_MODEL: 'gpt-4o' })
  t.same(pick(s2), ['openai', 'gpt-4o'])
  t.same(pick(s2, 'some-model'), ['openai', 'some-model'], 'the default model\'s provider is the default provider')
  const s3 = scope(['openai', 'local'], { DEFAULT_MODEL: 'gpt-4o' }, { preferences: { default_model: 'local/qwen3' } })
  t.same(pick(s3), ['local', 'qwen3'], 'data/config.json wins over the environment')
})

t.test('an unknown provider is a 400 that lists the configured ones', async t => {
  const s = scope(['openai', fakeProvider('local', [], false)])
  const err = t.throws(() => resolveModel(s, 'nope/some-model')) as unknown as { statusCode: number, message: string }
  t.equal(err.statusCode, 400)
  t.match(err.message, /"nope"/)
  t.match(err.message, /openai \(configured\), local \(not_configured\)/)
  const rule = t.throws(() => resolveModel(scope(['local']), 'claude-opus-4')) as unknown as { statusCode: number, message: string }
  t.equal(rule.statusCode, 400)
  t.match(rule.message, /provider "anthropic" is not loaded/)
})

t.test('no provider loaded at all is a 503 that says how to add one', async t => {
  const err = t.throws(() => resolveModel(scope([]), 'gpt-4o')) as unknown as { statusCode: number, message: string }
  t.equal(err.statusCode, 503)
  t.match(err.message, /plugins\.json/)
})

t.test('a plain-name override changes capabilities only; a provider/model override may route', async t => {
  // Two configured providers built as the plugin builds them; local is the default provider
  // (the default model llama3.2 is in its catalogue), openai comes first in the registry.
  const { buildProvider } = await import('../provider-openai-compatible/index.ts')
  const { captureLogger } = await import('../../test/helpers/log.ts')
  const overrides = { 'mistral-x': { context_window: 5000 }, 'openai/tuned-x': { context_window: 7000 } }
  const env = Object.freeze({ OPENAI_API_KEY: 'sk-resolve-test-0000' })
  const view = new ConfigView(env, readSettings(env, process.cwd()), { models: { overrides } })
  const registry = createRegistry()
  for (const id of ['openai', 'local']) registry.providers.add(id, buildProvider(view, { instance: id, max_retries: 0, stream_usage: true }, captureLogger([])))
  t.same(registry.providers.values().map(p => p.status().status), ['configured', 'configured'])
  const s = { registry, agentConfig: view }
  t.same(pick(s, 'mistral-x'), ['local', 'mistral-x'], 'the plain override does not make openai (first) claim it: the default provider serves it')
  t.equal(registry.providers.get('openai').capabilities('mistral-x').context_window, 5000, 'the plain override still applies to openai')
  t.equal(registry.providers.get('local').capabilities('mistral-x').context_window, 5000, 'and to local')
  t.same(pick(s, 'tuned-x'), ['openai', 'tuned-x'], 'a provider/model override routes the bare name to that provider')
  t.equal(registry.providers.get('openai').capabilities('tuned-x').context_window, 7000)
  t.equal(registry.providers.get('local').capabilities('tuned-x').context_window, 4096, 'a qualified override is for its provider only')
})
