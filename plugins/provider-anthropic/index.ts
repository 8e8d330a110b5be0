// Plugin: the Anthropic provider (Messages API through @anthropic-ai/sdk). Loads without a
// key and reports not_configured until ANTHROPIC_API_KEY or providers.anthropic.api_key is set.
import fp from 'fastify-plugin'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { ConfigView } from '@agentd/sdk'
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { PluginOptions } from '@agentd/sdk'
import { Catalogue, loadCatalogueFile, resolveSettings, type CatalogueEntry } from '@agentd/sdk/kits/provider'
import { options, type AnthropicOptions } from './options.ts'
import { createAnthropicProvider } from './provider.ts'

export { options }
/** data/config.json sections this plugin reads (shared with every provider plugin). */
export { providerConfig as config } from '@agentd/sdk/kits/provider'

const CATALOGUE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'catalogue.json')

export function buildProvider (config: ConfigView, opts: PluginOptions<AnthropicOptions>, log: FastifyBaseLogger): Provider {
  const id = opts.instance
  const settings = resolveSettings(config, {
    id,
    keyEnv: opts.api_key_env,
    keyRequired: true,
    urlEnv: 'ANTHROPIC_BASE_URL',
    defaultUrl: opts.base_url ?? 'https://api.anthropic.com',
    defaultTimeout: opts.timeout,
  })
  const overrides = (config.fromFile('models.overrides') ?? {}) as Record<string, CatalogueEntry>
  return createAnthropicProvider({
    id,
    settings,
    maxRetries: opts.max_retries,
    defaultMaxTokens: opts.default_max_tokens,
    thinking: { budgetTokens: opts.thinking_budget_tokens, ...(opts.thinking_effort === undefined ? {} : { effort: opts.thinking_effort }) },
    headers: opts.headers ?? {},
    catalogue: new Catalogue(id, loadCatalogueFile(CATALOGUE).models, overrides),
    log,
  })
}

async function providerAnthropic (app: FastifyInstance, opts: PluginOptions<AnthropicOptions>): Promise<void> {
  app.registry.providers.add(opts.instance, buildProvider(app.agentConfig, opts, app.log.child({ provider: opts.instance })))
}

export default fp(providerAnthropic, { name: 'provider-anthropic', fastify: '5.x' })
