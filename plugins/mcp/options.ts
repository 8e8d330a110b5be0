// Options of the MCP client plugin (plugins.json). The servers themselves live in
// mcp_servers.json (settings.mcpServersFile), which reloads live on its own.
import { Type, type Static } from '@agentd/sdk/typebox'

export const options = Type.Object({
  /** Default per-call time limit for a tool call when neither the caller nor the server entry sets one. */
  call_timeout_seconds: Type.Number({ exclusiveMinimum: 0, maximum: 3600, default: 60 }),
  /** First wait before reconnecting a server that died; doubles on each failed try. */
  reconnect_initial_ms: Type.Integer({ minimum: 10, maximum: 60_000, default: 500 }),
  /** Cap of the reconnect wait. */
  reconnect_max_ms: Type.Integer({ minimum: 10, maximum: 600_000, default: 30_000 }),
  /** Every connected server is pinged this often, so a server that died (e.g. an HTTP server, which has no pipe to break) is noticed without waiting for a call; 0 turns pinging off. */
  ping_interval_seconds: Type.Number({ minimum: 0, maximum: 3600, default: 30 }),
}, { additionalProperties: false })

export type McpPluginOptions = Static<typeof options>
