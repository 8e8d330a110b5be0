// Per request, once its response is done: the HTTP metrics (route template, not the raw
// path, so ids in paths do not explode the series) and, when on, the access log line.
// One onResponse hook for both; none at all when both are off.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AgentdMetrics } from './metrics.ts'

export function installHttpHook (app: FastifyInstance, metrics: AgentdMetrics | undefined, accessLog: boolean): void {
  if (metrics === undefined && !accessLog) return
  app.addHook('onResponse', function (request: FastifyRequest, reply: FastifyReply, done: () => void) {
    const route = request.routeOptions.url ?? 'unmatched'
    const ms = reply.elapsedTime
    if (metrics !== undefined) {
      const labels = { method: request.method, route, status: String(reply.statusCode) }
      metrics.httpRequests.inc(labels)
      metrics.httpDuration.observe(labels, ms / 1000)
    }
    if (accessLog) request.log.info({ method: request.method, route, url: request.url, status: reply.statusCode, ms: Math.round(ms * 100) / 100 }, 'request done')
    done()
  })
}
