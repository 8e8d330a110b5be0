// OTEL_TRACES_SAMPLER honoured, with the metrics' spans recorded whatever it decides: a
// dropped model, tool, recall or job span is recorded (the metrics count it) but not
// sampled (not exported); any other dropped span (the HTTP request's) is not recorded.
import t from 'tap'
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api'
import { SamplingDecision } from '@opentelemetry/sdk-trace-base'
import { RecordingSampler, samplerFromEnv } from './sampler.ts'

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const decide = (sampler: string, arg: string | undefined, name: string, attributes: Record<string, string>): SamplingDecision =>
  new RecordingSampler(samplerFromEnv(sampler, arg)).shouldSample(ROOT_CONTEXT, TRACE, name, SpanKind.INTERNAL, attributes, []).decision

const metricsSpans: Array<[string, Record<string, string>]> = [
  ['chat gpt-4o-mini', { 'gen_ai.operation.name': 'chat' }],
  ['execute_tool calculate', { 'gen_ai.operation.name': 'execute_tool' }],
  ['memory.recall', {}],
  ['job quick', { 'agentd.job.name': 'quick' }],
]

t.test('a sampler that drops the trace: the metrics\' spans recorded, not sampled; the HTTP span not recorded', async t => {
  for (const [sampler, arg] of [['always_off', undefined], ['traceidratio', '0'], ['parentbased_traceidratio', '0'], ['parentbased_always_off', undefined]] as const) {
    for (const [name, attributes] of metricsSpans) t.equal(decide(sampler, arg, name, attributes), SamplingDecision.RECORD, `${sampler}: ${name}`)
    t.equal(decide(sampler, arg, 'POST /api/agent/chat', { 'http.route': '/api/agent/chat' }), SamplingDecision.NOT_RECORD, `${sampler}: the HTTP request's span`)
  }
})

t.test('a sampler that keeps the trace: every span sampled', async t => {
  for (const [sampler, arg] of [['always_on', undefined], ['parentbased_always_on', undefined], ['traceidratio', '1'], ['no_such_sampler', undefined]] as const) {
    for (const [name, attributes] of [...metricsSpans, ['POST /api/agent/chat', { 'http.route': '/api/agent/chat' }] as [string, Record<string, string>]]) {
      t.equal(decide(sampler, arg, name, attributes), SamplingDecision.RECORD_AND_SAMPLED, `${sampler}: ${name}`)
    }
  }
})
