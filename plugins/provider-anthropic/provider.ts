// The Anthropic provider on `@anthropic-ai/sdk`. The SDK retries (429, 5xx, 529
// overloaded; Retry-After honoured); the provider kit (@agentd/sdk/kits/provider) does
// timeouts, keeps the retries to our rules, maps errors and estimates usage, exactly as
// for the OpenAI-compatible providers. The SDK (~1.4 MB of JavaScript, ~250 modules) is
// imported on the first call, not at start: a server that never talks to Anthropic never
// loads it.
import type Anthropic from '@anthropic-ai/sdk'
import type { Stream } from '@anthropic-ai/sdk/streaming'
import type { FastifyBaseLogger } from 'fastify'
import { traceHeaders } from '@agentd/sdk'
import type { CompletionRequest, CompletionResult, ModelInfo, Provider, ProviderHealth, StreamPart } from '@agentd/sdk/contracts/provider'
import {
  attempt, relayStream, retryingFetch, upstream, usageOrEstimate,
  type Catalogue, type ResolvedSettings, type UpstreamContext,
} from '@agentd/sdk/kits/provider'
import { finishReason, toParams, usageOf } from './convert.ts'
import { EventAssembler, SseAssembler, type SseErrorContext } from './stream.ts'
import type { ThinkingSettings } from './thinking.ts'

export interface AnthropicConfig {
  id: string
  settings: ResolvedSettings
  maxRetries: number
  defaultMaxTokens: number
  thinking: ThinkingSettings
  headers: Record<string, string>
  catalogue: Catalogue
  log: FastifyBaseLogger
}

/** A whole Messages API answer as a CompletionResult (signed thinking and redacted blocks kept for replay). */
function resultOf (msg: Anthropic.Messages.Message, req: CompletionRequest): CompletionResult {
  let content = ''
  let thinking = ''
  let signature = ''
  const redacted: string[] = []
  const toolCalls: CompletionResult['tool_calls'] = []
  for (const b of msg.content) {
    if (b.type === 'text') content += b.text
    else if (b.type === 'thinking') { thinking += b.thinking; signature += b.signature }
    else if (b.type === 'redacted_thinking') redacted.push(b.data)
    else if (b.type === 'tool_use') toolCalls.push({ id: b.id, name: b.name, arguments: (b.input ?? {}) as Record<string, unknown> })
  }
  const result: CompletionResult = {
    content,
    finish_reason: finishReason(msg.stop_reason, toolCalls.length > 0),
    tool_calls: toolCalls,
    usage: usageOrEstimate(usageOf(msg.usage), req, content),
    model: msg.model ?? req.model,
    raw_response: msg as unknown as Record<string, unknown>,
  }
  if (thinking !== '') result.thinking = thinking
  if (signature !== '') result.thinking_signature = signature
  if (redacted.length > 0) result.thinking_redacted = redacted
  return result
}

/** `calls` for completions; health probes are quick questions (`quick`): never retried. The SDK's SSE decoder (`Stream.rawEvents`) too, for streams (stream.ts says why). */
interface Clients { calls: Anthropic, quick: Anthropic, SDK: typeof Anthropic, Stream: typeof Stream }

/** The SDK's clients, made on the first call (the SDK is imported then, not at start). */
function lazyClients (cfg: AnthropicConfig, ctx: UpstreamContext, baseUrl: string): () => Promise<Clients> {
  const { settings } = cfg
  const client = (SDK: typeof Anthropic, maxRetries: number): Anthropic => new SDK({
    // Passing the key (even a placeholder) keeps the SDK from looking for credentials in the environment or on disk.
    apiKey: settings.apiKey ?? 'not-configured',
    baseURL: baseUrl,
    // The kit's Deadline enforces the timeout (also between streamed parts); the SDK's is a backstop.
    timeout: settings.timeoutMs + 5_000,
    maxRetries,
    fetch: retryingFetch(ctx, maxRetries, cfg.log),
    defaultHeaders: cfg.headers,
  })
  let clients: Promise<Clients> | undefined
  return async () => await (clients ??= Promise.all([import('@anthropic-ai/sdk'), import('@anthropic-ai/sdk/streaming')]).then(
    ([{ default: SDK }, { Stream }]) => ({ calls: client(SDK, cfg.maxRetries), quick: client(SDK, 0), SDK, Stream }),
    (err: unknown) => { clients = undefined; throw err },
  ))
}

export function createAnthropicProvider (cfg: AnthropicConfig): Provider {
  const { id, settings, catalogue } = cfg
  const baseUrl = settings.baseUrl ?? 'https://api.anthropic.com'
  const notConfigured = settings.apiKey === undefined
    ? `Provider "${id}" is not configured: set ${settings.keyHint} (POST /api/config/update takes it without a restart).`
    : undefined
  const u = upstream(id, settings, baseUrl, notConfigured)
  const { ctx, timeoutMs, quickTimeoutMs, ensureConfigured } = u
  const sdk = lazyClients(cfg, ctx, baseUrl)
  const log = cfg.log

  // Settings this API cannot take are left out; say so once per generation, not per call.
  let warned = false
  const noteUnsupported = (req: CompletionRequest): void => {
    if (warned) return
    const dropped = (['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'response_format'] as const).filter(k => req[k] !== undefined)
    if (dropped.length === 0) return
    warned = true
    log.warn({ dropped }, 'settings not supported by the Anthropic Messages API were left out')
  }
  const maxTokens = (req: CompletionRequest): number => req.max_tokens ?? Math.min(cfg.defaultMaxTokens, catalogue.capabilities(req.model).max_output_tokens ?? cfg.defaultMaxTokens)

  const stream = (req: CompletionRequest, signal?: AbortSignal): AsyncIterable<StreamPart> => {
    const c: UpstreamContext = { ...ctx, model: req.model }
    let errors: SseErrorContext | undefined
    return relayStream(async () => {
      ensureConfigured()
      noteUnsupported(req)
      const params: Anthropic.Messages.MessageCreateParamsStreaming = { ...toParams(req, maxTokens(req), cfg.thinking), stream: true }
      const { calls, SDK, Stream } = await sdk()
      // The SDK sends, retries and turns error answers into its errors; its SSE decoder reads the body.
      const { value: response, deadline } = await attempt(c, timeoutMs, signal, async d => await calls.messages.create(params, { signal: d.signal, headers: traceHeaders(req.trace) }).asResponse())
      errors = { APIError: SDK.APIError, headers: response.headers }
      return { upstream: Stream.rawEvents(response, deadline.controller), deadline }
    }, new SseAssembler(new EventAssembler(req), () => errors as SseErrorContext), c)
  }

  return {
    id,
    status: u.status,
    capabilities: model => catalogue.capabilities(model),
    knowsModel: model => catalogue.knows(model),
    claimsModel: model => /^claude/i.test(model),
    listModels: async (): Promise<ModelInfo[]> => catalogue.names().map(n => catalogue.info(n)),

    complete: async (req: CompletionRequest, signal?: AbortSignal): Promise<CompletionResult> => {
      ensureConfigured()
      noteUnsupported(req)
      const c: UpstreamContext = { ...ctx, model: req.model }
      const { calls } = await sdk()
      const { value: msg, deadline } = await attempt(c, timeoutMs, signal,
        async d => await calls.messages.create({ ...toParams(req, maxTokens(req), cfg.thinking), stream: false }, { signal: d.signal, headers: traceHeaders(req.trace) }))
      deadline.dispose()
      return resultOf(msg, req)
    },

    stream,

    // GET /v1/models?limit=1: authenticated, free, fast.
    health: async (signal?: AbortSignal): Promise<ProviderHealth> => await u.health(async () => {
      const { quick } = await sdk()
      const { deadline } = await attempt(ctx, quickTimeoutMs, signal, async d => await quick.models.list({ limit: 1 }, { signal: d.signal }))
      deadline.dispose()
    }),

    settings: u.settings,
  }
}
