// Schemas of the configuration layers the kernel reads: the runtime config file
// (data/config.json) and plugins.json. Every layer is validated before use.
import { Type, type Static } from 'typebox'

const ProviderSettings = Type.Object({
  api_key: Type.Optional(Type.String()),
  base_url: Type.Optional(Type.String({ format: 'uri' })),
  timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3600, description: 'seconds' })),
}, { additionalProperties: false })

const CapabilityOverride = Type.Object({
  supports_tools: Type.Optional(Type.Boolean()),
  supports_vision: Type.Optional(Type.Boolean()),
  supports_streaming: Type.Optional(Type.Boolean()),
  supports_json_mode: Type.Optional(Type.Boolean()),
  context_window: Type.Optional(Type.Integer({ minimum: 1 })),
  max_output_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  cost_per_1k_input: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
  cost_per_1k_output: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
}, { additionalProperties: false })

export const RuntimeConfigSchema = Type.Object({
  providers: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]+$' }), ProviderSettings)),
  models: Type.Optional(Type.Object({
    defaults: Type.Optional(Type.Object({
      chat: Type.Optional(Type.String()),
      reasoning: Type.Optional(Type.String()),
      extraction: Type.Optional(Type.String()),
    }, { additionalProperties: false })),
    overrides: Type.Optional(Type.Record(Type.String(), CapabilityOverride)),
  }, { additionalProperties: false })),
  llm_settings: Type.Optional(Type.Object({
    default_temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    default_max_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    frequency_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
    presence_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
  }, { additionalProperties: false })),
  preferences: Type.Optional(Type.Object({
    default_model: Type.Optional(Type.String({ minLength: 1 })),
    default_reasoning_strategy: Type.Optional(Type.String({ minLength: 1 })),
    enable_memory_by_default: Type.Optional(Type.Boolean()),
  }, { additionalProperties: false })),
}, { additionalProperties: false })

export type RuntimeConfig = Static<typeof RuntimeConfigSchema>

export const PluginEntrySchema = Type.Object({
  name: Type.String({ pattern: '^[A-Za-z0-9_.@/-]+$', description: 'instance name, unique in the file' }),
  module: Type.String({ minLength: 1, description: 'relative path (to plugins.json) or npm package name' }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  options: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  dependencies: Type.Optional(Type.Array(Type.String())),
}, { additionalProperties: false })

export const PluginsFileSchema = Type.Object({
  plugins: Type.Array(PluginEntrySchema),
}, { additionalProperties: false })

export type PluginEntry = Static<typeof PluginEntrySchema>
export type PluginsFile = Static<typeof PluginsFileSchema>
