// The model-provider contract. Types mirror SPEC.md (Message, ToolCall, CompletionResult,
// ModelCapabilities; a stream is a union of parts, StreamPart); field names stay snake_case as in the wire API.
import type { TraceContext } from '../kernel/telemetry.ts'

export type Role = 'system' | 'user' | 'assistant' | 'tool'

/** A tool call requested by the model. `arguments` is already parsed JSON. */
export interface ToolCall {
  id: string
  name: string
  arguments: Record<string, unknown>
}

/** An image on a user message: an https URL or a `data:<media type>;base64,...` URL. */
export interface ImageInput {
  url: string
  /** OpenAI's resolution hint; providers without one ignore it. */
  detail?: 'auto' | 'low' | 'high'
}

export interface Message {
  role: Role
  content: string
  /**
   * Images after the text, on `user` messages only; sent to a model whose capabilities say
   * `supports_vision` (the caller checks: a provider that cannot send them ignores them).
   */
  images?: ImageInput[]
  /** Tool name, on `tool` messages. */
  name?: string
  /** Links a `tool` message to the call it answers. */
  tool_call_id?: string
  /** Calls the assistant requested, on `assistant` messages. */
  tool_calls?: ToolCall[]
  /** Reasoning the model produced with this assistant message (native or extracted). */
  thinking?: string
  /**
   * Opaque signature a provider returned with its native reasoning (Anthropic's thinking
   * blocks). Keep it with `thinking` on the assistant message when sending the
   * conversation back: without it that provider drops the reasoning from the history.
   */
  thinking_signature?: string
  /**
   * Reasoning the provider returned encrypted (Anthropic's `redacted_thinking` blocks):
   * opaque, never shown, and sent back verbatim with this assistant message, which the
   * provider requires when the message also carries tool calls.
   */
  thinking_redacted?: string[]
  /**
   * The model id the request named when this reasoning came back. Signed and encrypted
   * reasoning is bound to the model that produced it (Anthropic refuses it elsewhere), so
   * a provider sends it back only to that model; unset (older histories) means any.
   */
  thinking_model?: string
}

/** A tool offered to the model. `input_schema` is JSON Schema for the arguments object. */
export interface ToolDefinition {
  name: string
  description: string
  input_schema: Record<string, unknown>
}

export interface Usage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
  /** True when the upstream did not report usage and these are estimates. */
  estimated?: boolean
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error'

export interface CompletionRequest {
  /** Model name as the provider knows it (no `provider/` prefix). */
  model: string
  messages: Message[]
  tools?: ToolDefinition[]
  /**
   * With `tools`: `auto` (the default: the model decides), `required` (it must call one),
   * or one tool by name (it must call that one).
   */
  tool_choice?: 'auto' | 'required' | { name: string }
  temperature?: number
  max_tokens?: number
  top_p?: number
  frequency_penalty?: number
  presence_penalty?: number
  stop?: string[]
  /** Ask for a JSON object answer; a JSON Schema constrains it where the model supports that. */
  response_format?: { type: 'json_object' } | { type: 'json_schema', name: string, schema: Record<string, unknown> }
  /**
   * The trace context the call runs under (the SDK's `TraceContext`): the caller's (its
   * HTTP request's, from `requestTrace`) on the way in; the model call's span on the way
   * to the provider, which sends it upstream (`traceHeaders`). Not part of what is asked.
   */
  trace?: TraceContext
}

export interface CompletionResult {
  content: string
  /** Native reasoning the provider returned separately from the content. */
  thinking?: string
  /** Signature of that reasoning, where the provider signs it (see Message.thinking_signature). */
  thinking_signature?: string
  /** Encrypted reasoning blocks, in order (see Message.thinking_redacted). */
  thinking_redacted?: string[]
  finish_reason: FinishReason
  tool_calls: ToolCall[]
  usage: Usage
  model: string
  /** The upstream's response, for debugging. */
  raw_response?: Record<string, unknown>
}

/**
 * One part of a streamed completion: a tagged union, as the Vercel AI SDK's
 * LanguageModelV2StreamPart, so a consumer switches on `type` and each part carries only
 * what it means. In order: text and reasoning deltas as they come; then, once the upstream
 * has finished, the whole tool calls (assembled from the upstream's deltas, arguments
 * parsed), the reasoning's signature and encrypted blocks where the provider has them, and
 * last exactly one `finish`.
 */
export type StreamPart =
  | TextDeltaPart
  | ReasoningDeltaPart
  | ReasoningSignaturePart
  | ReasoningRedactedPart
  | ToolCallPart
  | FinishPart

/** Answer text. */
export interface TextDeltaPart { type: 'text-delta', delta: string }

/** Native reasoning text, apart from the answer (never put reasoning in a text-delta). */
export interface ReasoningDeltaPart { type: 'reasoning-delta', delta: string }

/** The signature of the reasoning streamed so far, where the provider signs it (see Message.thinking_signature). */
export interface ReasoningSignaturePart { type: 'reasoning-signature', signature: string }

/** One encrypted reasoning block, in order (see Message.thinking_redacted). */
export interface ReasoningRedactedPart { type: 'reasoning-redacted', data: string }

/** One whole tool call the model requested. */
export interface ToolCallPart { type: 'tool-call', call: ToolCall }

/** The last part: why the model stopped, the usage (estimates marked) and the model that answered. */
export interface FinishPart { type: 'finish', finish_reason: FinishReason, usage: Usage, model: string }

export interface ModelCapabilities {
  supports_tools: boolean
  supports_vision: boolean
  supports_streaming: boolean
  supports_json_mode: boolean
  context_window: number
  max_output_tokens: number | null
  cost_per_1k_input: number | null
  cost_per_1k_output: number | null
}


export interface ModelInfo extends ModelCapabilities {
  name: string
  provider: string
  /** False when the catalogue had no entry and the capabilities are defaults. */
  known?: boolean
  /** What the provider learnt from the server about a model the catalogue does not describe (where and when). */
  learnt?: { supports_tools: boolean, from: string, at: string }
}

export interface ProviderStatus {
  status: 'configured' | 'not_configured'
  /** For not_configured: what to set, e.g. "set OPENAI_API_KEY or providers.openai.api_key". */
  error?: string
}

export interface ProviderHealth {
  /** `not_configured`: no key/URL yet; not a failure, so it does not make the aggregate `degraded`. */
  status: 'healthy' | 'unhealthy' | 'not_configured'
  /** For unhealthy/not_configured: what went wrong and what to fix. */
  error?: string
  /** How long the health call took. */
  latency_ms?: number
}

/** What GET /api/config shows for a provider: its effective settings, the key only as set/unset. */
export interface ProviderSettingsView {
  api_key: { set: boolean, source?: 'config' | 'env' }
  base_url?: string
  /** Seconds. */
  timeout?: number
}

export interface Provider {
  /** The name users write before the slash: `openai`, `anthropic`, `local`, `groq`. */
  readonly id: string
  status: () => ProviderStatus
  /** The models this provider offers (from its server when it lists them, else its catalogue). */
  listModels: (signal?: AbortSignal) => Promise<ModelInfo[]>
  /** Capabilities of one model: catalogue, then config overrides, then honest defaults. */
  capabilities: (model: string) => ModelCapabilities
  /** True when this provider's catalogue knows the bare model name (used to resolve bare names). */
  knowsModel?: (model: string) => boolean
  /**
   * True for bare names this provider claims by their shape though its catalogue does not
   * list them (`gpt-`, `o1`..`o4` for OpenAI, `claude` for Anthropic, `name:tag` for a local
   * server): asked after every catalogue, before the default provider.
   */
  claimsModel?: (model: string) => boolean
  /**
   * One whole completion. Failures are @fastify/error instances the chat plugin can pass
   * straight through: 502 the upstream answered with an error (bad key: the message names
   * the variable to set), 504 no answer within the provider's timeout, 503 not configured
   * or unreachable, 404 unknown model. Aborting `signal` closes the upstream request and
   * rejects with code AGENT_ERR_PROVIDER_ABORTED.
   */
  complete: (req: CompletionRequest, signal?: AbortSignal) => Promise<CompletionResult>
  /**
   * The same as a stream of parts (see StreamPart); errors as for `complete`, thrown
   * from the iterator. Breaking out of the loop or aborting `signal` closes the upstream request.
   */
  stream: (req: CompletionRequest, signal?: AbortSignal) => AsyncIterable<StreamPart>
  /** A real, cheap upstream call. */
  health: (signal?: AbortSignal) => Promise<ProviderHealth>
  /** Effective settings with the key redacted, for GET /api/config. Optional for third-party providers. */
  settings?: () => ProviderSettingsView
}

declare module '../kernel/registry.ts' {
  interface Capabilities { providers: Provider }
}

declare module '../kernel/hooks.ts' {
  interface HookPayloads {
    /** Before any provider call (chat, agent, translation); a handler may replace the request. */
    'provider:before': { provider: string, request: CompletionRequest }
    /** After a provider call finished; a handler may replace the result. */
    'provider:after': { provider: string, request: CompletionRequest, result: CompletionResult }
  }
}
