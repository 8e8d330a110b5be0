// GET /metrics: the process's registry in the Prometheus text format. An ordinary route,
// so the API key covers it when one is required (a scraper sends it as a Bearer token).
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { AgentdMetrics } from './metrics.ts'

export async function metricsRoute (app: FastifyInstance, opts: { metrics: AgentdMetrics }): Promise<void> {
  const { registry } = opts.metrics
  app.get('/metrics', {
    schema: {
      tags: ['operations'],
      summary: 'Prometheus metrics of this process (text exposition format 0.0.4)',
      produces: ['text/plain'],
      response: { 200: Type.String({ description: 'Prometheus text format' }) },
    },
  }, async (_request, reply) => {
    const text = await registry.metrics()
    return await reply.type(registry.contentType).send(text)
  })
}
