// OpenAPI document generated from the TypeBox route schemas, served at /docs. Loaded with
// the first full generation, not before the kernel's starting routes answer: swagger and
// its UI are the biggest modules the kernel would otherwise import at start.
import type { FastifyInstance } from 'fastify'
import { API_DESCRIPTION, ERROR_SCHEMA, SECURITY_SCHEMES, documentedSchema, withErrorResponses, type OpenApiObject } from '@agentd/sdk'
import { OPEN_PATHS } from './security.ts'

export async function installOpenApi (app: FastifyInstance, version: string): Promise<void> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([import('@fastify/swagger'), import('@fastify/swagger-ui')])
  await app.register(swagger, {
    openapi: {
      // 3.1: its schemas are JSON Schema 2020-12, what TypeBox writes (numeric exclusiveMinimum, const, null types).
      openapi: '3.1.0',
      info: { title: 'agentd', version, description: API_DESCRIPTION },
      // The swagger types model OpenAPI 3.0 schema objects; this one is plain JSON Schema.
      components: { securitySchemes: SECURITY_SCHEMES, schemas: { Error: ERROR_SCHEMA as never } },
    },
    // Per route: who may call it (security.ts lets /api/health and `config.public` routes through), its own error shape.
    transform: (input) => {
      const { schema, url, route } = input
      const doc = (input as unknown as { openapiObject: OpenApiObject }).openapiObject
      return { schema: documentedSchema(schema as Record<string, unknown> | undefined, url, route.config, OPEN_PATHS, doc) as never, url }
    },
    transformObject: (documents) => withErrorResponses((documents as { openapiObject: OpenApiObject }).openapiObject) as never,
  })
  // The UI and the document hold no data and load without the key (like the console's
  // files), so with AGENT_API_KEY_REQUIRED a browser can open /docs and use Authorize.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => { route.config = { ...(route.config ?? {}), public: true } })
    await docs.register(swaggerUi, { routePrefix: '/docs', uiConfig: { persistAuthorization: true } })
  })
}
