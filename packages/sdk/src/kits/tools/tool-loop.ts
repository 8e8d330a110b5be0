// The tool-use loop, shared by simple chat and agent mode (ReAct): call the model with
// the messages and the tools; when it asks for tool calls, run them (one round's calls
// concurrently), append the results as `tool` messages and call again; stop when it
// answers without tool calls. After `maxToolRounds` rounds of tool calls the model gets
// one last call without tools, so it must answer.
//
// Tools the caller brings (an OpenAI client's `tools`) are offered beside the server's and
// never run here: a reply that calls any of them ends the loop, and the calls are handed
// back (`client_tool_calls`) for the caller to run, as OpenAI's API does.
//
// Every model reply goes through the think parser, streamed or not, so reasoning never
// leaks into the answer. Progress is reported through `onEvent` (awaited, so a slow
// consumer such as an SSE socket applies back-pressure).
//
// The provider hooks are not run here: a provider from the model resolver
// (`registry.modelResolvers`) is wrapped in the provider middleware, which runs them
// around every call. The tool hooks are (toolCallWithHooks).
import type { CompletionRequest, FinishReason, Message, Provider, ToolCall, ToolDefinition, Usage } from '../../contracts/provider.ts'
import type { ToolAfterPayload, ToolResult } from '../../contracts/tool-source.ts'
import type { Hooks } from '../../kernel/hooks.ts'
import type { TraceContext } from '../../kernel/telemetry.ts'
import { ThinkParser, type ThinkPiece } from '../output/think.ts'
import type { ToolSet } from './tool-set.ts'
import { toolCallWithHooks } from './tool-hooks.ts'

export const DEFAULT_MAX_TOOL_ROUNDS = 10

export type LoopEvent =
  | { type: 'text', text: string, round: number }
  | { type: 'thinking', text: string, round: number }
  | { type: 'tool_call', call: ToolCall, round: number }
  | { type: 'tool_result', call: ToolCall, result: ToolResult, duration_ms: number, round: number }
  | { type: 'round', round: number, finish_reason: FinishReason | null, tool_calls: number, usage: Usage }

export interface ToolLoopOptions {
  provider: Provider
  /** Model name as the provider knows it. */
  model: string
  /** The conversation so far (system prompt, history, the new user message). Not mutated. */
  messages: Message[]
  /** Tools to offer; none or empty means plain completion. */
  tools?: ToolSet
  /** Tools the caller runs itself: offered to the model, their calls returned, not executed. A name here hides the server's tool of that name. */
  clientTools?: ToolDefinition[]
  maxToolRounds?: number
  /** Stream from the provider (true) or use one completion per call. */
  stream: boolean
  signal?: AbortSignal
  /** The caller's trace context (its HTTP request's): the parent of the model calls' and the tool calls' spans. */
  trace?: TraceContext
  /** Per tool call. */
  toolTimeoutMs: number
  /** Other request settings (temperature, max_tokens, ...). */
  settings?: Omit<CompletionRequest, 'model' | 'messages' | 'tools' | 'tool_choice'>
  /** The first model call's `tool_choice` (`required`, or one tool by name); later rounds are `auto`, so the model can answer after the tools ran. */
  toolChoice?: CompletionRequest['tool_choice']
  /** Called before every provider call to shape what is sent (e.g. trim to the context window). */
  fit?: (messages: Message[]) => Message[]
  /** Runs tool:before/after around each tool call. */
  hooks?: Hooks
  /** Who the tool calls belong to, passed to the tool:after hook. */
  toolContext?: Pick<ToolAfterPayload, 'conversation_id' | 'channel' | 'use_memory'>
  onEvent?: (event: LoopEvent) => void | Promise<void>
}

export interface ToolLoopResult {
  /** The final reply's answer text (thinking removed). */
  answer: string
  /** Thinking of every reply in the loop, blocks separated by a blank line. */
  thinking: string
  has_thinking: boolean
  /** Messages this loop added: assistant replies (with their tool calls) and tool results. */
  messages: Message[]
  usage: Usage
  /** Model calls made. */
  provider_calls: number
  /** Rounds in which tools ran. */
  tool_rounds: number
  /** Names of the tools called, first use first. */
  tools_used: string[]
  finish_reason: FinishReason
  /** Model name the upstream reported. */
  model: string
  /** True when the loop stopped because of the round cap. */
  hit_round_cap: boolean
  /** The final reply's calls when it called a client tool (the loop stopped there); else empty. */
  client_tool_calls: ToolCall[]
}

interface Reply {
  /** The model id this call's request named. */
  requested: string
  answer: string
  thinking: string
  /** Native reasoning exactly as the provider sent it, and its signature (Anthropic): replayed verbatim or not at all. */
  native: { text: string, signature: string } | undefined
  /** Encrypted reasoning blocks (Anthropic), replayed verbatim. */
  redacted: string[]
  tool_calls: ToolCall[]
  finish_reason: FinishReason
  usage: Usage
  model: string
}

/** The assistant message to keep: signed native reasoning goes back as sent (the provider checks the signature). */
function assistantMessage (reply: Reply, withCalls: boolean): Message {
  const m: Message = { role: 'assistant', content: reply.answer }
  if (withCalls) m.tool_calls = reply.tool_calls
  if (reply.native !== undefined) {
    m.thinking = reply.native.text
    m.thinking_signature = reply.native.signature
  } else if (reply.thinking !== '') m.thinking = reply.thinking
  if (reply.redacted.length > 0) m.thinking_redacted = reply.redacted
  // The id asked for, not the one reported (an alias comes back as its snapshot id), so the
  // next call of this loop, which names the same id, gets its reasoning back.
  if (m.thinking_signature !== undefined || m.thinking_redacted !== undefined) m.thinking_model = reply.requested
  return m
}

const ZERO_USAGE: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }

function addUsage (a: Usage, b: Usage | undefined): Usage {
  if (b === undefined) return a
  const sum: Usage = {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  }
  if (a.estimated === true || b.estimated === true) sum.estimated = true
  return sum
}

function throwIfAborted (signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw signal.reason ?? new DOMException('aborted', 'AbortError')
}

/** What one loop carries from call to call. */
class LoopState {
  readonly opts: ToolLoopOptions
  // Per-token path: no promise unless the consumer returns one (back-pressure).
  readonly emit: (e: LoopEvent) => void | Promise<void>
  readonly clientNames: Set<string>
  /** Offered to the model: the server's tools (a client tool of the same name hides one), then the client's. */
  readonly definitions: ToolDefinition[]
  /** The server's tools on offer: a call to anything else is refused to the model. */
  readonly offered: Set<string>
  readonly conversation: Message[]
  readonly added: Message[] = []
  readonly thinking: string[] = []
  readonly toolsUsed: string[] = []
  usage: Usage = ZERO_USAGE
  calls = 0
  toolRounds = 0

  constructor (opts: ToolLoopOptions) {
    this.opts = opts
    this.emit = (e) => opts.onEvent?.(e)
    const clientTools = opts.clientTools ?? []
    this.clientNames = new Set(clientTools.map(d => d.name))
    const serverTools = (opts.tools?.definitions ?? []).filter(d => !this.clientNames.has(d.name))
    this.definitions = [...serverTools, ...clientTools]
    this.offered = new Set(serverTools.map(d => d.name))
    this.conversation = [...opts.messages]
  }
}

/** What a model call brought back, before it becomes a Reply. */
interface Received { toolCalls: ToolCall[], finish: FinishReason | null, usage: Usage | undefined, model: string, nativeText: string, signature: string | undefined, redacted: string[] }

/** Relays parsed pieces as events; returns a promise only when the consumer returned one (a socket waiting for 'drain'). */
function relayer (s: LoopState, round: number): (pieces: ThinkPiece[], from?: number) => Promise<void> | undefined {
  const relay = (pieces: ThinkPiece[], from = 0): Promise<void> | undefined => {
    for (let i = from; i < pieces.length; i++) {
      const p = pieces[i]
      const pending = s.emit({ type: p.kind === 'answer' ? 'text' : 'thinking', text: p.text, round })
      if (pending !== undefined) return pending.then(() => relay(pieces, i + 1))
    }
    return undefined
  }
  return relay
}

async function receiveStream (s: LoopState, request: CompletionRequest, parser: ThinkParser, relay: ReturnType<typeof relayer>): Promise<Received> {
  const got: Received = { toolCalls: [], finish: null, usage: undefined, model: s.opts.model, nativeText: '', signature: undefined, redacted: [] }
  for await (const part of s.opts.provider.stream(request, s.opts.signal)) {
    switch (part.type) {
      case 'text-delta': {
        const pieces = parser.push(part.delta)
        if (pieces.length > 0) {
          const pending = relay(pieces)
          if (pending !== undefined) await pending
        }
        break
      }
      case 'reasoning-delta':
        if (part.delta === '') break
        got.nativeText += part.delta
        await relay(parser.native(part.delta))
        break
      case 'reasoning-signature': got.signature = part.signature; break
      case 'reasoning-redacted': got.redacted = [...got.redacted, part.data]; break
      case 'tool-call': got.toolCalls = [...got.toolCalls, part.call]; break
      case 'finish': got.finish = part.finish_reason; got.usage = part.usage; got.model = part.model; break
    }
  }
  throwIfAborted(s.opts.signal)
  return got
}

async function receiveWhole (s: LoopState, request: CompletionRequest, parser: ThinkParser, relay: ReturnType<typeof relayer>): Promise<Received> {
  const r = await s.opts.provider.complete(request, s.opts.signal)
  const nativeText = r.thinking ?? ''
  if (nativeText !== '') await relay(parser.native(nativeText))
  await relay(parser.push(r.content))
  return { toolCalls: r.tool_calls, finish: r.finish_reason, usage: r.usage, model: r.model || s.opts.model, nativeText, signature: r.thinking_signature, redacted: r.thinking_redacted ?? [] }
}

async function callModel (s: LoopState, withTools: boolean, round: number): Promise<Reply> {
  const { opts } = s
  throwIfAborted(opts.signal)
  const request: CompletionRequest = {
    ...opts.settings,
    model: opts.model,
    messages: opts.fit === undefined ? s.conversation : opts.fit(s.conversation),
    ...(withTools ? { tools: s.definitions, ...(round === 0 && opts.toolChoice !== undefined ? { tool_choice: opts.toolChoice } : {}) } : {}),
    trace: opts.trace,
  }
  const parser = new ThinkParser()
  const relay = relayer(s, round)
  s.calls++
  const got = opts.stream ? await receiveStream(s, request, parser, relay) : await receiveWhole(s, request, parser, relay)
  await relay(parser.end())
  const reply: Reply = {
    requested: request.model,
    answer: parser.answer,
    thinking: parser.thinking,
    native: got.signature !== undefined && got.signature !== '' && got.nativeText !== '' ? { text: got.nativeText, signature: got.signature } : undefined,
    redacted: got.redacted,
    tool_calls: got.toolCalls,
    finish_reason: got.finish ?? (got.toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage: got.usage ?? ZERO_USAGE,
    model: got.model,
  }
  s.usage = addUsage(s.usage, got.usage)
  if (reply.thinking !== '') s.thinking.push(reply.thinking)
  await s.emit({ type: 'round', round, finish_reason: reply.finish_reason, tool_calls: got.toolCalls.length, usage: reply.usage })
  return reply
}

async function runTool (s: LoopState, call: ToolCall, round: number): Promise<ToolResult> {
  const { opts } = s
  await s.emit({ type: 'tool_call', call, round })
  const started = performance.now()
  let result: ToolResult
  const tools = opts.tools as ToolSet // only called when tools exist
  const run = async (c: ToolCall): Promise<ToolResult> => await tools.call(c, { signal: opts.signal, timeoutMs: opts.toolTimeoutMs, trace: opts.trace })
  try {
    result = opts.hooks === undefined
      ? await run(call)
      : await toolCallWithHooks(opts.hooks, call, run, opts.toolContext ?? { conversation_id: null, channel: null, use_memory: false })
  } catch (err) {
    throwIfAborted(opts.signal)
    result = { content: `Tool "${call.name}" failed: ${(err as Error)?.message ?? String(err)}`, isError: true }
  }
  await s.emit({ type: 'tool_result', call, result, duration_ms: Math.round((performance.now() - started) * 100) / 100, round })
  return result
}

/** The loop's result once a reply ends it. */
function finished (s: LoopState, reply: Reply, forClient: boolean, offerTools: boolean): ToolLoopResult {
  s.added.push(assistantMessage(reply, forClient))
  const joined = s.thinking.join('\n\n')
  return {
    answer: reply.answer,
    thinking: joined,
    has_thinking: joined !== '',
    messages: s.added,
    usage: s.usage,
    provider_calls: s.calls,
    tool_rounds: s.toolRounds,
    tools_used: s.toolsUsed,
    finish_reason: reply.finish_reason,
    model: reply.model,
    hit_round_cap: s.definitions.length > 0 && !offerTools,
    client_tool_calls: forClient ? reply.tool_calls.filter(c => s.clientNames.has(c.name)) : [],
  }
}

export async function runToolLoop (opts: ToolLoopOptions): Promise<ToolLoopResult> {
  const maxRounds = opts.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS
  const s = new LoopState(opts)
  for (let round = 0; ; round++) {
    const offerTools = s.definitions.length > 0 && s.toolRounds < maxRounds
    const reply = await callModel(s, offerTools, round)
    // A call to a client tool ends the loop: the caller runs it and comes back with the result.
    const forClient = offerTools && reply.tool_calls.some(c => s.clientNames.has(c.name))
    // Without tools on offer, tool calls in the reply (a confused model) are ignored.
    if (!offerTools || reply.tool_calls.length === 0 || forClient) return finished(s, reply, forClient, offerTools)
    s.toolRounds++
    const assistant = assistantMessage(reply, true)
    s.conversation.push(assistant)
    s.added.push(assistant)
    // A call to a tool not on offer (blocked, unknown, made up) is refused to the model, not used.
    for (const c of reply.tool_calls) if (s.offered.has(c.name) && !s.toolsUsed.includes(c.name)) s.toolsUsed.push(c.name)
    const results = await Promise.all(reply.tool_calls.map(async c => await runTool(s, c, round)))
    throwIfAborted(opts.signal)
    reply.tool_calls.forEach((c, i) => {
      const r = results[i]
      const msg: Message = { role: 'tool', name: c.name, tool_call_id: c.id, content: r.isError ? `Error: ${r.content}` : r.content }
      s.conversation.push(msg)
      s.added.push(msg)
    })
  }
}
