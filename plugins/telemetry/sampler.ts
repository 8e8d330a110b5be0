// OTEL_TRACES_SAMPLER as the specification names its values, and the one twist agentd
// needs: the spans the metrics are counted from (metrics.ts: model calls, tool calls,
// recall, job runs) are recorded even when the sampler drops them (not exported: the batch
// processor skips unsampled spans), so the metrics count every call, sampled or not. Any
// other span it drops (the HTTP request's) is not recorded at all, so a ratio sampler
// saves its cost too.
import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api'
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler, type Sampler, type SamplingResult } from '@opentelemetry/sdk-trace-base'

function ratio (arg: string | undefined): number {
  const n = Number(arg)
  return arg === undefined || arg === '' || !Number.isFinite(n) || n < 0 || n > 1 ? 1 : n
}

/** The sampler OTEL_TRACES_SAMPLER names (default parentbased_always_on; an unknown name falls back to it). */
export function samplerFromEnv (name: string, arg: string | undefined): Sampler {
  switch (name) {
    case 'always_on': return new AlwaysOnSampler()
    case 'always_off': return new AlwaysOffSampler()
    case 'traceidratio': return new TraceIdRatioBasedSampler(ratio(arg))
    case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case 'parentbased_traceidratio': return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio(arg)) })
    default: return new ParentBasedSampler({ root: new AlwaysOnSampler() })
  }
}

/** The spans MetricsSpanProcessor reads, by the attributes they start with (or the name). */
function countedByMetrics (spanName: string, attributes: Attributes): boolean {
  return attributes['gen_ai.operation.name'] !== undefined || attributes['agentd.job.name'] !== undefined || spanName === 'memory.recall'
}

/** Records the metrics' spans that `inner` drops (unsampled: not exported), so the metrics see every call. */
export class RecordingSampler implements Sampler {
  readonly #inner: Sampler
  constructor (inner: Sampler) { this.#inner = inner }

  shouldSample (context: Context, traceId: string, spanName: string, spanKind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    const result = this.#inner.shouldSample(context, traceId, spanName, spanKind, attributes, links)
    return result.decision === SamplingDecision.NOT_RECORD && countedByMetrics(spanName, attributes) ? { ...result, decision: SamplingDecision.RECORD } : result
  }

  toString (): string { return `RecordingSampler{${this.#inner.toString()}}` }
}
