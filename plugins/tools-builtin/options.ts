import { Type, type Static } from '@agentd/sdk/typebox'

export const options = Type.Object({
  /** Zone used when the model does not name one. */
  default_timezone: Type.String({ default: 'UTC' }),
  /** Which tools to offer; all by default. */
  tools: Type.Array(Type.Union([Type.Literal('current_time'), Type.Literal('calculate')]), { default: ['current_time', 'calculate'] }),
}, { additionalProperties: false })

export type BuiltinToolsOptions = Static<typeof options>
