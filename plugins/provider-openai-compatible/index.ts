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
import { PRESETS, isPresetName, type Preset } from './presets.ts'
import { ToolSupport } from './tool-support.ts'
import { withToolDiscovery } from './discovering.ts'
import { Catalogue, loadCatalogueFile, resolveSettings, type CatalogueEntry, type ResolvedSettings } from '@agentd/sdk/kits/provider'
import { createOpenAICompatibleProvider } from './provider.ts'

export { options }
/** data/config.json sections this plugin reads (shared with every provider plugin). */
export { providerConfig as config } from '@agentd/sdk/kits/provider'

const HERE = path.dirname(fileURLToPath(import.meta.url))

/** What an instance's server address is, and whether it can be asked about models (local servers). */
export function serverOf (config: ConfigView, opts: PluginOptions<OpenAICompatibleOptions>): { baseUrl: string, apiKey: string | undefined, probe: boolean } {
  const { settings, preset } = plan(config, opts)
  return { baseUrl: settings.baseUrl ?? '', apiKey: settings.apiKey, probe: preset.probeModels === true }
}

function plan (config: ConfigView, opts: PluginOptions<OpenAICompatibleOptions>): { id: string, preset: Preset, keyRequired: boolean, settings: ResolvedSettings } {
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
  return { id, preset, keyRequired, settings }
}

/**
 * Builds the provider an instance describes; the plugin registers it, tests call it
 * directly. `support` keeps what was learnt about models' tools (the plugin passes the
 * pooled one, so it outlives a reload); without it the provider starts knowing nothing.
 */
export function buildProvider (config: ConfigView, opts: PluginOptions<OpenAICompatibleOptions>, log: FastifyBaseLogger, support?: ToolSupport): Provider {
  const { id, preset, keyRequired, settings } = plan(config, opts)
  const catalogueFile = opts.catalogue !== undefined
    ? path.resolve(HERE, opts.catalogue)
    : preset.catalogue === undefined ? undefined : path.join(HERE, 'catalogue', preset.catalogue)
  const entries = catalogueFile === undefined ? {} : loadCatalogueFile(catalogueFile).models
  const overrides = (config.fromFile('models.overrides') ?? {}) as Record<string, CatalogueEntry>
  const catalogue = new Catalogue(id, entries, overrides)
  const provider = createOpenAICompatibleProvider({
    id,
    settings,
    keyRequired,
    maxRetries: opts.max_retries ?? 2,
    headers: { ...preset.headers, ...opts.headers },
    listModels: opts.list_models ?? preset.listModels,
    catalogue,
    streamUsage: opts.stream_usage ?? true,
    quirks: preset.quirks,
    healthPath: preset.healthPath,
    claims: preset.claims,
    log,
  })
  const tools = support ?? new ToolSupport({ baseUrl: settings.baseUrl ?? '', apiKey: settings.apiKey, timeoutMs: PROBE_TIMEOUT_MS, probe: preset.probeModels === true })
  return withToolDiscovery(provider, tools, { decides: model => catalogue.sets(model, 'supports_tools') }, log)
}

/** Limit of one question to the server about a model (Ollama's /api/show, LM Studio's /api/v0/models). */
const PROBE_TIMEOUT_MS = 3000

async function providerOpenAICompatible (app: FastifyInstance, opts: PluginOptions<OpenAICompatibleOptions>): Promise<void> {
  const server = serverOf(app.agentConfig, opts)
  // Pooled per instance and server address: what was learnt survives a reload, and a new address starts afresh.
  const support = await app.resources.acquire({
    kind: 'provider-tool-support',
    options: { instance: opts.instance, ...server },
    create: () => new ToolSupport({ ...server, timeoutMs: PROBE_TIMEOUT_MS }),
  })
  app.registry.providers.add(opts.instance, buildProvider(app.agentConfig, opts, app.log.child({ provider: opts.instance }), support))
}

export default fp(providerOpenAICompatible, { name: 'provider-openai-compatible', fastify: '5.x' })
