// One OpenAI-compatible provider instance on the `openai` SDK. The SDK does the wire
// format and the retries; the provider kit (@agentd/sdk/kits/provider) does timeouts,
// keeps the retries to our rules, maps errors and estimates usage, the same way for every
// provider.
import OpenAI from 'openai'
import type { FastifyBaseLogger } from 'fastify'
import { traceHeaders } from '@agentd/sdk'
import type { CompletionRequest, CompletionResult, ModelInfo, Provider, ProviderHealth, StreamPart } from '@agentd/sdk/contracts/provider'
import {
  attempt, ProviderErrors, relayStream, retryingFetch, tag, upstream, usageOrEstimate,
  type Catalogue, type ResolvedSettings, type UpstreamContext,
} from '@agentd/sdk/kits/provider'
import { DEFAULT_QUIRKS, finishReason, reasoningOf, toParams, toToolCalls, type WireQuirks } from './convert.ts'
import { ChunkAssembler } from './stream.ts'

export interface OpenAICompatibleConfig {
  id: string
  settings: ResolvedSettings
  keyRequired: boolean
  maxRetries: number
  headers: Record<string, string>
  listModels: 'server' | 'catalogue'
  catalogue: Catalogue
  streamUsage: boolean
  quirks?: WireQuirks
  /** Health calls GET <base>/<healthPath> instead of GET /models. */
  healthPath?: string
  /** Bare model names claimed by their shape (the preset's). */
  claims?: RegExp
  log: FastifyBaseLogger
}

/** A whole chat completion as a CompletionResult (reasoning fields of DeepSeek/vLLM/Ollama kept as thinking). */
function resultOf (id: string, res: OpenAI.Chat.Completions.ChatCompletion, req: CompletionRequest): CompletionResult {
  const choice = res.choices?.[0]
  if (choice === undefined) throw tag(new ProviderErrors.BAD_RESPONSE(`${id} answered without a choice for model "${req.model}".`), { provider: id })
  const content = choice.message.content ?? ''
  const toolCalls = toToolCalls(choice.message.tool_calls as Parameters<typeof toToolCalls>[0])
  const thinking = reasoningOf(choice.message)
  const result: CompletionResult = {
    content,
    finish_reason: finishReason(choice.finish_reason, toolCalls.length > 0),
    tool_calls: toolCalls,
    usage: usageOrEstimate(res.usage, req, content + toolCalls.map(t => JSON.stringify(t.arguments)).join('')),
    model: res.model ?? req.model,
    raw_response: res as unknown as Record<string, unknown>,
  }
  if (thinking !== undefined) result.thinking = thinking
  return result
}

export function createOpenAICompatibleProvider (cfg: OpenAICompatibleConfig): Provider {
  const { id, settings, catalogue } = cfg
  const baseUrl = settings.baseUrl ?? ''
  const missing = settings.baseUrl === undefined
    ? `set ${settings.urlHint} to the server's OpenAI-compatible base URL (ending in /v1)`
    : cfg.keyRequired && settings.apiKey === undefined
      ? `set ${settings.keyHint}`
      : undefined
  const notConfigured = missing === undefined ? undefined : `Provider "${id}" is not configured: ${missing} (POST /api/config/update takes it without a restart).`

  const u = upstream(id, settings, baseUrl, notConfigured)
  const { ctx, timeoutMs, quickTimeoutMs, ensureConfigured } = u
  const client = (maxRetries: number): OpenAI => new OpenAI({
    // Local servers ignore the key, but the SDK insists on one.
    apiKey: settings.apiKey ?? 'not-needed',
    baseURL: baseUrl === '' ? 'http://127.0.0.1:9/v1' : baseUrl,
    organization: null,
    project: null,
    // The kit's Deadline enforces the timeout (also between streamed parts); the SDK's is a backstop.
    timeout: settings.timeoutMs + 5_000,
    maxRetries,
    fetch: retryingFetch(ctx, maxRetries, cfg.log),
    defaultHeaders: cfg.headers,
  })
  const calls = client(cfg.maxRetries)
  // Model listings and health probes are quick questions: never retried.
  const quick = client(0)
  const quirks = cfg.quirks ?? DEFAULT_QUIRKS

  const serverModels = async (signal?: AbortSignal): Promise<string[]> => {
    ensureConfigured()
    const { value, deadline } = await attempt(ctx, quickTimeoutMs, signal, async d => await quick.models.list({ signal: d.signal }))
    deadline.dispose()
    return value.data.map(m => m.id)
  }

  const stream = (req: CompletionRequest, signal?: AbortSignal): AsyncIterable<StreamPart> => {
    const c: UpstreamContext = { ...ctx, model: req.model }
    return relayStream(async () => {
      ensureConfigured()
      const params: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = { ...toParams(req, quirks), stream: true }
      if (cfg.streamUsage) params.stream_options = { include_usage: true }
      const { value: upstream, deadline } = await attempt(c, timeoutMs, signal, async d => await calls.chat.completions.create(params, { signal: d.signal, headers: traceHeaders(req.trace) }))
      return { upstream, deadline }
    }, new ChunkAssembler(req), c)
  }

  return {
    id,
    status: u.status,
    capabilities: model => catalogue.capabilities(model),
    knowsModel: model => catalogue.knows(model),
    ...(cfg.claims === undefined ? {} : { claimsModel: (model: string) => cfg.claims?.test(model) === true }),

    listModels: async (signal?: AbortSignal): Promise<ModelInfo[]> => {
      if (cfg.listModels === 'catalogue') return catalogue.names().map(n => catalogue.info(n))
      return (await serverModels(signal)).map(n => catalogue.info(n))
    },

    complete: async (req: CompletionRequest, signal?: AbortSignal): Promise<CompletionResult> => {
      ensureConfigured()
      const c: UpstreamContext = { ...ctx, model: req.model }
      const { value: res, deadline } = await attempt(c, timeoutMs, signal,
        async d => await calls.chat.completions.create({ ...toParams(req, quirks), stream: false }, { signal: d.signal, headers: traceHeaders(req.trace) }))
      deadline.dispose()
      return resultOf(id, res, req)
    },

    stream,

    health: async (signal?: AbortSignal): Promise<ProviderHealth> => await u.health(async () => {
      if (cfg.healthPath === undefined) { await serverModels(signal); return }
      const { deadline } = await attempt(ctx, quickTimeoutMs, signal, async d => await quick.get(cfg.healthPath!, { signal: d.signal }))
      deadline.dispose()
    }),

    settings: u.settings,
  }
}
