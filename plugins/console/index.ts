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
import zlib from 'node:zlib'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import compress from '@fastify/compress'
import { Type } from '@agentd/sdk/typebox'
import { Errors } from '@agentd/sdk'
import { vendorFiles } from './vendor.ts'

export const options = Type.Object({}, { additionalProperties: false })

const PUBLIC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'public')

async function consolePlugin (app: FastifyInstance): Promise<void> {
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
  app.get('/console/vendor/*', { schema: { hide: true } }, async (request, reply) => {
    const name = (request.params as { '*': string })['*']
    const file = vendor.get(name)
    if (file === undefined) throw new Errors.NOT_FOUND(`No console library "${name}".`)
    return await reply.type('text/javascript; charset=utf-8').sendFile(path.basename(file), path.dirname(file))
  })

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    return await reply.header('cache-control', 'no-cache').sendFile('index.html')
  })
}

export default consolePlugin
