import { Type, type Static } from '@agentd/sdk/typebox'
import { toolLoopOptions } from '@agentd/sdk/kits/tools'

// The same knobs and defaults as the chat plugin's: /v1 runs the same flow.
export const options = Type.Object({
  // agentd's own tools (server-side); tools the client sends are always passed on.
  ...toolLoopOptions,
  /** Time limit of GET /v1/models (each provider lists its models in parallel). */
  list_timeout_ms: Type.Integer({ minimum: 10, default: 10_000 }),
  /** SSE comment line interval that keeps proxies from closing a stream waiting on a slow model or tool. */
  heartbeat_ms: Type.Integer({ minimum: 10, default: 15_000 }),
}, { additionalProperties: false })

export type OpenAIApiOptions = Static<typeof options>
