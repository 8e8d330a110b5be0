// An OpenTelemetry collector stand-in: an OTLP/HTTP receiver on loopback that takes
// POST /v1/traces in the OTLP JSON encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json, what
// @opentelemetry/exporter-trace-otlp-http sends) and keeps every span, flattened: ids as
// hex, attributes as plain values, the resource's attributes beside each span.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'

type AnyValue = { stringValue?: string, intValue?: string | number, doubleValue?: number, boolValue?: boolean, arrayValue?: { values?: AnyValue[] } }
type KeyValue = { key: string, value: AnyValue }
interface OtlpSpan { traceId: string, spanId: string, parentSpanId?: string, name: string, kind: number, startTimeUnixNano: string, endTimeUnixNano: string, attributes?: KeyValue[], events?: Array<{ name: string }>, status?: { code?: number } }
interface OtlpRequest { resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }, scopeSpans?: Array<{ spans?: OtlpSpan[] }> }> }

export type AttrValue = string | number | boolean | AttrValue[] | undefined

export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId: string | undefined
  name: string
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number
  attributes: Record<string, AttrValue>
  resource: Record<string, AttrValue>
  events: string[]
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: number
}

function value (v: AnyValue): AttrValue {
  if (v.stringValue !== undefined) return v.stringValue
  if (v.intValue !== undefined) return Number(v.intValue)
  if (v.doubleValue !== undefined) return v.doubleValue
  if (v.boolValue !== undefined) return v.boolValue
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(value)
  return undefined
}

const attrs = (list: KeyValue[] | undefined): Record<string, AttrValue> => Object.fromEntries((list ?? []).map(kv => [kv.key, value(kv.value)]))

export interface OtlpReceiver {
  url: string
  spans: ReceivedSpan[]
  /** Requests that were not OTLP JSON (content type or body). */
  rejected: number
}

export async function startOtlpReceiver (t: Test): Promise<OtlpReceiver> {
  const state: OtlpReceiver = { url: '', spans: [], rejected: 0 }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || req.headers['content-type']?.startsWith('application/json') !== true) {
        state.rejected++
        res.writeHead(415).end()
        return
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest
      for (const rs of body.resourceSpans ?? []) {
        const resource = attrs(rs.resource?.attributes)
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            state.spans.push({
              traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId === '' ? undefined : s.parentSpanId,
              name: s.name, kind: s.kind, attributes: attrs(s.attributes), resource,
              events: (s.events ?? []).map(e => e.name), status: s.status?.code ?? 0,
            })
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  t.teardown(async () => { server.closeAllConnections(); await new Promise(resolve => server.close(resolve)) })
  return state
}
