// The SDK's tracedFetch: while traces are exported, each request carries the active span's
// W3C trace context, whatever shape its headers come in; otherwise it is passed on untouched.
import t from 'tap'
import { context, propagation, trace } from '@opentelemetry/api'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { setTelemetry, tracedFetch } from '@agentd/sdk'

/** A fetch that answers at once and keeps what it was given. */
function recorder (): { fetch: typeof fetch, sent: Array<{ input: Parameters<typeof fetch>[0], init: RequestInit | undefined }> } {
  const sent: Array<{ input: Parameters<typeof fetch>[0], init: RequestInit | undefined }> = []
  return { sent, fetch: async (input, init) => { sent.push({ input, init }); return new Response('ok') } }
}

const provider = new NodeTracerProvider()
provider.register() // W3C trace context propagator and the AsyncLocalStorage context manager
t.teardown(async () => {
  setTelemetry({ propagate: false })
  trace.disable(); context.disable(); propagation.disable()
  await provider.shutdown()
})
const tracer = provider.getTracer('traced-fetch-test')

t.test('traces exported: the active span\'s traceparent on Headers, plain headers and a Request', async t => {
  setTelemetry({ propagate: true })
  const r = recorder()
  const send = tracedFetch(r.fetch)
  const span = tracer.startSpan('call')
  const ctx = span.spanContext()
  const want = `00-${ctx.traceId}-${ctx.spanId}-01`
  await context.with(trace.setSpan(context.active(), span), async () => {
    await send('http://127.0.0.1:9/a', { headers: new Headers({ 'x-one': '1' }) })
    await send('http://127.0.0.1:9/b', { method: 'POST', headers: { 'x-two': '2' }, body: '{}' })
    await send(new Request('http://127.0.0.1:9/c', { headers: { 'x-three': '3' } }))
  })
  span.end()
  const headers = r.sent.map(s => new Headers(s.init?.headers))
  t.same(headers.map(h => h.get('traceparent')), [want, want, want])
  t.same([headers[0].get('x-one'), headers[1].get('x-two'), headers[2].get('x-three')], ['1', '2', '3'], 'the caller\'s headers kept')
  t.equal(r.sent[1].init?.method, 'POST', 'the rest of init kept')
})

t.test('traces not exported: the call is passed on as it came', async t => {
  setTelemetry({ propagate: false })
  const r = recorder()
  const init = { headers: { 'x-one': '1' } }
  const span = tracer.startSpan('call')
  await context.with(trace.setSpan(context.active(), span), async () => { await tracedFetch(r.fetch)('http://127.0.0.1:9/a', init) })
  span.end()
  t.equal(r.sent[0].init, init, 'the same init object')
  t.same(r.sent[0].init?.headers, { 'x-one': '1' }, 'no traceparent added')
})
