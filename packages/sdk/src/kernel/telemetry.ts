// Spans around the work agentd does (model calls, tool calls, recall, job runs), written
// against the OpenTelemetry API the way a library instruments itself: the API is a no-op
// until an SDK registers a tracer provider, which only the telemetry plugin does
// (plugins/telemetry). Until then `tracing()` is false and the helpers below call the
// work directly: no span object, no context switch, one boolean read.
//
// Attribute names follow the OpenTelemetry GenAI semantic conventions where one exists
// (gen_ai.*); agentd's own are under `agentd.*`.
import { trace, context, propagation, SpanKind, SpanStatusCode, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api'

export type { Span, Attributes }
export { SpanKind }

/**
 * The trace context a piece of work runs under (OpenTelemetry's Context), carried
 * explicitly from the HTTP request (`requestTrace`) to where spans are made: on a
 * completion request (`CompletionRequest.trace`), a tool call's options, a recall query.
 * Explicit rather than through an AsyncLocalStorage context manager: on Node 20 that
 * puts an async hook on every promise of the process, traced or not, which was the
 * largest part of what tracing cost a chat (docs/benchmarks.md, "Telemetry").
 */
export type TraceContext = Context

interface TelemetryState {
  /** A tracer provider is registered (traces exported, or spans feeding the metrics). */
  active: boolean
  /** Its tracer (not the API's global proxy, which a re-registration would leave pointing at the old provider). */
  tracer: Tracer
  /** Prompt and completion text on model-call spans (off unless configured: it holds user data). */
  captureContent: boolean
  /** Traces are exported: outgoing requests carry the trace context (traceparent, tracestate). */
  propagate: boolean
  /** The trace context of an HTTP request (its server span), from the instrumentation that made the span. */
  requestContext?: (request: unknown) => TraceContext | undefined
}

const state: TelemetryState = { active: false, captureContent: false, propagate: false, tracer: trace.getTracer('agentd') }

/** Set by the telemetry plugin when it registers (or removes) its tracer provider. */
export function setTelemetry (next: Partial<TelemetryState>): void { Object.assign(state, next) }

/** Whether spans are being recorded at all: instrumentation skips its work when not. */
export function tracing (): boolean { return state.active }

/** Whether prompts and completions may be written on spans. */
export function captureContent (): boolean { return state.active && state.captureContent }

/** The trace context of an HTTP request (a Fastify request), to hand to the work it starts; undefined while not tracing. */
export function requestTrace (request: unknown): TraceContext | undefined {
  return state.active ? state.requestContext?.(request) : undefined
}

/**
 * Runs `fn` inside a span under `parent` (by default the active context, which is the root
 * unless a context manager is registered), ends the span when `fn` settles and marks it
 * failed when `fn` throws. `fn` gets the span and the span's own context: pass that to the
 * work it starts, so their spans are its children. Callers check `tracing()` first on hot
 * paths; here it is checked again so a caller may skip that.
 */
export async function inSpan<T> (name: string, attributes: Attributes, fn: (span: Span | undefined, ctx: TraceContext | undefined) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL, parent?: TraceContext): Promise<T> {
  if (!state.active) return await fn(undefined, parent)
  const base = parent ?? context.active()
  const span = state.tracer.startSpan(name, { kind, attributes }, base)
  const ctx = trace.setSpan(base, span)
  try {
    return await fn(span, ctx)
  } catch (err) {
    failSpan(span, err)
    throw err
  } finally {
    span.end()
  }
}

/** Starts a span under `parent` (by default the active context) without making it current (a stream's span, ended by its consumer). */
export function startSpan (name: string, attributes: Attributes, kind: SpanKind = SpanKind.INTERNAL, parent?: TraceContext): Span | undefined {
  if (!state.active) return undefined
  return state.tracer.startSpan(name, { kind, attributes }, parent ?? context.active())
}

/** The context of `span` under `parent`: what the work inside the span is given as its trace context. */
export function spanContext (span: Span | undefined, parent?: TraceContext): TraceContext | undefined {
  return span === undefined ? parent : trace.setSpan(parent ?? context.active(), span)
}

/**
 * The headers that carry `ctx` (W3C `traceparent`, `tracestate`) to a server that traces,
 * while traces are exported; otherwise undefined. For a client that takes per-request
 * headers (the provider SDKs' request options).
 */
export function traceHeaders (ctx: TraceContext | undefined): Record<string, string> | undefined {
  if (!state.propagate || ctx === undefined) return undefined
  const headers: Record<string, string> = {}
  propagation.inject(ctx, headers)
  return headers
}

/** Records an error on a span: status ERROR, `error.type`, the exception event. */
export function failSpan (span: Span | undefined, err: unknown): void {
  if (span === undefined) return
  const e = err as { code?: unknown, name?: string, message?: string } | undefined
  const type = typeof e?.code === 'string' ? e.code : e?.name ?? 'Error'
  span.setAttribute('error.type', type)
  span.setStatus({ code: SpanStatusCode.ERROR, message: e?.message })
  span.recordException(err instanceof Error ? err : String(err))
}
