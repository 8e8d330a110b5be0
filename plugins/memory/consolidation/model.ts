// Which model extraction asks: the memory setting `extraction_model`, else data/config.json
// `models.defaults.extraction`, else the chat default (`preferences.default_model`, then
// DEFAULT_MODEL, then llama3.2). `provider/model` names its provider; a bare name goes to
// the provider whose catalogue knows it, else to the default model's provider, else `local`,
// else the first configured one.
// TODO(provider kit): this follows providers-api's resolveModel, which plugins cannot import;
// use the kit's resolver once resolveModel moves into @agentd/sdk/kits/provider.
import type { ConfigView, Registry } from '@agentd/sdk'
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { ModelChoice } from './llm-extractor.ts'

export function extractionModelId (config: ConfigView, setting: string | null): string {
  const chat = config.lookup('preferences.default_model', 'DEFAULT_MODEL', 'llama3.2') ?? 'llama3.2'
  return (setting ?? '').trim() || (config.lookup('models.defaults.extraction') ?? '').trim() || chat
}

export function chooseModel (registry: Registry, config: ConfigView, setting: string | null): ModelChoice {
  const id = extractionModelId(config, setting)
  const providers = registry.providers.values()
  if (providers.length === 0) throw new Error('no model provider is loaded (add provider-openai-compatible or provider-anthropic to plugins.json)')
  const slash = id.indexOf('/')
  if (slash > 0) {
    const p = registry.providers.find(id.slice(0, slash))
    if (p !== undefined) return { provider: p, model: id.slice(slash + 1), id }
  }
  const configured = (ps: Provider[]): Provider | undefined => ps.find(p => p.status().status === 'configured') ?? ps[0]
  const knowing = configured(providers.filter(p => p.knowsModel?.(id) === true))
  if (knowing !== undefined) return { provider: knowing, model: id, id: `${knowing.id}/${id}` }
  if (slash > 0) throw new Error(`model "${id}" names provider "${id.slice(0, slash)}", which is not loaded`)
  const p = registry.providers.find('local') ?? configured(providers)
  if (p === undefined) throw new Error('no model provider is loaded')
  return { provider: p, model: id, id: `${p.id}/${id}` }
}
