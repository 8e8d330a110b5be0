// For the kernel's OpenAPI document (core/openapi.ts): what it says beyond each route's own schema: who may call an
// operation (the API key, sent as X-API-Key or as OpenAI clients send it, a Bearer token)
// and the one error body every operation answers with on failure (errors.ts).

/** The error body of every 4xx/5xx answer (DECISIONS.md): the `Error` component. */
/** The document's info.description: how keys, errors and streams work across the API. */
export const API_DESCRIPTION = 'A self-hosted agent server. Every capability is a plugin; see docs/plugins.md. ' +
  'With AGENT_API_KEY_REQUIRED=true every operation but /api/health needs the key (Authorize: X-API-Key, or Bearer as OpenAI clients send it). ' +
  'Errors are the `Error` body. Streams are Server-Sent Events: `event:` names the event, `data:` holds one line of JSON.'

export const ERROR_SCHEMA = {
  type: 'object' as const,
  description: 'Every error answer: a message for people, a stable code for programs (AGENT_ERR_*, per DECISIONS.md), the HTTP status, and details where they help (the fields a validation refused).',
  required: ['error', 'code', 'statusCode'],
  properties: {
    error: { type: 'string', description: 'What went wrong and, where there is one, the fix.' },
    code: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$', example: 'AGENT_ERR_VALIDATION' },
    statusCode: { type: 'integer', minimum: 400, maximum: 599 },
    details: { description: 'Optional: per-field reasons of a validation error, or the limit that was hit.' },
    request_id: { type: 'string', description: 'Optional: the request id (also in the X-Request-Id header), to find the request in the log.' },
  },
}

export const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'AGENT_API_KEY, required on every route but /api/health and the console\'s files when AGENT_API_KEY_REQUIRED=true (off by default: single user on loopback).' },
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'The same key as `Authorization: Bearer <AGENT_API_KEY>`, as OpenAI clients send it (the /v1 routes: set the client\'s api_key to AGENT_API_KEY).' },
} as const

/** Either scheme opens a protected operation. */
const PROTECTED = [{ apiKey: [] }, { bearerAuth: [] }]

interface RouteConfig { public?: boolean, openapiErrors?: { name: string, schema: Record<string, unknown> } }
/** The operation's key naming its own error component (see withErrorResponses). */
const OWN_ERRORS = 'x-agentd-errors'

/**
 * A route's schema as the document shows it: its `security` (none for the paths the
 * API-key check lets through, security.ts), and the error component it names, if its
 * errors have a shape of their own (`config.openapiErrors`, registered as a component).
 */
export function documentedSchema (schema: Record<string, unknown> | undefined, url: string, config: RouteConfig | undefined, openPaths: ReadonlySet<string>, doc: OpenApiObject): Record<string, unknown> {
  const open = openPaths.has(url) || config?.public === true
  const own = config?.openapiErrors
  if (own !== undefined) ((doc.components ??= {}).schemas as Record<string, unknown>)[own.name] = own.schema
  return { ...schema, security: open ? [] : PROTECTED, ...(own === undefined ? {} : { [OWN_ERRORS]: own.name }) }
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

interface Response { description?: string, content?: unknown }
export interface OpenApiObject { paths?: Record<string, Record<string, Operation>>, components?: Record<string, unknown> }
interface Operation { responses?: Record<string, Response>, security?: unknown[], [OWN_ERRORS]?: string }
/**
 * Every operation's error answers point at the `Error` component: the codes a route
 * declares keep their description, and `4XX`/`5XX` cover the rest (a validation 400, a
 * 401 without the key, a 429 past the rate limit, a 503 while starting or busy).
 */
export function withErrorResponses (doc: OpenApiObject): OpenApiObject {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue
      const responses = op.responses ?? (op.responses = {})
      const name = op[OWN_ERRORS] ?? 'Error'
      delete op[OWN_ERRORS]
      const content = name === 'Error' ? ERROR_CONTENT : { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } }
      for (const [code, r] of Object.entries(responses)) {
        // A route's own error schema (a 503 with more fields, /v1's OpenAI shape) stays as declared.
        if (/^[45]/.test(code) && r.content === undefined) responses[code] = { description: r.description === 'Default Response' || r.description === undefined ? 'Error' : r.description, content }
      }
      responses['4XX'] ??= { description: 'The request was refused (bad input, unknown id, missing API key, rate limit...).', content }
      responses['5XX'] ??= { description: 'The server or an upstream it called failed, or it is starting or busy (503 with Retry-After).', content }
    }
  }
  return doc
}
