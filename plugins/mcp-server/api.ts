// The MCP server is an API client of this server: every tool and resource is one call of
// the public HTTP API, made in process (Fastify's inject) with the caller's X-API-Key. So
// the MCP face answers exactly what the API answers (validation, 404s, 503s while a store
// is down), needs no plugin's internals, and a disabled plugin simply makes its tool say so.
import type { FastifyInstance } from 'fastify'

export interface ApiAnswer { status: number, body: unknown }

export type CallApi = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, body?: unknown) => Promise<ApiAnswer>

export function apiCaller (app: FastifyInstance, apiKey: string | undefined): CallApi {
  return async (method, url, body) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
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
