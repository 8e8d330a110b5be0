// Provider middleware (the Vercel AI SDK's wrapLanguageModel idea): the cross-cutting work
// every model call needs, done once around any provider instead of by each caller. The
// model resolver hands out providers wrapped in it, so chat, agent, translation and a
// third party's plugin all get:
// - the `provider:before` hook (may replace the request) and `provider:after` (may replace
//   a completion's result; for a stream it sees the whole reply assembled from the chunks);
// - a time limit: a completion gets `timeoutMs` in all, a stream `timeoutMs` between two
//   chunks, then the call is aborted with the provider layer's 504;
// - abort: the caller's signal releases the caller at once, even from a provider that
//   ignores its signal (its late answer is dropped);
// - a span per call (GenAI semantic conventions, model-span.ts) while telemetry is on;
// - a well-formed stream: one that ends without its `finish` part (a provider that
//   broke the contract) gets one, with usage estimated and marked.
import type { Hooks } from '@agentd/sdk'
import { raceAbort, tracing, inSpan, startSpan, spanContext, failSpan, captureContent } from '@agentd/sdk'
import type { CompletionRequest, CompletionResult, FinishPart, Provider, StreamPart, ToolCall } from '@agentd/sdk/contracts/provider'
import { ProviderErrors, estimatePromptTokens, tag } from '@agentd/sdk/kits/provider'
import { FIRST_TOKEN_EVENT, SpanKind, modelSpanName, recordResponse, requestAttributes } from './model-span.ts'

export interface MiddlewareOptions {
  hooks: Hooks
  /** A completion's whole time, or a stream's time between two chunks. */
  timeoutMs: number
}

/** One call's signal: aborted by the caller's signal (with its reason) or by the time limit (504). */
class CallScope {
  readonly controller = new AbortController()
  readonly #outer: AbortSignal | undefined
  readonly #timer: NodeJS.Timeout
  readonly #onOuter = (): void => { this.controller.abort(this.#outer?.reason) }

  constructor (outer: AbortSignal | undefined, provider: string, what: string, ms: number) {
    this.#outer = outer
    if (outer?.aborted === true) this.controller.abort(outer.reason)
    else outer?.addEventListener('abort', this.#onOuter, { once: true })
    this.#timer = setTimeout(() => {
      this.controller.abort(tag(new ProviderErrors.TIMEOUT(`${provider} gave no ${what} within ${ms / 1000} s; check the ${provider} server, or raise the providers-api option call_timeout_seconds.`), { provider }))
    }, ms)
  }

  get signal (): AbortSignal { return this.controller.signal }
  /** Restarts the time limit (a stream's next chunk arrived). */
  refresh (): void { this.#timer.refresh() }
  close (): void {
    clearTimeout(this.#timer)
    this.#outer?.removeEventListener('abort', this.#onOuter)
  }
}

export function wrapProvider (inner: Provider, o: MiddlewareOptions): Provider {
  const before = async (req: CompletionRequest): Promise<CompletionRequest> =>
    o.hooks.has('provider:before') ? (await o.hooks.run('provider:before', { provider: inner.id, request: req })).request : req

  const complete = async (req: CompletionRequest, signal?: AbortSignal): Promise<CompletionResult> => {
    const request = await before(req)
    if (!tracing()) return await call(request, signal)
    // The provider gets the call's span as its trace context, and sends it upstream.
    return await inSpan(modelSpanName(request), requestAttributes(inner.id, request, false), async (span, trace) => {
      const result = await call(trace === undefined ? request : { ...request, trace }, signal)
      recordResponse(span, result, result.content)
      return result
    }, SpanKind.CLIENT, request.trace)
  }

  const call = async (request: CompletionRequest, signal?: AbortSignal): Promise<CompletionResult> => {
    const scope = new CallScope(signal, inner.id, 'answer', o.timeoutMs)
    try {
      const result = await raceAbort(inner.complete(request, scope.signal), scope.signal)
      return o.hooks.has('provider:after') ? (await o.hooks.run('provider:after', { provider: inner.id, request, result })).result : result
    } finally {
      scope.close()
    }
  }

  const stream = (req: CompletionRequest, signal?: AbortSignal): AsyncGenerator<StreamPart> => middlewareStream(inner, o, before, req, signal)

  const wrapped: Provider = {
    id: inner.id,
    status: () => inner.status(),
    listModels: async (signal) => await inner.listModels(signal),
    capabilities: (model) => inner.capabilities(model),
    complete,
    stream,
    health: async (signal) => await inner.health(signal),
  }
  if (inner.knowsModel !== undefined) wrapped.knowsModel = (model) => inner.knowsModel?.(model) === true
  if (inner.claimsModel !== undefined) wrapped.claimsModel = (model) => inner.claimsModel?.(model) === true
  if (inner.settings !== undefined) wrapped.settings = () => inner.settings!() // eslint-disable-line @typescript-eslint/no-non-null-assertion -- checked above
  return wrapped
}

/** A provider's stream inside the middleware: hooks, the time limit between parts, abort, a finish part always. */
async function * middlewareStream (inner: Provider, o: MiddlewareOptions, before: (req: CompletionRequest) => Promise<CompletionRequest>, req: CompletionRequest, signal?: AbortSignal): AsyncGenerator<StreamPart> {
  const request = await before(req)
  const scope = new CallScope(signal, inner.id, 'stream chunk', o.timeoutMs)
  // Abort fails the wait for the current part. Not Promise.race against one long-lived
  // abort promise: every race leaves a reaction on it, holding each part until the
  // stream ends (measured: memory per stream grew with its length).
  let failWait: ((reason: unknown) => void) | undefined
  scope.signal.addEventListener('abort', () => { failWait?.(scope.signal.reason) }, { once: true })
  const waitFor = async (p: Promise<IteratorResult<StreamPart>>): Promise<IteratorResult<StreamPart>> => await new Promise((resolve, reject) => {
    if (scope.signal.aborted) { reject(scope.signal.reason); return }
    failWait = reject
    p.then(resolve, reject)
  })
  // The provider gets the call's span as its trace context (and sends it upstream). No context
  // is made current around its work: none is registered (the context is carried explicitly).
  const span = startSpan(modelSpanName(request), requestAttributes(inner.id, request, true), SpanKind.CLIENT, request.trace)
  const upstream = span === undefined ? request : { ...request, trace: spanContext(span, request.trace) }
  const iterator = inner.stream(upstream, scope.signal)[Symbol.asyncIterator]()
  const collect = o.hooks.has('provider:after')
  const keepText = collect || captureContent()
  let content = ''
  let thinking = ''
  let chars = 0
  const toolCalls: ToolCall[] = []
  let finish: FinishPart | undefined
  let done = false
  // The provider's next part while we wait for it: on abort we stop waiting, not it.
  let pending: Promise<IteratorResult<StreamPart>> | undefined
  try {
    for (;;) {
      pending = iterator.next()
      const next = await waitFor(pending)
      pending = undefined
      failWait = undefined
      if (next.done === true) break
      scope.refresh()
      const part = next.value
      if (part.type === 'text-delta') {
        if (chars === 0) span?.addEvent(FIRST_TOKEN_EVENT)
        chars += part.delta.length
        if (keepText) content += part.delta
      } else if (part.type === 'finish') {
        finish = part
        recordResponse(span, part, keepText ? content : undefined)
      } else if (part.type === 'tool-call') toolCalls.push(part.call)
      else if (part.type === 'reasoning-delta' && collect) thinking += part.delta
      yield part
    }
    done = true
  } catch (err) {
    failSpan(span, err)
    throw err
  } finally {
    scope.close()
    if (!done) span?.end()
    // Broken off (consumer stopped, abort, time limit): close the provider's stream. While
    // it is still producing a part (it has seen the abort through its signal), closing it
    // now would race its own cleanup: close it once that part has settled.
    const close = (): void => { void Promise.resolve(iterator.return?.()).catch(() => undefined) }
    if (!done) {
      if (pending === undefined) close()
      else pending.then(close, close)
    }
  }
  if (finish === undefined) {
    finish = estimatedFinish(request, chars, toolCalls.length > 0)
    recordResponse(span, finish, keepText ? content : undefined)
    span?.end()
    yield finish
  } else span?.end()
  if (collect) {
    const result: CompletionResult = { content, finish_reason: finish.finish_reason, tool_calls: toolCalls, usage: finish.usage, model: finish.model }
    if (thinking !== '') result.thinking = thinking
    await o.hooks.run('provider:after', { provider: inner.id, request, result })
  }
}

/** The finish part an upstream did not send: usage estimated (and marked so). */
function estimatedFinish (request: CompletionRequest, chars: number, calledTools: boolean): FinishPart {
  const prompt = estimatePromptTokens(request)
  const completion = Math.ceil(chars / 4)
  return {
    type: 'finish',
    finish_reason: calledTools ? 'tool_calls' : 'stop',
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, estimated: true },
    model: request.model,
  }
}
