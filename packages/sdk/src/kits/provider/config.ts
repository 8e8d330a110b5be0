// The config sections provider plugins own in data/config.json: `providers` (keys, base
// URLs, timeouts), `models` (defaults per role, capability overrides), `llm_settings` and
// `preferences`. Every provider plugin, the providers API, chat and agent export these
// same schema objects (`export const config = providerConfig`), so the kernel accepts the
// sections whenever any of them is loaded.
import { Type, type Static } from '@agentd/sdk/typebox'

const ProviderSettings = Type.Object({
  api_key: Type.Optional(Type.String()),
  // http(s) only: a provider's key travels to this address.
  base_url: Type.Optional(Type.String({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/]' })),
  timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3600, description: 'seconds' })),
}, { additionalProperties: false })

/** Capability figures for one model, each optional: a catalogue entry or a `models.overrides` entry. */
export const CapabilityOverride = Type.Object({
  supports_tools: Type.Optional(Type.Boolean()),
  supports_vision: Type.Optional(Type.Boolean()),
  supports_streaming: Type.Optional(Type.Boolean()),
  supports_json_mode: Type.Optional(Type.Boolean()),
  context_window: Type.Optional(Type.Integer({ minimum: 1 })),
  max_output_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  cost_per_1k_input: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
  cost_per_1k_output: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
}, { additionalProperties: false })

export const providerConfig = {
  providers: Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]+$' }), ProviderSettings),
  models: Type.Object({
    defaults: Type.Optional(Type.Object({
      chat: Type.Optional(Type.String()),
      reasoning: Type.Optional(Type.String()),
      extraction: Type.Optional(Type.String()),
    }, { additionalProperties: false })),
    overrides: Type.Optional(Type.Record(Type.String(), CapabilityOverride)),
  }, { additionalProperties: false }),
  llm_settings: Type.Object({
    default_temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    default_max_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    frequency_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
    presence_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
  }, { additionalProperties: false }),
  preferences: Type.Object({
    default_model: Type.Optional(Type.String({ minLength: 1 })),
    default_reasoning_strategy: Type.Optional(Type.String({ minLength: 1 })),
    enable_memory_by_default: Type.Optional(Type.Boolean()),
  }, { additionalProperties: false }),
}

/** data/config.json as these sections type it (every section optional). */
export interface ProviderConfigFile {
  providers?: Static<typeof providerConfig.providers>
  models?: Static<typeof providerConfig.models>
  llm_settings?: Static<typeof providerConfig.llm_settings>
  preferences?: Static<typeof providerConfig.preferences>
}
