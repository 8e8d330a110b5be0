// OpenAPI document generated from the TypeBox route schemas, served at /docs. Loaded with
// the first full generation, not before the kernel's starting routes answer: swagger and
// its UI are the biggest modules the kernel would otherwise import at start.
import type { FastifyInstance } from 'fastify'

export async function installOpenApi (app: FastifyInstance, version: string): Promise<void> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([import('@fastify/swagger'), import('@fastify/swagger-ui')])
  await app.register(swagger, {
    openapi: {
      info: { title: 'agentd', description: 'A self-hosted agent server. Every capability is a plugin; see docs/plugins.md.', version },
      components: { securitySchemes: { apiKey: { type: 'apiKey', name: 'X-API-Key', in: 'header' } } },
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })
}
