import { Type, type Static } from 'typebox'

export const options = Type.Object({
  /** Limit for each provider's health call and model listing. */
  health_timeout_ms: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  list_timeout_ms: Type.Integer({ minimum: 100, maximum: 60_000, default: 5_000 }),
}, { additionalProperties: false })

export type ProvidersApiOptions = Static<typeof options>
