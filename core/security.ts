// API-key enforcement and rate limiting. Both off by default (single user, loopback).
// The key is read from `X-API-Key` or, as OpenAI clients send it, `Authorization: Bearer`.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Settings } from './config.ts'
import { Errors } from '@agentd/sdk'
import { sendError } from './errors.ts'
import type { RateLimitBackend } from './rate-limit-store.ts'

/** Paths the API-key check lets through (health must answer a load balancer that has no key). */
export const OPEN_PATHS: ReadonlySet<string> = new Set(['/api/health'])

/** Compares digests so neither length nor content leaks through timing. */
export function keyMatches (given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

/** The key a request presents: `X-API-Key`, else the token of `Authorization: Bearer <key>`. */
export function presentedKey (headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers['x-api-key']
  if (typeof header === 'string') return header
  const auth = headers.authorization
  if (typeof auth !== 'string') return undefined
  const m = /^Bearer[ \t]+(\S+)\s*$/i.exec(auth)
  return m === null ? undefined : m[1]
}

function isPreflight (method: string, headers: Record<string, unknown>): boolean {
  return method === 'OPTIONS' && headers['access-control-request-method'] !== undefined
}

export async function installSecurity (app: FastifyInstance, settings: Settings, limits: RateLimitBackend): Promise<void> {
  if (settings.rateLimitEnabled) {
    // Loaded only where rate limiting is on (off by default).
    const { default: rateLimit } = await import('@fastify/rate-limit')
    await app.register(rateLimit, {
      global: true,
      max: settings.rateLimit.max,
      timeWindow: settings.rateLimit.windowMs,
      // The kernel's counts (memory, or Redis: shared by a cluster), not this generation's: a reload keeps them.
      ...limits.options(),
      allowList: (request) => isPreflight(request.method, request.headers),
      errorResponseBuilder: (_request, context) => Object.assign(
        new Errors.RATE_LIMITED(`${context.max} requests per ${settings.rateLimit.spec}`),
        { retryAfter: Math.ceil(context.ttl / 1000) },
      ),
    })
  }
  if (settings.apiKeyRequired && settings.apiKey !== undefined) {
    const expected = settings.apiKey
    // @fastify/rate-limit counts in a route-level hook, which a request refused here never
    // reaches: a refused key is counted explicitly against the same allowance, so with rate
    // limiting on, guessing the key is limited too (past the limit: 429 instead of 401).
    const countFailure = settings.rateLimitEnabled ? app.rateLimit() : undefined
    app.addHook('onRequest', async (request, reply) => {
      if (isPreflight(request.method, request.headers) || OPEN_PATHS.has(request.url.split('?')[0])) return
      // Routes that declare `config: { public: true }` hold no data (the console's files).
      if (request.routeOptions.config.public === true) return
      const given = presentedKey(request.headers)
      if (given !== undefined && keyMatches(given, expected)) return
      if (countFailure !== undefined) await countFailure.call(app, request, reply)
      return await sendError(reply, new Errors.UNAUTHORIZED())
    })
  }
}
