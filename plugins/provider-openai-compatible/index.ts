// Plugin: a provider for any OpenAI-compatible server. One module, loaded once per
// instance in plugins.json: `openai`, `openrouter` and `local` are presets; any other name
// (groq, together, deepseek, a vLLM on another box) needs only `base_url` and `api_key_env`.
// A provider without its key still loads and reports `not_configured`.
import fp from 'fastify-plugin'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { ConfigView } from '@agentd/sdk'
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { PluginOptions } from '@agentd/sdk'
import { options, type OpenAICompatibleOptions } from './options.ts'
import { PRESETS, isPresetName } from './presets.ts'
import { Catalogue, loadCatalogueFile, resolveSettings, type CatalogueEntry } from '@agentd/sdk/kits/provider'
import { createOpenAICompatibleProvider } from './provider.ts'

export { options }
/** data/config.json sections this plugin reads (shared with every provider plugin). */
export { providerConfig as config } from '@agentd/sdk/kits/provider'

const HERE = path.dirname(fileURLToPath(import.meta.url))

/** Builds the provider an instance describes; the plugin registers it, tests call it directly. */
export function buildProvider (config: ConfigView, opts: PluginOptions<OpenAICompatibleOptions>, log: FastifyBaseLogger): Provider {
  const id = opts.instance
  const presetName = opts.preset ?? (isPresetName(id) ? id : 'custom')
  const preset = PRESETS[presetName]
  const keyRequired = opts.key_required ?? (presetName === 'custom' ? opts.api_key_env !== undefined : preset.keyRequired)
  const settings = resolveSettings(config, {
    id,
    aliases: preset.configAliases,
    keyEnv: opts.api_key_env ?? preset.keyEnv,
    keyRequired,
    urlEnv: opts.base_url_env ?? preset.urlEnv,
    defaultUrl: opts.base_url ?? preset.defaultUrl,
    timeoutEnv: opts.timeout_env ?? preset.timeoutEnv,
    defaultTimeout: opts.timeout ?? preset.timeout,
  })
  const catalogueFile = opts.catalogue !== undefined
    ? path.resolve(HERE, opts.catalogue)
    : preset.catalogue === undefined ? undefined : path.join(HERE, 'catalogue', preset.catalogue)
  const entries = catalogueFile === undefined ? {} : loadCatalogueFile(catalogueFile).models
  const overrides = (config.fromFile('models.overrides') ?? {}) as Record<string, CatalogueEntry>
  return createOpenAICompatibleProvider({
    id,
    settings,
    keyRequired,
    maxRetries: opts.max_retries ?? 2,
    headers: { ...preset.headers, ...opts.headers },
    listModels: opts.list_models ?? preset.listModels,
    catalogue: new Catalogue(id, entries, overrides),
    streamUsage: opts.stream_usage ?? true,
    quirks: preset.quirks,
    healthPath: preset.healthPath,
    log,
  })
}

async function providerOpenAICompatible (app: FastifyInstance, opts: PluginOptions<OpenAICompatibleOptions>): Promise<void> {
  app.registry.providers.add(opts.instance, buildProvider(app.agentConfig, opts, app.log.child({ provider: opts.instance })))
}

export default fp(providerOpenAICompatible, { name: 'provider-openai-compatible', fastify: '5.x' })
