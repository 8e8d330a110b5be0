// CORS for every generation, with @fastify/cors and an origin allow-list.
//
// Why an allow-list: the server changes its own configuration (POST /api/config/update)
// and runs tools, so reflecting any Origin with credentials would let every web page the
// user visits drive it. By default only pages served from this machine (http(s) on
// localhost, 127.0.0.1 or [::1], any port) may read responses, as Ollama's OLLAMA_ORIGINS
// does; AGENT_CORS_ORIGINS adds origins, and `*` allows any.
//
// A preflight (OPTIONS) is answered with 204 on every path, whoever asks: a foreign origin
// simply gets no Access-Control-Allow-Origin, so the browser refuses to go on.
import cors, { type FastifyCorsOptions } from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import type { CorsOrigins } from '@agentd/sdk'

export { parseCorsOrigins, LOOPBACK_ORIGIN, DESKTOP_APP_ORIGINS, type CorsOrigins } from '@agentd/sdk'

/** The exact @fastify/cors options every generation registers (the kernel bench's baseline uses them too). */
export function corsOptions (origins: CorsOrigins): FastifyCorsOptions {
  return {
    origin: origins,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    maxAge: 600,
    // An OPTIONS without Origin or Access-Control-Request-Method (curl, a probe) gets the
    // same 204 instead of a text/plain 400.
    strictPreflight: false,
  }
}

export async function installCors (app: FastifyInstance, origins: CorsOrigins): Promise<void> {
  await app.register(cors, corsOptions(origins))
}
