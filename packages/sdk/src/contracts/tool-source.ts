// The tool-source contract: anything that offers tools to the model (the builtin tools,
// MCP servers, a third party's plugin).
import type { TraceContext } from '../kernel/telemetry.ts'

export interface ToolInfo {
  /** Unique name offered to the model. */
  name: string
  description: string
  /** JSON Schema of the arguments object. */
  input_schema: Record<string, unknown>
  /** Where the tool lives (the MCP server name, or the source id). */
  server: string
  /** `available` or why it cannot be called now (e.g. `error`). */
  status?: string
}

export interface ToolCallOptions {
  signal?: AbortSignal
  /** Per-call time limit; the source must give up (and say so) after it. */
  timeoutMs?: number
  /** The call's trace context (its `execute_tool` span): a source that calls a server sends it along (`traceHeaders`). */
  trace?: TraceContext
}

export interface ToolResult {
  /** Text for the `tool` message. */
  content: string
  /** True when the call failed; the text says why, and the model sees it as an error. */
  isError: boolean
}

export interface ToolSource {
  readonly id: string
  listTools: () => ToolInfo[] | Promise<ToolInfo[]>
  /** Never throws for a tool's own failure: returns `{ isError: true }`. May throw on abort. */
  callTool: (name: string, args: Record<string, unknown>, options?: ToolCallOptions) => Promise<ToolResult>
  /** Text describing the tools, for the system prompt (the "tool-server tools prompt"). */
  toolsPrompt?: () => string
}

/** Payload of the `tool:after` hook (chat and agent). The context fields let a listener
 *  (e.g. memory's procedural record) attribute the call without knowing the caller. */
export interface ToolAfterPayload {
  tool: string
  arguments: Record<string, unknown>
  result: ToolResult
  /** The chat session id, or the agent run's conversation id. */
  conversation_id: string | null
  /** The request's memory channel; null when it named none (the store's default applies). */
  channel: string | null
  /** Whether the request asked for memory; a listener that stores should skip when false. */
  use_memory: boolean
  /** Wall time of the tool call itself, in milliseconds (hooks excluded). */
  duration_ms: number
}

declare module '../kernel/registry.ts' {
  interface Capabilities { toolSources: ToolSource }
}

declare module '../kernel/hooks.ts' {
  interface HookPayloads {
    /** Before a tool runs; a handler may replace the arguments. */
    'tool:before': { tool: string, arguments: Record<string, unknown> }
    /** After a tool ran; a handler may replace the result. */
    'tool:after': ToolAfterPayload
  }
}
