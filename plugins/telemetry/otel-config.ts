// The standard OpenTelemetry environment variables, read from the kernel's environment
// (process variables over `.env`) rather than process.env, so a test or a `.env` edit
// configures it like everything else. Traces are on only when an OTLP exporter is asked
// for: OTEL_TRACES_EXPORTER=otlp, or an OTLP endpoint set with OTEL_TRACES_EXPORTER unset.
import type { Env } from '@agentd/sdk'

export type OtlpProtocol = 'http/protobuf' | 'http/json'

export interface TraceConfig {
  serviceName: string
  /** The traces endpoint, path included (…/v1/traces). */
  url: string
  protocol: OtlpProtocol
  headers: Record<string, string>
  sampler: string
  samplerArg: string | undefined
  resourceAttributes: Record<string, string>
  /** The batch span processor's OTEL_BSP_* settings (those set; the SDK's defaults otherwise). */
  batch: BatchSettings
}

export interface BatchSettings {
  scheduledDelayMillis?: number
  exportTimeoutMillis?: number
  maxQueueSize?: number
  maxExportBatchSize?: number
}

/** A positive integer setting, or undefined (unset or not one: the SDK's default stands). */
function positive (text: string | undefined): number | undefined {
  const n = Number(text?.trim())
  return text === undefined || text.trim() === '' || !Number.isInteger(n) || n <= 0 ? undefined : n
}

/** OTEL_BSP_*: the SDK no longer reads them itself (sdk-trace 2.x), so they are passed as options. */
function batchSettings (env: Env): BatchSettings {
  const entries = {
    scheduledDelayMillis: positive(env.OTEL_BSP_SCHEDULE_DELAY),
    exportTimeoutMillis: positive(env.OTEL_BSP_EXPORT_TIMEOUT),
    maxQueueSize: positive(env.OTEL_BSP_MAX_QUEUE_SIZE),
    maxExportBatchSize: positive(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE),
  }
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined))
}

/** `k=v,k2=v2` (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES), values percent-decoded. */
export function parseKeyValues (text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const pair of (text ?? '').split(',')) {
    const i = pair.indexOf('=')
    if (i <= 0) continue
    try { out[pair.slice(0, i).trim()] = decodeURIComponent(pair.slice(i + 1).trim()) } catch { out[pair.slice(0, i).trim()] = pair.slice(i + 1).trim() }
  }
  return out
}

/** What to trace and where to send it; undefined when tracing is off. */
export function traceConfig (env: Env): TraceConfig | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map(s => s.trim().toLowerCase()).filter(s => s !== '')
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()
  const asked = exporters.length === 0 ? (specific ?? base ?? '') !== '' : exporters.includes('otlp')
  if (!asked) return undefined
  // The signal-specific endpoint is used as given; the base one gets the signal's path (the spec's rule).
  const url = specific !== undefined && specific !== '' ? specific : `${(base !== undefined && base !== '' ? base : 'http://localhost:4318').replace(/\/+$/, '')}/v1/traces`
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim() === 'http/json' ? 'http/json' : 'http/protobuf'
  const resourceAttributes = parseKeyValues(env.OTEL_RESOURCE_ATTRIBUTES)
  return {
    serviceName: env.OTEL_SERVICE_NAME?.trim() || resourceAttributes['service.name'] || 'agentd',
    url,
    protocol,
    headers: { ...parseKeyValues(env.OTEL_EXPORTER_OTLP_HEADERS), ...parseKeyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) },
    sampler: (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim().toLowerCase(),
    samplerArg: env.OTEL_TRACES_SAMPLER_ARG?.trim(),
    resourceAttributes,
    batch: batchSettings(env),
  }
}
