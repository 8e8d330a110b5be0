// The process's OpenTelemetry tracer provider: created when traces or metrics are on, held
// in the kernel's resource pool (a reload with the same settings keeps it; other settings
// make a new one, which replaces the global registration), removed when the last
// generation using it closes.
//
// Traces on: spans batched to the OTLP exporter (protobuf or JSON over HTTP; the batch's
// OTEL_BSP_* settings from the kernel's environment), the W3C trace context read from
// incoming requests (@fastify/otel) and written on the requests agentd sends to providers
// and MCP servers (the SDK's `traceHeaders`). No context manager: the trace context is
// carried explicitly from the request's span (`requestTrace`, read from @fastify/otel's
// request decoration) to where spans are made (the SDK's `TraceContext`). The
// AsyncLocalStorage context manager puts, on Node 20, an async hook on every promise of the
// process; it was the largest part of what tracing cost a chat (docs/benchmarks.md). Not
// the undici instrumentation either: it hooks every fetch in the process and makes a
// client span for each. Metrics only: spans are recorded for the metrics and go nowhere;
// no propagation (nothing is sent, so nothing is joined up).
import { context, propagation, trace, type Context } from '@opentelemetry/api'
import { BatchSpanProcessor, AlwaysOffSampler, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { setTelemetry } from '@agentd/sdk'
import type { TraceConfig } from './otel-config.ts'
import { RecordingSampler, samplerFromEnv } from './sampler.ts'

export interface TracerSetup {
  trace: TraceConfig | undefined
  version: string
  captureContent: boolean
  /** Where spans go when traces are on (exporter.ts); set exactly when `trace` is. */
  exporter?: SpanExporter
}

/** The request's trace context, its server span's (@fastify/otel's `request.opentelemetry()`); none for a request it did not trace. */
function requestContext (request: unknown): Context | undefined {
  return (request as { opentelemetry?: () => { context?: Context | null } }).opentelemetry?.().context ?? undefined
}

export class ProcessTracer {
  readonly provider: NodeTracerProvider
  readonly exporting: boolean

  constructor (setup: TracerSetup, processors: SpanProcessor[]) {
    const t = setup.trace
    const all = [...processors]
    if (t !== undefined) {
      if (setup.exporter === undefined) throw new Error('ProcessTracer: traces are on but no exporter was given (createExporter)')
      all.push(new BatchSpanProcessor(setup.exporter, t.batch))
    }
    this.provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ ...t?.resourceAttributes, 'service.name': t?.serviceName ?? 'agentd', 'service.version': setup.version }),
      sampler: new RecordingSampler(t === undefined ? new AlwaysOffSampler() : samplerFromEnv(t.sampler, t.samplerArg)),
      spanProcessors: all,
    })
    this.exporting = t !== undefined
    // Another provider (an earlier reload's settings) may still be registered: this one replaces it.
    trace.disable()
    if (t !== undefined) {
      context.disable()
      propagation.disable()
      // The W3C propagator (traceparent, tracestate, baggage); no context manager (above).
      this.provider.register({ contextManager: null })
    } else {
      trace.setGlobalTracerProvider(this.provider)
    }
    setTelemetry({ active: true, propagate: t !== undefined, captureContent: setup.captureContent, tracer: this.provider.getTracer('agentd', setup.version), requestContext })
  }

  /** Exports what is batched (tests wait for their spans this way). */
  async flush (): Promise<void> { await this.provider.forceFlush() }

  async shutdown (): Promise<void> {
    // Only undo the global registration if it is still this provider's (a newer one may have replaced it).
    const mine = (trace.getTracerProvider() as { getDelegate?: () => unknown }).getDelegate?.() === this.provider
    if (mine) {
      setTelemetry({ active: false, propagate: false, captureContent: false, requestContext: undefined })
      trace.disable()
      if (this.exporting) { context.disable(); propagation.disable() }
    }
    await this.provider.shutdown().catch(() => undefined)
  }
}
