// Per request, once its response is done: the HTTP metrics (route template, not the raw
// path, so ids in paths do not explode the series) and, when on, the access log line.
// One onResponse hook for both; none at all when both are off.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AgentdMetrics } from './metrics.ts'

type HttpLabels = Record<'method' | 'route' | 'status', string>

export function installHttpHook (app: FastifyInstance, metrics: AgentdMetrics | undefined, accessLog: boolean): void {
  if (metrics === undefined && !accessLog) return
  // One labels object per method, route template and status (a bounded set), not one per request.
  const labelSets = new Map<string, HttpLabels>()
  const labelsOf = (method: string, route: string, status: number): HttpLabels => {
    const key = `${status} ${method} ${route}`
    let labels = labelSets.get(key)
    if (labels === undefined) labelSets.set(key, labels = { method, route, status: String(status) })
    return labels
  }
  app.addHook('onResponse', function (request: FastifyRequest, reply: FastifyReply, done: () => void) {
    const route = request.routeOptions.url ?? 'unmatched'
    const ms = reply.elapsedTime
    if (metrics !== undefined) {
      const labels = labelsOf(request.method, route, reply.statusCode)
      metrics.httpRequests.inc(labels)
      metrics.httpDuration.observe(labels, ms / 1000)
    }
    if (accessLog) request.log.info({ method: request.method, route, url: request.url, status: reply.statusCode, ms: Math.round(ms * 100) / 100 }, 'request done')
    done()
  })
}
