// Response shapes of the providers endpoints (SPEC.md "Providers"), in TypeBox: they are
// validated on the way out and become the OpenAPI at /docs.
import { Type, type TSchema } from '@agentd/sdk/typebox'

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])

export const ProviderListSchema = Type.Object({
  providers: Type.Array(Type.Object({
    name: Type.String(),
    status: Type.Union([Type.Literal('configured'), Type.Literal('not_configured')]),
    available: Type.Boolean({ description: 'configured and its model list could be read' }),
    models: Type.Optional(Type.Array(Type.String(), { description: '[] when not configured' })),
    error: Type.Optional(Type.String({ description: 'what to set (not_configured), or why the model list could not be read' })),
  })),
})

export const ModelSchema = Type.Object({
  id: Type.String({ description: 'provider/model: the id chat and the agent accept as `model`' }),
  name: Type.String(),
  provider: Type.String(),
  context_window: Type.Integer(),
  max_output_tokens: Nullable(Type.Integer()),
  supports_tools: Type.Boolean(),
  supports_vision: Type.Boolean(),
  supports_streaming: Type.Boolean(),
  supports_json_mode: Type.Boolean(),
  cost_per_1k_input: Nullable(Type.Number()),
  cost_per_1k_output: Nullable(Type.Number()),
  known: Type.Boolean({ description: 'false when no catalogue describes the model and the capabilities are defaults' }),
  learnt: Type.Optional(Type.Object({
    supports_tools: Type.Boolean(),
    from: Type.String({ description: 'where: "ollama /api/show", "lm studio /api/v0/models", or "refused tools" (the server answered a request with tools with a 4xx naming them)' }),
    at: Type.String({ description: 'when (ISO 8601)' }),
  }, { description: 'what the provider learnt from its server about a model the catalogue does not describe' })),
})

export const ModelListSchema = Type.Object({
  models: Type.Array(ModelSchema),
  count: Type.Integer(),
  errors: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'providers whose models could not be listed, and why' })),
})

export const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('healthy'), Type.Literal('degraded')]),
  providers: Type.Record(Type.String(), Type.Object({
    status: Type.Union([Type.Literal('healthy'), Type.Literal('unhealthy'), Type.Literal('not_configured')]),
    error: Type.Optional(Type.String()),
    latency_ms: Type.Optional(Type.Number()),
    models: Type.Array(Type.String(), { description: 'the provider\'s model names ([] when they could not be listed)' }),
  })),
})
