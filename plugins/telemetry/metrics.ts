// The Prometheus metrics (prom-client), one registry per process: held in the kernel's
// resource pool, so a reload's new generation finds the same registry and registers
// nothing twice. Counts are per process, as Prometheus expects: a cluster adds them up.
//
// Model calls, tool calls, recall and job runs are counted from their spans
// (MetricsSpanProcessor): the instrumentation is written once (the SDK's telemetry.ts),
// and a span's duration and attributes are what a metric needs. HTTP requests are counted
// by a response hook (plugin.ts), which needs no span.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { SpanStatusCode } from '@opentelemetry/api'
import type { Context } from '@opentelemetry/api'
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base'

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]

/** Live values read when /metrics is scraped; the latest generation's plugin sets them. */
export interface GaugeSources {
  streamsOpen: () => number
  outboxDepth: () => number
  generation: () => number
}

export class AgentdMetrics {
  readonly registry = new Registry()
  readonly httpRequests: Counter<'method' | 'route' | 'status'>
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>
  readonly modelCalls: Counter<'provider' | 'model' | 'outcome'>
  readonly modelDuration: Histogram<'provider' | 'model'>
  readonly firstToken: Histogram<'provider' | 'model'>
  readonly tokens: Counter<'provider' | 'model' | 'type'>
  readonly toolCalls: Counter<'server' | 'outcome'>
  readonly toolDuration: Histogram<'server'>
  readonly recallDuration: Histogram
  readonly jobRuns: Counter<'job' | 'outcome'>
  readonly jobDuration: Histogram<'job'>
  readonly reloads: Counter
  sources: GaugeSources = { streamsOpen: () => 0, outboxDepth: () => 0, generation: () => 0 }
  /** Generations activated in this process (the first is the start, not a reload). */
  activations = 0

  constructor () {
    const registers = [this.registry]
    // The event-loop lag monitor is a timer firing every `eventLoopMonitoringPrecision` ms
    // whether or not anything runs: at prom-client's default (10 ms) ~100 wake-ups a second
    // cost an idle server ~6 ms of CPU a second (bench/idle.bench.ts, target 4). At 250 ms a
    // blocked loop still shows (a stall longer than that is what the lag is for).
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 250 })
    this.httpRequests = new Counter({ name: 'agentd_http_requests_total', help: 'HTTP requests answered, by route template and status.', labelNames: ['method', 'route', 'status'], registers })
    this.httpDuration = new Histogram({ name: 'agentd_http_request_duration_seconds', help: 'Time to answer an HTTP request (a stream: until it ends).', labelNames: ['method', 'route', 'status'], buckets: SECONDS, registers })
    this.modelCalls = new Counter({ name: 'agentd_model_calls_total', help: 'Model calls, by provider, model and outcome (ok, error).', labelNames: ['provider', 'model', 'outcome'], registers })
    this.modelDuration = new Histogram({ name: 'agentd_model_call_duration_seconds', help: 'A model call from request to its last token.', labelNames: ['provider', 'model'], buckets: SECONDS, registers })
    this.firstToken = new Histogram({ name: 'agentd_model_time_to_first_token_seconds', help: 'A streamed model call from request to its first text.', labelNames: ['provider', 'model'], buckets: SECONDS, registers })
    this.tokens = new Counter({ name: 'agentd_model_tokens_total', help: 'Tokens the providers reported, by provider, model and type (input, output).', labelNames: ['provider', 'model', 'type'], registers })
    this.toolCalls = new Counter({ name: 'agentd_tool_calls_total', help: 'Tool calls, by server and outcome (ok, error).', labelNames: ['server', 'outcome'], registers })
    this.toolDuration = new Histogram({ name: 'agentd_tool_call_duration_seconds', help: 'A tool call, by server.', labelNames: ['server'], buckets: SECONDS, registers })
    this.recallDuration = new Histogram({ name: 'agentd_memory_recall_duration_seconds', help: 'A memory recall (every technique, fused).', buckets: SECONDS, registers })
    this.jobRuns = new Counter({ name: 'agentd_job_runs_total', help: 'Job runs in this process, by job and outcome (success, failure).', labelNames: ['job', 'outcome'], registers })
    this.jobDuration = new Histogram({ name: 'agentd_job_run_duration_seconds', help: 'A job run, by job.', labelNames: ['job'], buckets: SECONDS, registers })
    this.reloads = new Counter({ name: 'agentd_generation_reloads_total', help: 'Generations swapped in by a live reload.', registers })
    const sources = (): GaugeSources => this.sources
    new Gauge({ name: 'agentd_sse_streams_open', help: 'Streamed answers open now.', registers, collect () { this.set(sources().streamsOpen()) } }) // eslint-disable-line no-new -- registered by construction
    new Gauge({ name: 'agentd_memory_outbox_depth', help: 'Memory writes waiting in the outbox for a store to come back.', registers, collect () { this.set(sources().outboxDepth()) } }) // eslint-disable-line no-new -- registered by construction
    new Gauge({ name: 'agentd_generation', help: 'The serving generation\'s number.', registers, collect () { this.set(sources().generation()) } }) // eslint-disable-line no-new -- registered by construction
  }
}

interface ModelLabels {
  model: Record<'provider' | 'model', string>
  ok: Record<'provider' | 'model' | 'outcome', string>
  error: Record<'provider' | 'model' | 'outcome', string>
  input: Record<'provider' | 'model' | 'type', string>
  output: Record<'provider' | 'model' | 'type', string>
}

const seconds = (span: ReadableSpan): number => span.duration[0] + span.duration[1] / 1e9
const text = (v: unknown): string => typeof v === 'string' ? v : 'unknown'

/** Turns ended spans into the metrics above (every recorded span, sampled or not: see sampler.ts). */
export class MetricsSpanProcessor implements SpanProcessor {
  readonly #m: AgentdMetrics
  constructor (metrics: AgentdMetrics) { this.#m = metrics }

  onStart (_span: Span, _context: Context): void {}

  onEnd (span: ReadableSpan): void {
    const a = span.attributes
    const failed = span.status.code === SpanStatusCode.ERROR
    switch (a['gen_ai.operation.name']) {
      case 'chat': this.#model(span, failed); return
      case 'execute_tool': {
        const server = text(a['agentd.tool.server'])
        this.#m.toolCalls.inc({ server, outcome: failed || a['agentd.tool.outcome'] === 'error' ? 'error' : 'ok' })
        this.#m.toolDuration.observe({ server }, seconds(span))
        return
      }
    }
    if (span.name === 'memory.recall') this.#m.recallDuration.observe(seconds(span))
    else if (typeof a['agentd.job.name'] === 'string') {
      const job = a['agentd.job.name']
      this.#m.jobRuns.inc({ job, outcome: failed ? 'failure' : 'success' })
      this.#m.jobDuration.observe({ job }, seconds(span))
    }
  }

  #model (span: ReadableSpan, failed: boolean): void {
    const a = span.attributes
    const labels = this.#modelLabels(text(a['gen_ai.provider.name']), text(a['gen_ai.request.model']))
    this.#m.modelCalls.inc(failed ? labels.error : labels.ok)
    this.#m.modelDuration.observe(labels.model, seconds(span))
    const first = span.events.find(e => e.name === 'gen_ai.first_token')
    if (first !== undefined) this.#m.firstToken.observe(labels.model, (first.time[0] - span.startTime[0]) + (first.time[1] - span.startTime[1]) / 1e9)
    const input = a['gen_ai.usage.input_tokens']
    const output = a['gen_ai.usage.output_tokens']
    if (typeof input === 'number') this.#m.tokens.inc(labels.input, input)
    if (typeof output === 'number') this.#m.tokens.inc(labels.output, output)
  }

  /** The label sets of one provider and model, made once (a bounded set), not per call. */
  readonly #labelSets = new Map<string, ModelLabels>()
  #modelLabels (provider: string, model: string): ModelLabels {
    const key = `${provider}\u0000${model}`
    let labels = this.#labelSets.get(key)
    if (labels === undefined) {
      const base = { provider, model }
      labels = { model: base, ok: { ...base, outcome: 'ok' }, error: { ...base, outcome: 'error' }, input: { ...base, type: 'input' }, output: { ...base, type: 'output' } }
      this.#labelSets.set(key, labels)
    }
    return labels
  }

  async forceFlush (): Promise<void> {}
  async shutdown (): Promise<void> {}
}
