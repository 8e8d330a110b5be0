import { Type, type Static } from '@agentd/sdk/typebox'

export const options = Type.Object({
  /** The prompts file, relative to the data dir (AGENT_DATA_DIR) unless absolute. */
  file: Type.String({ default: 'system_prompts.yaml', minLength: 1 }),
  /** Debounce of the file watcher that reloads the file live. */
  reload_debounce_ms: Type.Integer({ minimum: 0, maximum: 10_000, default: 100 }),
}, { additionalProperties: false })

export type PromptsOptions = Static<typeof options>
