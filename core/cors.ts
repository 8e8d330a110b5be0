// CORS for every path: any origin is reflected with credentials allowed (a local server
// that browser pages on other ports talk to), and a preflight (OPTIONS) on any path is
// answered. The API-key check and the rate limit let preflights through (security.ts),
// since browsers send them without the key.
//
// Why not @fastify/cors: configured the same way it cost ~3 us per request (it copies its
// options and builds closures for every request, in an onRequest hook), a tenth of a
// small route's whole cost. Here the dispatcher sets the headers on the raw response
// before routing (Node merges them into the reply's own), so no hook runs. The headers are
// the ones @fastify/cors sends, except that a request without an Origin gets none.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'

/** Called by the dispatcher for every request, before the generation routes it. */
export function applyCors (req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin
  // Only browsers send Origin, and only their requests need an answer to it. Headers set
  // here send Node's writeHead down its slow merging path, so the rest pay nothing.
  if (origin === undefined) return
  res.setHeader('access-control-allow-origin', origin)
  res.setHeader('access-control-allow-credentials', 'true')
  res.setHeader('vary', 'Origin')
}

export interface PreflightOptions { methods: string[], maxAgeSeconds: number }

/** OPTIONS on any path: what may follow, for how long (Safari needs the explicit 0 length). */
export function installPreflight (app: FastifyInstance, opts: PreflightOptions): void {
  const methods = opts.methods.join(', ')
  const maxAge = String(opts.maxAgeSeconds)
  app.options('*', { schema: { hide: true } }, async (request, reply) => {
    void reply.header('vary', 'Origin, Access-Control-Request-Headers')
    void reply.header('access-control-allow-methods', methods)
    const asked = request.headers['access-control-request-headers']
    if (asked !== undefined) void reply.header('access-control-allow-headers', asked)
    void reply.header('access-control-max-age', maxAge)
    await reply.code(204).header('content-length', '0').send()
  })
}
