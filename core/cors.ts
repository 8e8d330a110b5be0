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

/** `true` reflects any origin; otherwise the exact origins and patterns allowed. */
export type CorsOrigins = true | Array<string | RegExp>

/** http(s) pages served from this machine, on any port. */
export const LOOPBACK_ORIGIN = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/

/**
 * Desktop-app pages (Tauri: `tauri://localhost` on macOS and Linux, `http://tauri.localhost`
 * on Windows). Only an app installed on this machine has these origins; the original
 * system's client ships as one.
 */
export const DESKTOP_APP_ORIGINS = ['tauri://localhost', 'http://tauri.localhost', 'https://tauri.localhost']

const ORIGIN_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[^\s/]+$/i

/**
 * Reads AGENT_CORS_ORIGINS: comma-separated origins (`https://app.example.com`), `*` in an
 * origin as a wildcard (`https://*.example.com`, `chrome-extension://*`), or `*` alone for
 * any origin. The loopback default always stays allowed.
 */
export function parseCorsOrigins (spec: string | undefined): CorsOrigins {
  const entries = (spec ?? '').split(',').map(s => s.trim().replace(/\/+$/, '')).filter(s => s !== '')
  if (entries.includes('*')) return true
  const out: Array<string | RegExp> = [LOOPBACK_ORIGIN, ...DESKTOP_APP_ORIGINS]
  for (const e of entries) {
    if (!ORIGIN_SHAPE.test(e)) {
      throw new Error(`AGENT_CORS_ORIGINS: "${e}" is not an origin; write scheme://host[:port] (e.g. "https://app.example.com", "https://*.example.com") or "*" for any, separated by commas.`)
    }
    if (!e.includes('*')) { out.push(e.toLowerCase()); continue }
    const pattern = e.split('*').map(part => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')
    out.push(new RegExp(`^${pattern}$`, 'i'))
  }
  return out
}

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
