import { Type, type Static } from 'typebox'

const Names = Type.Union([Type.Array(Type.String({ minLength: 1 })), Type.Null()], { default: null })

export const options = Type.Object({
  /** Rounds of tool calls before the model must answer without tools (SPEC.md: 10). */
  max_tool_rounds: Type.Integer({ minimum: 0, maximum: 50, default: 10 }),
  /** Tool names the model may use; null: every tool of every source. */
  allowed_tools: Names,
  /** Tool names never offered. */
  blocked_tools: Names,
  /** Offer tools at all. */
  enable_tools: Type.Boolean({ default: true }),
  /** Time limit of one tool call. */
  tool_timeout_ms: Type.Integer({ minimum: 10, maximum: 600_000, default: 30_000 }),
  /** Idle time after which a session is forgotten. */
  session_ttl_seconds: Type.Integer({ minimum: 1, default: 7 * 24 * 3600 }),
  /** In-process store only: most sessions kept (least recently used go first). */
  max_sessions: Type.Integer({ minimum: 1, default: 1000 }),
  /** Messages kept per session (older whole turns are dropped). */
  max_session_messages: Type.Integer({ minimum: 2, default: 200 }),
  /** SSE comment line (`: ping`) interval that keeps proxies from closing a quiet stream. */
  heartbeat_ms: Type.Integer({ minimum: 10, default: 15_000 }),
  /** Time limit of each memory call (store, recall) on the request path. */
  memory_timeout_ms: Type.Integer({ minimum: 10, default: 5000 }),
}, { additionalProperties: false })

export type ChatOptions = Static<typeof options>
