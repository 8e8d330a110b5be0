// OAuth for a remote tool server (MCP authorization, OAuth 2.1): the MCP SDK's
// OAuthClientProvider, backed by one file per server under the data folder
// (`<data>/mcp-oauth/<server>.json`, mode 0600 in a 0700 folder). The SDK does discovery
// (protected-resource and authorization-server metadata), dynamic client registration,
// PKCE, the token exchange and refresh on a 401; this file keeps what it hands over and
// tells the connection when a person must approve (`onAuthorizationUrl`). Tokens never
// leave this file but in the Authorization header the SDK builds.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { auth, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { ResolvedOAuth } from './config.ts'

/** Refresh this long before the access token expires, so a call never starts on a token about to lapse. */
const REFRESH_MARGIN_MS = 60_000

interface Stored {
  /** The server URL the credentials are for: a changed url starts over. */
  url: string
  client?: OAuthClientInformationMixed
  tokens?: OAuthTokens
  /** When the access token expires (ms since the epoch), from expires_in at save time. */
  expires_at?: number
  discovery?: OAuthDiscoveryState
}

export interface OAuthInit {
  server: string
  url: string
  dir: string
  /** agentd's own callback route (GET /api/mcp/oauth/callback), absolute; read when a flow starts. */
  callbackUrl: () => string
  clientVersion: string
  settings: ResolvedOAuth
  /** A person must open this URL to approve agentd. */
  onAuthorizationUrl: (url: URL) => void
}

export class FileOAuthProvider implements OAuthClientProvider {
  readonly #init: OAuthInit
  readonly #file: string
  #stored: Stored | undefined
  #verifier: string | undefined
  /** The `state` of the authorization request in flight: the callback must bring it back. */
  pendingState: string | undefined
  authorizationUrl: URL | undefined

  constructor (init: OAuthInit) {
    this.#init = init
    this.#file = path.join(init.dir, `${init.server}.json`)
  }

  get clientMetadataUrl (): string | undefined { return this.#init.settings.clientMetadataUrl }

  get redirectUrl (): string | undefined {
    // No redirect at all makes the SDK run a non-interactive grant (prepareTokenRequest).
    return this.#init.settings.grant === 'client_credentials' ? undefined : this.#init.callbackUrl()
  }

  get clientMetadata (): OAuthClientMetadata {
    const s = this.#init.settings
    const interactive = s.grant !== 'client_credentials'
    return {
      client_name: 'agentd',
      software_version: this.#init.clientVersion,
      redirect_uris: interactive ? [this.#init.callbackUrl()] : [],
      grant_types: interactive ? ['authorization_code', 'refresh_token'] : ['client_credentials'],
      response_types: interactive ? ['code'] : [],
      token_endpoint_auth_method: s.clientSecret !== undefined ? 'client_secret_basic' : 'none',
      ...(s.scope !== undefined ? { scope: s.scope } : {}),
    }
  }

  async #load (): Promise<Stored> {
    if (this.#stored !== undefined) return this.#stored
    let stored: Stored = { url: this.#init.url }
    try {
      const parsed = JSON.parse(await readFile(this.#file, 'utf8')) as Stored
      if (parsed.url === this.#init.url) stored = parsed
    } catch { /* none yet, or unreadable: start over */ }
    this.#stored = stored
    return stored
  }

  #writes: Promise<unknown> = Promise.resolve()

  async #save (patch: Partial<Stored>): Promise<void> {
    const next = { ...(await this.#load()), ...patch }
    this.#stored = next
    // One write at a time (a refresh before a call may meet one after a 401), each the newest state.
    const write = async (): Promise<void> => {
      await mkdir(this.#init.dir, { recursive: true, mode: 0o700 })
      // Written whole and renamed, so a crash never leaves half a token file; 0600 from the start.
      const tmp = `${this.#file}.${process.pid}.tmp`
      await writeFile(tmp, JSON.stringify(this.#stored ?? next), { mode: 0o600 })
      await rename(tmp, this.#file)
    }
    const p = this.#writes.then(write, write)
    this.#writes = p.catch(() => undefined)
    await p
  }

  state (): string {
    this.pendingState = randomBytes(24).toString('base64url')
    return this.pendingState
  }

  async clientInformation (): Promise<OAuthClientInformationMixed | undefined> {
    const s = this.#init.settings
    // A pre-registered client is configuration, not state: never replaced by a registration.
    if (s.clientId !== undefined) return { client_id: s.clientId, ...(s.clientSecret !== undefined ? { client_secret: s.clientSecret } : {}) }
    return (await this.#load()).client
  }

  async saveClientInformation (client: OAuthClientInformationMixed): Promise<void> {
    if (this.#init.settings.clientId !== undefined) return
    await this.#save({ client })
  }

  async tokens (): Promise<OAuthTokens | undefined> { return (await this.#load()).tokens }

  async saveTokens (tokens: OAuthTokens): Promise<void> {
    const expiresAt = typeof tokens.expires_in === 'number' ? Date.now() + tokens.expires_in * 1000 : undefined
    // A refresh answer may omit the refresh token: the old one stays valid then (RFC 6749 6).
    const old = (await this.#load()).tokens
    const keep = tokens.refresh_token === undefined && old?.refresh_token !== undefined ? { refresh_token: old.refresh_token } : {}
    await this.#save({ tokens: { ...keep, ...tokens }, expires_at: expiresAt })
  }

  redirectToAuthorization (url: URL): void {
    this.authorizationUrl = url
    this.#init.onAuthorizationUrl(url)
  }

  saveCodeVerifier (verifier: string): void { this.#verifier = verifier }

  codeVerifier (): string {
    if (this.#verifier === undefined) throw new Error('no authorization is in progress for this server; connect it again')
    return this.#verifier
  }

  prepareTokenRequest (scope?: string): URLSearchParams | undefined {
    if (this.#init.settings.grant !== 'client_credentials') return undefined
    const params = new URLSearchParams({ grant_type: 'client_credentials' })
    if (scope !== undefined && scope !== '') params.set('scope', scope)
    return params
  }

  async saveDiscoveryState (discovery: OAuthDiscoveryState): Promise<void> { await this.#save({ discovery }) }
  async discoveryState (): Promise<OAuthDiscoveryState | undefined> { return (await this.#load()).discovery }

  async invalidateCredentials (scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') { this.#verifier = undefined; return }
    const patch: Partial<Stored> = {}
    if (scope === 'all' || scope === 'tokens') { patch.tokens = undefined; patch.expires_at = undefined }
    if (scope === 'all' || scope === 'client') patch.client = undefined
    if (scope === 'all' || scope === 'discovery') patch.discovery = undefined
    await this.#save(patch)
  }

  /** Whether a person has approved (or the client credentials were accepted): tokens are held. */
  async authorized (): Promise<boolean> { return (await this.#load()).tokens !== undefined }

  /**
   * Refreshes the access token when it expires within a minute and a refresh token is held
   * (the SDK refreshes only after a 401). Returns whether it had to; a failed refresh is
   * left to the 401 path.
   */
  async refreshIfDue (fetchFn?: typeof fetch): Promise<boolean> {
    const s = await this.#load()
    if (s.tokens?.refresh_token === undefined || s.expires_at === undefined || s.expires_at - Date.now() > REFRESH_MARGIN_MS) return false
    try {
      return await auth(this, { serverUrl: this.#init.url, fetchFn }) === 'AUTHORIZED'
    } catch { return false }
  }
}
