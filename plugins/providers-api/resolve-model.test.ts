// Model resolution rules (DECISIONS.md "Model ids") over a real registry and config view.
import t from 'tap'
import { createRegistry } from '@agentd/sdk'
import { ConfigView, readSettings } from '../../core/config.ts'
import type { RuntimeConfig } from '../../core/config-schema.ts'
import { DEFAULT_CAPABILITIES } from '@agentd/sdk/kits/provider'
import type { Provider } from '@agentd/sdk/contracts/provider'
import { resolveModel } from './resolve-model.ts'

// What the shipped providers claim by shape (their presets declare it; resolution asks them).
const CLAIMS: Record<string, RegExp> = { openai: /^(?:gpt-|chatgpt-|o[1-4](?:$|-))/i, anthropic: /^claude/i, local: /:/ }

function fakeProvider (id: string, knows: string[] = [], configured = true): Provider {
  return {
    id,
    ...(CLAIMS[id] === undefined ? {} : { claimsModel: (m: string) => CLAIMS[id].test(m) }),
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

t.test('names providers claim: gpt- and o1..o4 -> openai, claude -> anthropic, a colon -> local', async t => {
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
})

t.test('a name whose claiming provider is not loaded goes to the default provider', async t => {
  t.same(pick(scope(['local']), 'claude-opus-4'), ['local', 'claude-opus-4'])
})

t.test('no provider loaded at all is a 503 that says how to add one', async t => {
  const err = t.throws(() => resolveModel(scope([]), 'gpt-4o')) as unknown as { statusCode: number, message: string }
  t.equal(err.statusCode, 503)
  t.match(err.message, /plugins\.json/)
})
