// Who may reach the server, as rules shared by the kernel (which checks every request
// before any plugin sees it: core/request-guard.ts, core/cors.ts) and by plugins that must
// apply the same rules themselves (the MCP server's own DNS-rebinding options). Why these
// rules: docs/security.md.
import { networkInterfaces } from 'node:os'
import type { IncomingMessage } from 'node:http'

/** `true`: any Host (AGENT_ALLOWED_HOSTS=*); otherwise exact names and `*.suffix` patterns. */
export interface AllowedHosts { any: boolean, exact: Set<string>, suffixes: string[] }

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]', ''])
const HOST_ENTRY = /^(?:\*\.)?[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$|^\[[0-9a-f:.]+\]$/i

export const isLoopbackHost = (host: string): boolean => LOOPBACK_NAMES.includes(normalizeName(host)) || /^127\.\d+\.\d+\.\d+$/.test(host)

/** A host name as compared: lower case, no trailing dot, IPv6 in brackets. */
function normalizeName (name: string): string {
  let n = name.trim().toLowerCase()
  if (n.endsWith('.')) n = n.slice(0, -1)
  if (n.includes(':') && !n.startsWith('[')) n = `[${n}]`
  return n
}

/** The name part of a Host header value (`[::1]:12319` -> `[::1]`, `Example.org:80` -> `example.org`). */
export function hostName (header: string): string {
  let name = header
  if (header.startsWith('[')) {
    const end = header.indexOf(']')
    name = end < 0 ? header : header.slice(0, end + 1)
  } else {
    const colon = header.lastIndexOf(':')
    if (colon >= 0) name = header.slice(0, colon)
  }
  return normalizeName(name)
}

/**
 * Reads AGENT_ALLOWED_HOSTS (comma-separated names, `*.example.org` for its subdomains, `*`
 * for any) on top of the defaults: localhost, 127.0.0.1, [::1] and the address the server
 * binds (every local interface address when it binds all of them).
 */
export function parseAllowedHosts (spec: string | undefined, bindHost: string): AllowedHosts {
  const entries = (spec ?? '').split(',').map(s => s.trim()).filter(s => s !== '')
  const out: AllowedHosts = { any: entries.includes('*'), exact: new Set(LOOPBACK_NAMES), suffixes: [] }
  if (WILDCARD_BINDS.has(bindHost.trim())) {
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.exact.add(normalizeName(a.address.replace(/%.*$/, '')))
  } else {
    out.exact.add(normalizeName(bindHost))
  }
  for (const e of entries) {
    if (e === '*') continue
    if (!HOST_ENTRY.test(e)) throw new Error(`AGENT_ALLOWED_HOSTS: "${e}" is not a host name; write names such as "agentd.example.org", "*.example.org" (its subdomains), "192.168.1.20" or "*" for any, separated by commas, without scheme or port.`)
    if (e.startsWith('*.')) out.suffixes.push(normalizeName(e.slice(1)))
    else out.exact.add(normalizeName(e))
  }
  return out
}

export function hostAllowed (allowed: AllowedHosts, header: string | undefined): boolean {
  // No Host at all is HTTP/1.0 from a tool, never a browser (Node refuses HTTP/1.1 without one).
  if (allowed.any || header === undefined) return true
  const name = hostName(header)
  if (allowed.exact.has(name)) return true
  for (const s of allowed.suffixes) if (name.endsWith(s) && name.length > s.length) return true
  return false
}

export function originAllowed (origins: CorsOrigins, origin: string): boolean {
  if (origins === true) return true
  const o = origin.toLowerCase()
  for (const rule of origins) if (typeof rule === 'string' ? rule === o : rule.test(origin)) return true
  return false
}

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


// The trust boundary every request crosses first, before any generation (the early one
// included) sees it. agentd runs on a person's laptop, and every web page they visit can
// send requests to it:
//
// - DNS rebinding: a page on attacker.example re-resolves its own name to 127.0.0.1, and
//   the browser then treats agentd's answers as same-origin. The only trace is the `Host`
//   header (`attacker.example:12319`), so only names this machine answers to are served
//   (Jupyter's `local_hostnames`, Vite's `server.allowedHosts`).
// - Cross-site "simple" requests: a form or a no-cors fetch POSTs text/plain, form or empty
//   bodies with no preflight, so CORS never runs. A state-changing request that carries a
//   foreign `Origin` (or `Sec-Fetch-Site: cross-site`) is refused whatever its body.
//
// Cheap by design (a Set lookup and a few string operations): it runs on every request.
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export interface Refusal { code: string, message: string }

/** Decides whether a request may reach the server at all; `undefined` = go on. */
export function createRequestGuard (hosts: AllowedHosts, origins: CorsOrigins): (req: IncomingMessage) => Refusal | undefined {
  // Nearly every request carries the Host the last one did: that answer is remembered.
  let lastAllowed: string | undefined
  return (req) => {
    const host = req.headers.host
    if (host !== lastAllowed && !hostAllowed(hosts, host)) {
      return {
        code: 'AGENT_ERR_HOST_NOT_ALLOWED',
        message: `Host "${String(host)}" is not one this server answers to (a page using DNS rebinding sends its own name). To reach agentd under this name, add "${hostName(host ?? '')}" to AGENT_ALLOWED_HOSTS (comma-separated, "*.example.org" for subdomains) and restart.`,
      }
    }
    lastAllowed = host
    if (!STATE_CHANGING.has(req.method ?? '')) return undefined
    const origin = req.headers.origin
    if (origin !== undefined) {
      if (originAllowed(origins, origin) || sameOrigin(origin, host)) return undefined
      return {
        code: 'AGENT_ERR_ORIGIN_NOT_ALLOWED',
        message: `A ${String(req.method)} from the web page at "${origin}" is refused: pages may change state only from this machine's own origins or those in AGENT_CORS_ORIGINS (comma-separated; restart after changing it).`,
      }
    }
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      return {
        code: 'AGENT_ERR_ORIGIN_NOT_ALLOWED',
        message: `A cross-site ${String(req.method)} (Sec-Fetch-Site: cross-site) without an allowed Origin is refused; pages that may change state are listed in AGENT_CORS_ORIGINS.`,
      }
    }
    return undefined
  }
}

/** The console's own page: its Origin names the very host the request went to (already allowed). */
function sameOrigin (origin: string, host: string | undefined): boolean {
  if (host === undefined) return false
  const at = origin.indexOf('://')
  return at > 0 && origin.slice(at + 3).toLowerCase() === host.toLowerCase()
}
