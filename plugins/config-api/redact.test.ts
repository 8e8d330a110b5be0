// Redaction and the accepted-key check of the config API, as plain functions.
import t from 'tap'
import { redact } from './redact.ts'
import { unknownKeys, describeAllowed } from './allowed.ts'

t.test('every secret-looking value becomes {set}, at any depth', async t => {
  const out = redact({ providers: { a: { api_key: 'sk-1', base_url: 'http://x' }, b: { api_key: '' } }, x: [{ token: 't' }], headers: { Authorization: 'B' } })
  t.same(out, { providers: { a: { api_key: { set: true }, base_url: 'http://x' }, b: { api_key: { set: false } } }, x: [{ token: { set: true } }], headers: { set: true } })
  t.same(redact({ api_key: { set: true, source: 'env' } }), { api_key: { set: true, source: 'env' } }, 'an already-redacted view is kept')
})

t.test('unknown keys are found by dotted path; overrides take any model name', async t => {
  const providers = ['openai', 'local']
  t.same(unknownKeys({ providers: { openai: { api_key: 'k', timeout: 3 } }, models: { overrides: { 'any/model:tag': { context_window: 1 } }, defaults: { chat: 'x' } }, llm_settings: { top_p: 1 } }, providers), [])
  t.same(unknownKeys({ providers: { groq: { api_key: 'k' }, local: { url: 'x' } }, preferences: { default_modle: 1 }, extra: 1, models: { defualts: {} } }, providers).sort(),
    ['extra', 'models.defualts', 'preferences.default_modle', 'providers.groq', 'providers.local.url'])
  t.match(describeAllowed(providers), /providers\.\{openai,local\}\.\{api_key,base_url,timeout\}/)
})

t.test('dotted keys under models.overrides keep the dots of model names', async t => {
  const { patchFromDotted } = await import('./dotted.ts')
  t.same(patchFromDotted('models.overrides.llama3.2.context_window', 8192), { models: { overrides: { 'llama3.2': { context_window: 8192 } } } })
  t.same(patchFromDotted('models.overrides.gpt-4.1', { supports_tools: true }), { models: { overrides: { 'gpt-4.1': { supports_tools: true } } } })
  t.same(patchFromDotted('models.overrides.local/qwen2.5:7b.cost_per_1k_input', 0), { models: { overrides: { 'local/qwen2.5:7b': { cost_per_1k_input: 0 } } } })
  t.same(patchFromDotted('providers.openai.api_key', 'k'), { providers: { openai: { api_key: 'k' } } })
  t.throws(() => patchFromDotted('models.overrides.', 1))
})
