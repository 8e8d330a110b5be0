// DNS-rebinding protection on /mcp with the MCP SDK's own transport options
// (`enableDnsRebindingProtection`, `allowedHosts`, `allowedOrigins`), as the MCP
// specification asks of a streamable HTTP server on the user's machine. The kernel checks
// Host and Origin on every route before any plugin runs; this is the second layer, and it
// must agree with the first, or a client the kernel lets through would meet a 403 here.
//
// The SDK compares exact strings (`Host: localhost:12319`), while the rules are "these
// names, on any port" and wildcards (`*.example.org`). So the lists are built for each
// request (the server makes a transport per POST anyway): the loopback names and the bound
// address with the port the request arrived on, plus the request's own Host (and Origin)
// when the same rules the kernel applies accept it. A foreign Host or Origin is then
// absent from the lists and the SDK answers 403 itself.
//
// The rules (docs/security.md): hosts are localhost, 127.0.0.1, [::1] and API_HOST on any
// port, plus AGENT_ALLOWED_HOSTS (comma-separated names, `*.example.org` for a domain and
// its subdomains, `*` for any: behind a proxy that checks Host itself). Origins are pages
// on the loopback names (http or https, any port), AGENT_CORS_ORIGINS (exact origins,
// `*` inside one as a wildcard, `*` alone for any), and a page of this server itself (its
// Origin names the Host the request was sent to, which the host rule has already accepted).
import type { Env } from '@agentd/sdk'

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']
const LOOPBACK_ORIGIN = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/i

export interface TransportGuard {
  enableDnsRebindingProtection: boolean
  allowedHosts: string[]
  allowedOrigins: string[]
}

/** `host[:port]` -> host, lower case; an IPv6 literal keeps its brackets. */
export function hostName (host: string): string {
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1)
  const colon = h.indexOf(':')
  return colon === -1 ? h : h.slice(0, colon)
}

const list = (spec: string | undefined): string[] => (spec ?? '').split(',').map(s => s.trim()).filter(s => s !== '')
const wildcard = (pattern: string): RegExp => new RegExp(`^${pattern.split('*').map(p => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`, 'i')

/** The rules, read once per generation from the plugin's view of the environment. */
export function rebindingRules (env: Env): { guard: (host: string | undefined, origin: string | undefined, port: number) => TransportGuard } {
  const hostEntries = list(env.AGENT_ALLOWED_HOSTS).map(e => e.startsWith('*.') ? e.toLowerCase() : hostName(e))
  const anyHost = hostEntries.includes('*')
  const apiHost = (env.API_HOST ?? '127.0.0.1').trim().toLowerCase()
  const bound = apiHost.includes(':') && !apiHost.startsWith('[') ? `[${apiHost}]` : hostName(apiHost) // an IPv6 literal as a Host names it
  const names = new Set([...LOOPBACK_NAMES, bound, ...hostEntries.filter(e => !e.startsWith('*.'))])
  const domains = hostEntries.filter(e => e.startsWith('*.')).map(e => e.slice(1)) // ".example.org"
  const hostAllowed = (host: string): boolean => {
    const name = hostName(host)
    return names.has(name) || domains.some(d => name.endsWith(d) || name === d.slice(1))
  }

  const originEntries = list(env.AGENT_CORS_ORIGINS).map(e => e.replace(/\/+$/, ''))
  const anyOrigin = originEntries.includes('*')
  const originPatterns = originEntries.map(e => e.includes('*') ? wildcard(e) : new RegExp(`^${e.replace(/[.+?^${}()|[\]\\]/g, '\\$&')}$`, 'i'))
  const originAllowed = (origin: string, host: string | undefined): boolean => {
    if (LOOPBACK_ORIGIN.test(origin) || originPatterns.some(p => p.test(origin))) return true
    try {
      return host !== undefined && hostAllowed(host) && new URL(origin).host === host.toLowerCase()
    } catch { return false }
  }

  return {
    guard (host, origin, port) {
      const fixedHosts = [...names].map(n => `${n}:${port}`)
      const fixedOrigins = LOOPBACK_NAMES.map(n => `http://${n}:${port}`)
      return {
        enableDnsRebindingProtection: !(anyHost && anyOrigin),
        // An empty list turns the SDK's check of that header off: `*` means exactly that.
        allowedHosts: anyHost ? [] : host !== undefined && hostAllowed(host) ? [...fixedHosts, host] : fixedHosts,
        allowedOrigins: anyOrigin ? [] : origin !== undefined && originAllowed(origin, host) ? [...fixedOrigins, origin] : fixedOrigins,
      }
    },
  }
}
