// The tool loop's knobs, as plugin options: every plugin that runs a chat flow (chat, the
// OpenAI-compatible API) spreads these into its options schema, so they mean the same and
// default the same everywhere.
import { Type } from '@agentd/sdk/typebox'

const Names = Type.Union([Type.Array(Type.String({ minLength: 1 })), Type.Null()], { default: null })

export const toolLoopOptions = {
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
  /** Time limit of each memory call (store, recall) on the request path. */
  memory_timeout_ms: Type.Integer({ minimum: 10, default: 5000 }),
}
