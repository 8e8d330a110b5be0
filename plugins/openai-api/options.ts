import { Type, type Static } from 'typebox'

const Names = Type.Union([Type.Array(Type.String({ minLength: 1 })), Type.Null()], { default: null })

// The same knobs and defaults as the chat plugin's: /v1 runs the same flow.
export const options = Type.Object({
  /** Rounds of agentd's own tool calls before the model must answer without tools. */
  max_tool_rounds: Type.Integer({ minimum: 0, maximum: 50, default: 10 }),
  /** agentd tool names the model may use; null: every tool of every source. */
  allowed_tools: Names,
  /** agentd tool names never offered. */
  blocked_tools: Names,
  /** Offer agentd's own tools (server-side) at all; tools the client sends are always passed on. */
  enable_tools: Type.Boolean({ default: true }),
  /** Time limit of one agentd tool call. */
  tool_timeout_ms: Type.Integer({ minimum: 10, maximum: 600_000, default: 30_000 }),
  /** Time limit of each memory call (store, recall) on the request path. */
  memory_timeout_ms: Type.Integer({ minimum: 10, default: 5000 }),
  /** Time limit of GET /v1/models (each provider lists its models in parallel). */
  list_timeout_ms: Type.Integer({ minimum: 10, default: 10_000 }),
  /** SSE comment line interval that keeps proxies from closing a stream waiting on a slow model or tool. */
  heartbeat_ms: Type.Integer({ minimum: 10, default: 15_000 }),
}, { additionalProperties: false })

export type OpenAIApiOptions = Static<typeof options>
