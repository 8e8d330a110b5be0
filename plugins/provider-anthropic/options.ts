import { Type, type Static } from '@agentd/sdk/typebox'

export const options = Type.Object({
  base_url: Type.Optional(Type.String({ format: 'uri', description: 'Default address; providers.<name>.base_url and ANTHROPIC_BASE_URL win over it.' })),
  api_key_env: Type.String({ default: 'ANTHROPIC_API_KEY', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
  timeout: Type.Number({ exclusiveMinimum: 0, maximum: 3600, default: 120, description: 'Seconds; providers.<name>.timeout wins.' }),
  max_retries: Type.Integer({ minimum: 0, maximum: 10, default: 2 }),
  /** Messages API requires max_tokens; used when neither the request nor the catalogue says. */
  default_max_tokens: Type.Integer({ minimum: 1, default: 4096 }),
  /**
   * 0 leaves thinking off (not asked for); otherwise it is on. Claude 4.5 and older take it
   * as the budget (at least 1024, the API's minimum); Claude 4.6 and later think adaptively
   * (see thinking.ts), so there it only switches thinking on and thinking_effort sets how much.
   */
  thinking_budget_tokens: Type.Union([Type.Literal(0), Type.Integer({ minimum: 1024 })], {
    default: 0,
    description: '0 = thinking off; otherwise 1024 or more: the budget on Claude 4.5 and older, "on" for the adaptive thinking of Claude 4.6 and later.',
  }),
  thinking_effort: Type.Optional(Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high'), Type.Literal('xhigh'), Type.Literal('max')], {
    description: 'Adaptive thinking (Claude 4.6 and later) with thinking on: output_config.effort. Unset leaves the model\'s default.',
  })),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
}, { additionalProperties: false })

export type AnthropicOptions = Static<typeof options>
