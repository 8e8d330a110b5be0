// DNS-rebinding protection on /mcp with the MCP SDK's own transport options
// (`enableDnsRebindingProtection`, `allowedHosts`, `allowedOrigins`), as the MCP
// specification asks of a streamable HTTP server on the user's machine. The kernel checks
// Host and Origin on every route before any plugin runs; this is the second layer, and it
// must agree with the first, or a client the kernel lets through would meet a 403 here. So
// it decides with the kernel's own rules (the SDK's kernel/trust.ts: AGENT_ALLOWED_HOSTS,
// API_HOST, AGENT_CORS_ORIGINS, a page of the server itself), never rules of its own.
//
// The SDK compares exact strings (`Host: localhost:12319`), while the rules are "these
// names, on any port" and wildcards (`*.example.org`). So the lists are built for each
// request (the server makes a transport per POST anyway): the loopback names with the port
// the request arrived on, plus the request's own Host and Origin when the rules accept
// them. A foreign Host or Origin is then absent from the lists and the SDK answers 403.
import type { IncomingMessage } from 'node:http'
import { createRequestGuard, parseAllowedHosts, parseCorsOrigins, type Env } from '@agentd/sdk'

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

export interface TransportGuard {
  enableDnsRebindingProtection: boolean
  allowedHosts: string[]
  allowedOrigins: string[]
}

/** The rules, read once per generation from the plugin's view of the environment. */
export function rebindingRules (env: Env): { guard: (req: IncomingMessage, port: number) => TransportGuard } {
  const hosts = parseAllowedHosts(env.AGENT_ALLOWED_HOSTS, env.API_HOST ?? '127.0.0.1')
  const origins = parseCorsOrigins(env.AGENT_CORS_ORIGINS)
  // The kernel's own decision (Host first, then Origin for a POST): what it lets through, the lists hold.
  const decide = createRequestGuard(hosts, origins)
  return {
    guard (req, port) {
      const { host, origin } = req.headers
      const refusal = decide(req)
      const hostOk = refusal?.code !== 'AGENT_ERR_HOST_NOT_ALLOWED'
      const originOk = refusal === undefined
      const fixedHosts = LOOPBACK_NAMES.map(n => `${n}:${port}`)
      const fixedOrigins = LOOPBACK_NAMES.map(n => `http://${n}:${port}`)
      return {
        enableDnsRebindingProtection: !(hosts.any && origins === true),
        // An empty list turns the SDK's check of that header off: `*` means exactly that.
        // No Host at all (HTTP/1.0 from a tool, never a browser) passes the kernel; the SDK would refuse it.
        allowedHosts: hosts.any || host === undefined ? [] : hostOk ? [...fixedHosts, host] : fixedHosts,
        allowedOrigins: origins === true ? [] : origin !== undefined && originOk ? [...fixedOrigins, origin] : fixedOrigins,
      }
    },
  }
}
