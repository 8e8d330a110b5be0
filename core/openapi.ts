// OpenAPI document generated from the TypeBox route schemas, served at /docs.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'

export async function installOpenApi (app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'agentd', description: 'A self-hosted agent server. Every capability is a plugin; see docs/plugins.md.', version },
      components: { securitySchemes: { apiKey: { type: 'apiKey', name: 'X-API-Key', in: 'header' } } },
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })
}
