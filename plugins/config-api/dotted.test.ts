import t from 'tap'
import { dottedToNested, leafKeys, patchFromDotted } from './dotted.ts'

t.test('dotted keys', async t => {
  t.same(dottedToNested('providers.openai.api_key', 'k'), { providers: { openai: { api_key: 'k' } } })
  t.throws(() => dottedToNested('a.__proto__.b', 1), /not a valid dotted key/)
  t.same(leafKeys({ providers: { openai: { api_key: 'k', base_url: 'u' } }, preferences: { default_model: 'm' } }), ['providers.openai.api_key', 'providers.openai.base_url', 'preferences.default_model'])
})

t.test('a model name keeps its own dots under models.overrides', async t => {
  t.same(patchFromDotted('models.overrides.gpt-4.1.supports_tools', true), { models: { overrides: { 'gpt-4.1': { supports_tools: true } } } })
  t.same(patchFromDotted('models.overrides.llama3.2', { context_window: 8192 }), { models: { overrides: { 'llama3.2': { context_window: 8192 } } } })
})
