import { Type, type Static } from '@agentd/sdk/typebox'

export const options = Type.Object({
  /** Limit for each provider's health call and model listing. */
  health_timeout_ms: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  list_timeout_ms: Type.Integer({ minimum: 100, maximum: 60_000, default: 5_000 }),
  /**
   * The provider middleware's limit for each model call made through the resolver: a
   * completion's whole time, a stream's time between two chunks. A backstop for providers
   * without their own deadline (ours have theirs, from the provider's `timeout` setting).
   */
  call_timeout_seconds: Type.Integer({ minimum: 1, maximum: 3600, default: 600 }),
}, { additionalProperties: false })

export type ProvidersApiOptions = Static<typeof options>
