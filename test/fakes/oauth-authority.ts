// A fake OAuth 2.1 authorization server and protected-resource metadata for an MCP server
// on loopback, in the wire format of MCP authorization (2025-11-25): RFC 9728 metadata at
// /.well-known/oauth-protected-resource/mcp, RFC 8414 metadata, dynamic client
// registration (RFC 7591), /authorize that approves at once (302 to the redirect_uri with
// code and state, as if a person had clicked), /token for authorization_code (PKCE S256
// checked), refresh_token and client_credentials (client_secret_basic). The fixture MCP
// server asks it whether a bearer token is valid; `revokeAccess()` makes every access
// token invalid (refresh tokens stay), as a server that rotates keys would.
import type http from 'node:http'
import { createHash, randomBytes } from 'node:crypto'

export interface AuthorityOptions {
  /** expires_in of every access token, seconds. */
  expiresIn?: number
  /** A pre-registered confidential client (client_credentials or authorization_code). */
  client?: { id: string, secret: string }
}

export interface Authority {
  /** Answers the request if it is one of the authority's paths. */
  handle: (req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: string) => boolean
  /** Whether `Authorization` carries an access token it issued and has not revoked. */
  valid: (authorization: string | undefined) => boolean
  /** The WWW-Authenticate of a 401 from the MCP endpoint. */
  challenge: () => string
  revokeAccess: () => void
  /** Token requests by grant type, in order. */
  grants: string[]
  /** Access tokens issued so far (to check none of them shows up where it must not). */
  issued: string[]
}

const token = (): string => randomBytes(18).toString('base64url')

export function oauthAuthority (base: () => string, opts: AuthorityOptions = {}): Authority {
  const clients = new Map<string, { secret?: string, redirectUris: string[] }>()
  if (opts.client !== undefined) clients.set(opts.client.id, { secret: opts.client.secret, redirectUris: [] })
  const codes = new Map<string, { challenge: string, clientId: string, redirectUri: string }>()
  const access = new Set<string>()
  const refresh = new Set<string>()
  const grants: string[] = []
  const issued: string[] = []

  const json = (res: http.ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body))
  }
  const tokens = (res: http.ServerResponse, withRefresh: boolean): void => {
    const a = token()
    access.add(a)
    issued.push(a)
    const r = withRefresh ? token() : undefined
    if (r !== undefined) refresh.add(r)
    json(res, 200, { access_token: a, token_type: 'Bearer', expires_in: opts.expiresIn ?? 3600, ...(r !== undefined ? { refresh_token: r } : {}) })
  }
  /** The client of a token request: Basic credentials, or client_id in the body (public client). */
  const clientOf = (req: http.IncomingMessage, form: URLSearchParams): string | undefined => {
    const basic = req.headers.authorization?.startsWith('Basic ') === true ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString('utf8') : undefined
    const [id, secret] = basic !== undefined ? basic.split(':').map(decodeURIComponent) : [form.get('client_id') ?? '', form.get('client_secret') ?? undefined]
    const c = clients.get(id)
    if (c === undefined || (c.secret !== undefined && c.secret !== secret)) return undefined
    return id
  }

  const tokenEndpoint = (req: http.IncomingMessage, res: http.ServerResponse, form: URLSearchParams): void => {
    const grant = form.get('grant_type') ?? ''
    grants.push(grant)
    const clientId = clientOf(req, form)
    if (clientId === undefined) { json(res, 401, { error: 'invalid_client' }); return }
    if (grant === 'authorization_code') {
      const c = codes.get(form.get('code') ?? '')
      codes.delete(form.get('code') ?? '')
      const verifier = form.get('code_verifier') ?? ''
      const ok = c !== undefined && c.clientId === clientId && c.redirectUri === form.get('redirect_uri') &&
        createHash('sha256').update(verifier).digest('base64url') === c.challenge
      if (!ok) { json(res, 400, { error: 'invalid_grant' }); return }
      tokens(res, true)
    } else if (grant === 'refresh_token') {
      const r = form.get('refresh_token') ?? ''
      if (!refresh.has(r)) { json(res, 400, { error: 'invalid_grant' }); return }
      tokens(res, false) // the old refresh token stays valid (RFC 6749 6: a new one is optional)
    } else if (grant === 'client_credentials') {
      tokens(res, false)
    } else json(res, 400, { error: 'unsupported_grant_type' })
  }

  const handle = (req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: string): boolean => {
    const b = base()
    switch (url.pathname) {
      case '/.well-known/oauth-protected-resource/mcp':
        json(res, 200, { resource: `${b}/mcp`, authorization_servers: [b] })
        return true
      case '/.well-known/oauth-authorization-server':
        json(res, 200, {
          issuer: b, authorization_endpoint: `${b}/authorize`, token_endpoint: `${b}/token`, registration_endpoint: `${b}/register`,
          response_types_supported: ['code'], grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
          code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
        })
        return true
      case '/register': {
        const meta = JSON.parse(body) as { redirect_uris?: string[] }
        const id = `dyn-${token()}`
        clients.set(id, { redirectUris: meta.redirect_uris ?? [] })
        json(res, 201, { ...meta, client_id: id, client_id_issued_at: Math.floor(Date.now() / 1000), token_endpoint_auth_method: 'none' })
        return true
      }
      case '/authorize': {
        const q = url.searchParams
        const c = clients.get(q.get('client_id') ?? '')
        const redirect = q.get('redirect_uri') ?? ''
        if (c === undefined || (c.redirectUris.length > 0 && !c.redirectUris.includes(redirect)) || q.get('code_challenge_method') !== 'S256') {
          json(res, 400, { error: 'invalid_request' })
          return true
        }
        const code = token()
        codes.set(code, { challenge: q.get('code_challenge') ?? '', clientId: q.get('client_id') ?? '', redirectUri: redirect })
        const to = new URL(redirect)
        to.searchParams.set('code', code)
        to.searchParams.set('state', q.get('state') ?? '')
        res.writeHead(302, { location: to.href }).end()
        return true
      }
      case '/token':
        tokenEndpoint(req, res, new URLSearchParams(body))
        return true
      default: return false
    }
  }

  return {
    handle,
    valid: (authorization) => authorization?.startsWith('Bearer ') === true && access.has(authorization.slice(7)),
    challenge: () => `Bearer error="invalid_token", resource_metadata="${base()}/.well-known/oauth-protected-resource/mcp"`,
    revokeAccess: () => { access.clear() },
    grants,
    issued,
  }
}
