// The answers of GET /api/health (core/routes.ts), for the OpenAPI document and the serializer.
import { Type } from '@agentd/sdk/typebox'

// A section is its plugin's (translation, memory, mcp...): a status and what else it reports.
const HealthSectionSchema = Type.Object({ status: Type.String() }, { additionalProperties: true })
export const HealthSchema = Type.Object({
  status: Type.String({ description: '`healthy`, `degraded` (a section is unhealthy, in error or starting), or `alive` with `?live=true`.' }),
  ready: Type.Optional(Type.Boolean({ description: 'False while a section is still `starting`.' })),
  starting: Type.Optional(Type.Array(Type.String(), { description: 'The sections still starting.' })),
  version: Type.String(),
  api: Type.Optional(Type.Object({ status: Type.String() })),
}, { additionalProperties: HealthSectionSchema, description: 'Plus one key per section a loaded plugin contributes (`translation`, `mcp`, `memory` with include_memory=true...).' })
export const StartingSchema = Type.Object({
  status: Type.Literal('starting'), ready: Type.Literal(false), version: Type.String(), api: Type.Object({ status: Type.String() }),
  error: Type.String(), code: Type.String(), statusCode: Type.Integer(),
}, { description: 'The plugins are loading (no plugin generation has been activated yet); retry after Retry-After seconds.' })

