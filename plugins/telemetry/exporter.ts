// The OTLP exporter for the configured protocol, imported only when traces are on: the
// two exporter packages (protobufjs with them) are ~0.3 s of CPU and ~17 MB of a start
// that only serves metrics, which is every start without OTEL_EXPORTER_OTLP_ENDPOINT.
import type { SpanExporter } from '@opentelemetry/sdk-trace-base'
import type { TraceConfig } from './otel-config.ts'

export async function createExporter (t: TraceConfig): Promise<SpanExporter> {
  const options = { url: t.url, headers: t.headers }
  if (t.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http')
    return new OTLPTraceExporter(options)
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto')
  return new OTLPTraceExporter(options)
}
