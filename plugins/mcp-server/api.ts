// The MCP server is an API client of this server: every tool and resource is one call of
// the public HTTP API, made in process (Fastify's inject) with the caller's credentials (X-API-Key or
// Authorization: Bearer, whichever it sent). So
// the MCP face answers exactly what the API answers (validation, 404s, 503s while a store
// is down), needs no plugin's internals, and a disabled plugin simply makes its tool say so.
import type { FastifyInstance } from 'fastify'

export interface ApiAnswer { status: number, body: unknown }

export type CallApi = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, body?: unknown) => Promise<ApiAnswer>

/** The headers that carry an API key (the kernel reads either): passed on as the client sent them. */
const CREDENTIAL_HEADERS = ['x-api-key', 'authorization'] as const

/** The client's credentials, whichever it presented, to send with each call it causes. */
export function credentialsOf (headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of CREDENTIAL_HEADERS) {
    const v = headers[name]
    if (typeof v === 'string') out[name] = v
  }
  return out
}

export function apiCaller (app: FastifyInstance, credentials: Readonly<Record<string, string>>): CallApi {
  return async (method, url, body) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...credentials, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    })
    let parsed: unknown = res.body
    try { parsed = res.body === '' ? undefined : JSON.parse(res.body) } catch { /* not JSON: kept as text */ }
    return { status: res.statusCode, body: parsed }
  }
}

/** The API's error sentence (DECISIONS.md body) or a generic one. */
export function errorText (a: ApiAnswer): string {
  const b = a.body as { error?: unknown, code?: unknown } | undefined
  return typeof b?.error === 'string' ? `${b.error}${typeof b.code === 'string' ? ` (${b.code}, HTTP ${a.status})` : ''}` : `HTTP ${a.status}`
}
