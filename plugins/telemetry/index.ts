// Plugin: observability. OpenTelemetry traces (off unless the standard OTEL_* variables
// ask for them), Prometheus metrics at GET /metrics, and the access log.
//
// The spans themselves are written where the work is (the SDK's kernel/telemetry.ts: the
// provider middleware, the tool set, recall, job runs), against the OpenTelemetry API,
// which does nothing until this plugin registers a tracer provider. The HTTP request's
// span comes from @fastify/otel, the Fastify team's instrumentation, registered in each
// generation's Fastify instance (the kernel's http.Server never changes; each generation is
// a new Fastify app, so the instrumentation is a plugin of the app, not a patch of the
// module). List this plugin first in plugins.json: it instruments routes registered after it.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { currentCap, type PluginOptions } from '@agentd/sdk'
import { options, type TelemetryOptions } from './options.ts'
import { traceConfig } from './otel-config.ts'
import { AgentdMetrics, MetricsSpanProcessor } from './metrics.ts'
import { ProcessTracer } from './tracer.ts'
import { createExporter } from './exporter.ts'
import { installHttpHook } from './http-hook.ts'
import { metricsRoute } from './routes.ts'

export { options }

function flag (value: string | undefined): boolean | undefined {
  const v = value?.trim().toLowerCase()
  return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : undefined
}

async function telemetry (app: FastifyInstance, opts: PluginOptions<TelemetryOptions>): Promise<void> {
  const env = app.agentConfig.env
  const trace = traceConfig(env)
  const captureContent = flag(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT) ?? opts.capture_content
  const metrics = opts.metrics ? await app.resources.acquire({ kind: 'telemetry:metrics', options: {}, create: () => new AgentdMetrics() }) : undefined

  if (trace !== undefined || metrics !== undefined) {
    const version = app.kernel.version
    // Keyed by its settings: a reload with the same ones keeps the provider (and its batch).
    const tracer = await app.resources.acquire({
      kind: 'telemetry:tracer',
      options: { trace, captureContent, metrics: metrics !== undefined, version },
      create: async () => new ProcessTracer({ trace, version, captureContent, exporter: trace === undefined ? undefined : await createExporter(trace) }, metrics === undefined ? [] : [new MetricsSpanProcessor(metrics)]),
      dispose: async (t) => { await t.shutdown() },
    })
    app.decorate('telemetry', { flush: async () => { await tracer.flush() } })
    if (trace !== undefined) {
      const { FastifyOtelInstrumentation } = await import('@fastify/otel')
      // One span per request, named as HTTP's semantic conventions name a server span (`GET /api/x`);
      // no span per Fastify hook or for the handler (named after the plugin chain, saying little).
      const instrumentation = new FastifyOtelInstrumentation({
        instrumentHooks: false,
        instrumentHandler: false,
        requestHook: (span, request) => { const url = request.routeOptions.url; span.updateName(url === undefined ? request.method : `${request.method} ${url}`) },
      })
      instrumentation.setTracerProvider(tracer.provider)
      await app.register(instrumentation.plugin())
    }
  }

  const accessLog = flag(env.AGENT_ACCESS_LOG) ?? (opts.access_log === 'auto' ? process.stdout.isTTY === true : opts.access_log)
  installHttpHook(app, metrics, accessLog)
  if (metrics === undefined) return

  const streams = currentCap('streams')
  app.lifecycle.add({
    name: 'telemetry',
    activate: () => {
      // The serving generation's sources; the first activation is the start, the others reloads.
      metrics.sources = {
        streamsOpen: () => streams.active,
        outboxDepth: () => app.registry.memoryServices.values().reduce((n, s) => n + (s.outboxDepth?.() ?? 0), 0),
        generation: () => app.kernel.generation(),
      }
      if (metrics.activations++ > 0) metrics.reloads.inc()
    },
  })
  await app.register(metricsRoute, { metrics })
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Present while telemetry is on: `flush()` exports the spans batched so far. */
    telemetry?: { flush: () => Promise<void> }
  }
}

export default fp(telemetry, { name: 'telemetry', fastify: '5.x' })
