import { Type, type Static } from 'typebox'

export const options = Type.Object({
  base_url: Type.Optional(Type.String({ format: 'uri', description: 'Default address; providers.<name>.base_url and ANTHROPIC_BASE_URL win over it.' })),
  api_key_env: Type.String({ default: 'ANTHROPIC_API_KEY', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
  timeout: Type.Number({ exclusiveMinimum: 0, maximum: 3600, default: 120, description: 'Seconds; providers.<name>.timeout wins.' }),
  max_retries: Type.Integer({ minimum: 0, maximum: 10, default: 2 }),
  /** Messages API requires max_tokens; used when neither the request nor the catalogue says. */
  default_max_tokens: Type.Integer({ minimum: 1, default: 4096 }),
  /** Extended thinking budget in tokens: 0 leaves thinking off, else at least 1024 (the API's minimum). Models that do not think ignore nothing: the API refuses, so set it per instance. */
  thinking_budget_tokens: Type.Union([Type.Literal(0), Type.Integer({ minimum: 1024 })], {
    default: 0,
    description: '0 = extended thinking off; otherwise 1024 or more, the smallest budget the Messages API accepts.',
  }),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
}, { additionalProperties: false })

export type AnthropicOptions = Static<typeof options>
