// The runtime configuration as it is in effect: data/config.json over the environment
// over the defaults (SPEC.md "Configuration layers"), with each provider's settings as the
// provider resolved them. Secrets are redacted by the caller.
import type { FastifyInstance } from 'fastify'
import type { ProviderConfigFile } from '@agentd/sdk/kits/provider'
import { safeUrl } from '@agentd/sdk/kits/provider'

export const LLM_DEFAULTS = { default_temperature: 0.7, default_max_tokens: 4096, top_p: 1.0, frequency_penalty: 0.0, presence_penalty: 0.0 }

export function effectiveConfig (app: FastifyInstance): Record<string, unknown> {
  const cfg = app.agentConfig
  const file = cfg.file as ProviderConfigFile
  const providers: Record<string, unknown> = {}
  // Providers named in the file but not loaded are shown too (their key only as set/unset).
  for (const [id, s] of Object.entries(file.providers ?? {})) providers[id] = { ...s, base_url: safeUrl(s.base_url), loaded: false }
  for (const p of app.registry.providers.values()) {
    providers[p.id] = { ...(p.settings?.() ?? { api_key: { set: typeof file.providers?.[p.id]?.api_key === 'string' } }), status: p.status().status, loaded: true }
  }
  return {
    providers,
    models: {
      defaults: { ...file.models?.defaults },
      overrides: { ...file.models?.overrides },
    },
    llm_settings: { ...LLM_DEFAULTS, ...file.llm_settings },
    preferences: {
      default_model: cfg.lookup('preferences.default_model', 'DEFAULT_MODEL', 'llama3.2'),
      default_reasoning_strategy: file.preferences?.default_reasoning_strategy ?? 'auto',
      enable_memory_by_default: file.preferences?.enable_memory_by_default ?? true,
    },
  }
}
