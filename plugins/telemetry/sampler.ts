// OTEL_TRACES_SAMPLER as the specification names its values, and the one twist agentd
// needs: spans the sampler drops are still recorded (not exported), because the metrics
// are counted from spans (metrics.ts) and must count every call, sampled or not. An
// exporter only sees sampled spans (the batch processor skips the others).
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

/** Records what `inner` drops (unsampled: not exported), so the metrics see every span. */
export class RecordingSampler implements Sampler {
  readonly #inner: Sampler
  constructor (inner: Sampler) { this.#inner = inner }

  shouldSample (context: Context, traceId: string, spanName: string, spanKind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    const result = this.#inner.shouldSample(context, traceId, spanName, spanKind, attributes, links)
    return result.decision === SamplingDecision.NOT_RECORD ? { ...result, decision: SamplingDecision.RECORD } : result
  }

  toString (): string { return `RecordingSampler{${this.#inner.toString()}}` }
}
