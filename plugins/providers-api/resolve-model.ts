// Model resolution (DECISIONS.md "Model ids"): `provider/model` is explicit; a bare name
// is resolved by the model catalogues, then by the names providers claim by their shape
// (each provider declares its own: `gpt-`, `o1`..`o4` the openai preset, `claude`
// anthropic, names with `:` the local preset), then the default provider. A model id
// naming a provider that is not loaded is a 400 that lists the loaded ones.
// It reads only the generation's registry and config. Other plugins reach it through the
// `modelResolvers` service (contracts/models.ts) that `createModelResolver` builds.
import type { Registry } from '@agentd/sdk'
import type { ConfigView } from '@agentd/sdk'
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { ModelResolver } from '@agentd/sdk/contracts/models'
import { ProviderErrors, tag } from '@agentd/sdk/kits/provider'

export interface ResolvedModel {
  provider: Provider
  /** The provider's id (its name in plugins.json). */
  providerId: string
  /** The model name as the provider knows it (no `provider/` prefix). */
  model: string
}

/** What resolution needs from a generation; a FastifyInstance fits. */
export interface ResolveScope { registry: Registry, agentConfig: ConfigView }

export const FALLBACK_DEFAULT_MODEL = 'llama3.2'

/** data/config.json `preferences.default_model`, then DEFAULT_MODEL, then llama3.2. */
export function defaultModel (scope: ResolveScope): string {
  return scope.agentConfig.lookup('preferences.default_model', 'DEFAULT_MODEL', FALLBACK_DEFAULT_MODEL) ?? FALLBACK_DEFAULT_MODEL
}

/** "openai (configured), local (not_configured)": what a 400 lists. */
export function describeProviders (registry: Registry): string {
  const list = registry.providers.values().map(p => `${p.id} (${p.status().status})`)
  return list.length === 0 ? 'none (add a provider plugin to plugins.json)' : list.join(', ')
}

function unknownProvider (registry: Registry, message: string): Error {
  return tag(new ProviderErrors.UNKNOWN_PROVIDER(`${message} Configured providers: ${describeProviders(registry)}.`), { provider: '' })
}

function byCatalogue (registry: Registry, model: string): Provider | undefined {
  const knowing = registry.providers.values().filter(p => p.knowsModel?.(model) === true)
  return knowing.find(p => p.status().status === 'configured') ?? knowing[0]
}

function byClaim (registry: Registry, model: string): Provider | undefined {
  const claiming = registry.providers.values().filter(p => p.claimsModel?.(model) === true)
  return claiming.find(p => p.status().status === 'configured') ?? claiming[0]
}

/** The provider bare names fall back to: the default model's provider, else `local`, else the first configured, else the first. */
export function defaultProvider (scope: ResolveScope): Provider | undefined {
  const { registry } = scope
  const dflt = defaultModel(scope)
  const slash = dflt.indexOf('/')
  const explicit = slash > 0 ? registry.providers.find(dflt.slice(0, slash)) : undefined
  const fromDefault = explicit ?? byCatalogue(registry, dflt) ?? byClaim(registry, dflt)
  if (fromDefault !== undefined) return fromDefault
  const all = registry.providers.values()
  return registry.providers.find('local') ?? all.find(p => p.status().status === 'configured') ?? all[0]
}

/**
 * Resolves a model id (or the default model when `spec` is empty) to a provider and the
 * provider's own model name. Throws 400 for an unknown provider, 503 when none is loaded.
 * It does not check that the provider is configured: calling it gives the 503 that says which key to set.
 */
export function resolveModel (scope: ResolveScope, spec?: string | null): ResolvedModel {
  const { registry } = scope
  const id = (spec ?? '').trim() === '' ? defaultModel(scope) : (spec as string).trim()
  if (registry.providers.size === 0) {
    throw tag(new ProviderErrors.NOT_CONFIGURED('No model provider is loaded: add one (provider-openai-compatible, provider-anthropic) to plugins.json.'), { provider: '' })
  }
  const slash = id.indexOf('/')
  if (slash > 0) {
    const prefix = id.slice(0, slash)
    const rest = id.slice(slash + 1)
    const p = registry.providers.find(prefix)
    if (p !== undefined) {
      if (rest === '') throw unknownProvider(registry, `Model id "${id}" names provider "${prefix}" but no model after the slash.`)
      return { provider: p, providerId: p.id, model: rest }
    }
  }
  const known = byCatalogue(registry, id)
  if (known !== undefined) return { provider: known, providerId: known.id, model: id }
  const claimed = byClaim(registry, id)
  if (claimed !== undefined) return { provider: claimed, providerId: claimed.id, model: id }
  if (slash > 0) {
    throw unknownProvider(registry, `Model id "${id}" names provider "${id.slice(0, slash)}", which is not loaded. Write provider/model with one of the configured providers.`)
  }
  const p = defaultProvider(scope)!
  return { provider: p, providerId: p.id, model: id }
}

/**
 * The `modelResolvers` service: resolution as above, with each provider wrapped once (by
 * `wrap`, the middleware) and the wrapper kept for the generation, whose providers are
 * fixed once it is ready.
 */
export function createModelResolver (scope: ResolveScope, wrap: (p: Provider) => Provider): ModelResolver {
  const wrapped = new Map<Provider, Provider>()
  const wrappedOf = (p: Provider): Provider => {
    let w = wrapped.get(p)
    if (w === undefined) { w = wrap(p); wrapped.set(p, w) }
    return w
  }
  return {
    defaultModel: () => defaultModel(scope),
    resolve: (spec) => {
      const { provider, providerId, model } = resolveModel(scope, spec)
      return { provider: wrappedOf(provider), providerId, model, id: `${providerId}/${model}`, capabilities: provider.capabilities(model) }
    },
  }
}
