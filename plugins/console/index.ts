// Plugin: the web console, a single page at `/` for the one person who owns the server.
// No build step: the browser loads plain ES modules (public/js) and three small libraries
// straight from node_modules through an import map (vendor.ts), so `npm ci && npm start`
// serves it offline. The page calls the public API like any other client.
//
// Not wrapped in fastify-plugin on purpose: its routes, the compression hook and the
// `public` route flag live in this plugin's own encapsulated context, so the API's routes
// get no extra hook (the kernel bench is unchanged) and disabling the plugin leaves the
// API exactly as it was (`/` is then a JSON 404 again).
import path from 'node:path'
import { readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import zlib from 'node:zlib'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import compress from '@fastify/compress'
import { Type } from '@agentd/sdk/typebox'
import { Errors } from '@agentd/sdk'
import { vendorFiles, wrappedModules } from './vendor.ts'

export const options = Type.Object({}, { additionalProperties: false })

const PUBLIC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'public')

/**
 * The console's security headers. `default-src 'self'`: the page loads only its own files
 * and talks only to this server; the one inline script (the import map) is allowed by its
 * hash; `frame-ancestors 'none'` (and X-Frame-Options for older browsers) so no other site
 * can frame it and trick a click. Styles set by the page's scripts are allowed.
 */
export function securityHeaders (indexHtml: string): Record<string, string> {
  const inline = [...indexHtml.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map(m => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`)
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${inline.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  }
}

async function consolePlugin (app: FastifyInstance): Promise<void> {
  const headers = securityHeaders(readFileSync(path.join(PUBLIC, 'index.html'), 'utf8'))
  // Encapsulated like the rest: the console's answers only.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(headers)
    return payload
  })
  // The page and its scripts hold no data: they load without X-API-Key and then ask for it.
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), public: true }
  })
  // Encapsulated: compresses the console's files only, never an API answer.
  // Brotli at quality 4: within a few % of the default 11's size on these files, at a
  // fraction of its CPU (quality 11 took tens of ms per file on a busy machine).
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } })
  await app.register(fastifyStatic, {
    root: PUBLIC,
    prefix: '/console/',
    index: false,
    // Revalidated on every load (ETag -> 304), so a new version shows up at once.
    cacheControl: true,
    maxAge: 0,
  })

  const vendor = vendorFiles()
  const wrapped = wrappedModules()
  const wrappedTag = new Map([...wrapped].map(([name, text]) => [name, `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`]))
  app.get('/console/vendor/*', { schema: { hide: true } }, async (request, reply) => {
    const name = (request.params as { '*': string })['*']
    const text = wrapped.get(name)
    if (text !== undefined) {
      // Revalidated like the files (ETag -> 304).
      const etag = wrappedTag.get(name) ?? ''
      reply.header('etag', etag).header('cache-control', 'public, max-age=0').type('text/javascript; charset=utf-8')
      return request.headers['if-none-match'] === etag ? await reply.code(304).send() : text
    }
    const file = vendor.get(name)
    if (file === undefined) throw new Errors.NOT_FOUND(`No console library "${name}".`)
    return await reply.type('text/javascript; charset=utf-8').sendFile(path.basename(file), path.dirname(file))
  })

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    return await reply.header('cache-control', 'no-cache').sendFile('index.html')
  })
}

export default consolePlugin
