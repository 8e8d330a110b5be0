// mcp_servers.json: `{ "servers": { name: ServerConfig } }`. Each entry is validated on
// its own, so one bad server never stops the others; `${VAR}` in env, headers and url is
// resolved from the environment, and an unset variable is that server's error.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { Type, type Static } from '@agentd/sdk/typebox'
import { check, formatErrors } from '@agentd/sdk'
import { resourceKey } from '@agentd/sdk'

export const TRANSPORTS = ['stdio', 'sse', 'streamable_http', 'http'] as const
export type TransportKind = typeof TRANSPORTS[number]

export const SERVER_NAME_PATTERN = '^[A-Za-z0-9_.-]{1,64}$'

/** OAuth 2.1 for a remote server (MCP authorization): `"oauth"` alone discovers and registers itself. */
export const OAuthSchema = Type.Object({
  type: Type.Literal('oauth'),
  /** `authorization_code` (PKCE, a person approves once) or `client_credentials` (no person; needs client_id and client_secret). */
  grant: Type.Union([Type.Literal('authorization_code'), Type.Literal('client_credentials')], { default: 'authorization_code' }),
  /** A pre-registered client (values may use ${VAR}); without one the client registers itself (dynamic client registration). */
  client_id: Type.Optional(Type.String({ minLength: 1 })),
  client_secret: Type.Optional(Type.String({ minLength: 1 })),
  /** Scopes to ask for when neither the server's 401 nor its metadata name any. */
  scopes: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /** An https URL of agentd's client metadata document, used as client_id where the authorization server supports that (SEP-991). */
  client_metadata_url: Type.Optional(Type.String({ minLength: 1 })),
}, { additionalProperties: false })

export const ServerConfigSchema = Type.Object({
  /** Optional: must equal the key when given (SPEC's ServerConfig carries it). */
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  /** Inferred when absent: `stdio` with a command, `http` (streamable HTTP, falling back to SSE) with a url. */
  transport: Type.Optional(Type.Union(TRANSPORTS.map(t => Type.Literal(t)))),
  command: Type.Optional(Type.String({ minLength: 1 })),
  args: Type.Array(Type.String(), { default: [] }),
  /** Extra environment for a stdio child; values may use ${VAR}. */
  env: Type.Record(Type.String(), Type.String(), { default: {} }),
  /** Working directory of a stdio child, relative to the folder of mcp_servers.json. */
  cwd: Type.Optional(Type.String()),
  url: Type.Optional(Type.String({ minLength: 1 })),
  /** HTTP headers for sse/streamable_http; values may use ${VAR}. */
  headers: Type.Record(Type.String(), Type.String(), { default: {} }),
  /** Connection timeout, seconds. */
  timeout: Type.Number({ exclusiveMinimum: 0, maximum: 3600, default: 30 }),
  /** Per-call time limit, seconds (default: the plugin's call_timeout_seconds). */
  call_timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3600 })),
  auto_reconnect: Type.Boolean({ default: true }),
  /** OAuth for sse/streamable_http: `"oauth"` or the full object. */
  auth: Type.Optional(Type.Union([Type.Literal('oauth'), OAuthSchema])),
  enabled: Type.Boolean({ default: true }),
  auto_connect: Type.Boolean({ default: true }),
}, { additionalProperties: false })

export type ServerConfigInput = Static<typeof ServerConfigSchema>

const FileSchema = Type.Object({
  $schema: Type.Optional(Type.String()),
  servers: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
}, { additionalProperties: false })

/** A server entry after validation and `${VAR}` resolution. Holds secrets: never log or return it whole. */
export interface ResolvedServer {
  name: string
  description?: string
  transport: TransportKind
  command?: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  url?: string
  headers: Record<string, string>
  timeoutMs: number
  callTimeoutMs?: number
  autoReconnect: boolean
  enabled: boolean
  autoConnect: boolean
  /** OAuth settings, `${VAR}`s resolved (the secret is in `secrets` too). */
  oauth?: ResolvedOAuth
  /** Every resolved env/header value and every value substituted into the url: to redact. */
  secrets: string[]
}

export interface ResolvedOAuth {
  grant: 'authorization_code' | 'client_credentials'
  clientId?: string
  clientSecret?: string
  scope?: string
  clientMetadataUrl?: string
}

export interface ServerEntry {
  name: string
  /** Hash of the resolved entry: equal fingerprints mean nothing changed. */
  fingerprint: string
  /** The transport as configured or inferred (shown even when the entry is invalid). */
  transport: string
  /** `enabled` as written (read even from an invalid entry, so a disabled one never counts against health). */
  enabled: boolean
  config?: ResolvedServer
  /** Why the entry cannot be used; says which field and how to fix it. */
  error?: string
}

export interface LoadedConfig {
  file: string
  servers: Map<string, ServerEntry>
}

export class ConfigFileError extends Error {
  override name = 'ConfigFileError'
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g

/** Replaces `${VAR}` from env; records substituted values; collects the names of unset ones. */
export function resolveVars (text: string, env: Readonly<Record<string, string | undefined>>, substituted: string[], missing: string[]): string {
  return text.replace(VAR, (_m, name: string) => {
    const v = env[name]
    if (v === undefined) { missing.push(name); return '' }
    substituted.push(v)
    return v
  })
}

function inferTransport (raw: unknown): string {
  if (raw === null || typeof raw !== 'object') return 'unknown'
  const r = raw as Record<string, unknown>
  if (typeof r.transport === 'string') return r.transport
  if (typeof r.command === 'string') return 'stdio'
  if (typeof r.url === 'string') return 'http'
  return 'unknown'
}

/** Validates and resolves one entry. Never throws: a bad entry comes back with `error`. */
export function resolveServer (name: string, raw: unknown, env: Readonly<Record<string, string | undefined>>, baseDir: string): ServerEntry {
  const transport = inferTransport(raw)
  const enabled = !(raw !== null && typeof raw === 'object' && (raw as Record<string, unknown>).enabled === false)
  const at = `servers.${name}`
  const fail = (error: string): ServerEntry => ({ name, transport, enabled, fingerprint: resourceKey('mcp-bad', { name, error }), error })
  if (!new RegExp(SERVER_NAME_PATTERN).test(name)) return fail(`${at}: a server name may use letters, digits, "_", "-" and "." (1-64 characters).`)
  const res = check(ServerConfigSchema, raw, at)
  if (!res.ok) return fail(`${formatErrors(res.errors)}.`)
  const c = res.value
  if (c.name !== undefined && c.name !== name) return fail(`${at}.name is "${c.name}" but the entry's key is "${name}"; make them equal or drop "name".`)
  const kind = (c.transport ?? (c.command !== undefined ? 'stdio' : c.url !== undefined ? 'http' : undefined))
  if (kind === undefined) return fail(`${at}: give "command" (a stdio server) or "url" (an HTTP server).`)
  if (kind === 'stdio' && c.command === undefined) return fail(`${at}.command is required for transport "stdio".`)
  if (kind !== 'stdio' && c.url === undefined) return fail(`${at}.url is required for transport "${kind}".`)
  if (kind === 'stdio' && c.auth !== undefined) return fail(`${at}.auth applies to HTTP servers only; a stdio server takes its credentials in "env".`)
  const auth = c.auth === 'oauth' ? { type: 'oauth' as const, grant: 'authorization_code' as const } : c.auth
  if (auth !== undefined && auth.grant === 'client_credentials' && (auth.client_id === undefined || auth.client_secret === undefined)) {
    return fail(`${at}.auth: grant "client_credentials" needs "client_id" and "client_secret" (e.g. "\${MY_CLIENT_SECRET}").`)
  }

  /** The entry with its `${VAR}`-resolved parts. */
  const build = (resolved: Pick<ResolvedServer, 'env' | 'headers' | 'url' | 'secrets' | 'oauth'>): ResolvedServer => ({
    name,
    description: c.description,
    transport: kind,
    command: c.command,
    args: c.args,
    cwd: c.cwd === undefined ? undefined : path.resolve(baseDir, c.cwd),
    timeoutMs: Math.round(c.timeout * 1000),
    callTimeoutMs: c.call_timeout === undefined ? undefined : Math.round(c.call_timeout * 1000),
    autoReconnect: c.auto_reconnect,
    enabled: c.enabled,
    autoConnect: c.auto_connect,
    ...resolved,
  })

  if (!c.enabled) {
    // A disabled entry is never connected, so its ${VAR}s are not resolved: an unset one
    // is not an error until the entry is enabled (which re-reads the file and resolves).
    // Its fingerprint covers the entry as written, so the enabling edit replaces it.
    const config = build({ env: {}, headers: {}, url: undefined, secrets: [], oauth: undefined })
    return { name, transport: kind, enabled: false, config, fingerprint: resourceKey('mcp-disabled', c) }
  }
  const secrets: string[] = []
  const missing: string[] = []
  const childEnv = Object.fromEntries(Object.entries(c.env).map(([k, v]) => [k, resolveVars(v, env, secrets, missing)]))
  secrets.push(...Object.values(childEnv))
  const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, resolveVars(v, env, secrets, missing)]))
  secrets.push(...Object.values(headers))
  const url = c.url === undefined ? undefined : resolveVars(c.url, env, secrets, missing)
  const oauth: ResolvedOAuth | undefined = auth === undefined ? undefined : {
    // TypeBox fills defaults of plain objects only, not of one member of a union.
    grant: (auth.grant as ResolvedOAuth['grant'] | undefined) ?? 'authorization_code',
    clientId: auth.client_id === undefined ? undefined : resolveVars(auth.client_id, env, [], missing),
    clientSecret: auth.client_secret === undefined ? undefined : resolveVars(auth.client_secret, env, secrets, missing),
    scope: auth.scopes?.join(' '),
    clientMetadataUrl: auth.client_metadata_url,
  }
  if (missing.length > 0) {
    return fail(`${at}: environment variable(s) ${[...new Set(missing)].map(m => `\${${m}}`).join(', ')} not set; set them (or put them in .env) or remove them from mcp_servers.json.`)
  }
  if (url !== undefined) {
    let parsed: URL
    try { parsed = new URL(url) } catch { return fail(`${at}.url is not a valid URL; use e.g. "http://127.0.0.1:8080/mcp".`) }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return fail(`${at}.url must be http:// or https://.`)
  }
  const config = build({ env: childEnv, headers, url, secrets: [...new Set(secrets)], oauth })
  return { name, transport: kind, enabled: true, config, fingerprint: resourceKey('mcp-server', config) }
}

/**
 * How answers name the servers file: relative to the working folder when it is inside it,
 * else its base name. Never the absolute path: an answer (a 404 for an unknown server, the
 * config error) would tell any caller where the server runs and under which user.
 */
export function shownPath (file: string, cwd: string): string {
  const rel = path.relative(cwd, file)
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? path.basename(file) : rel
}

/**
 * Parses the whole file (`shown`: its name in messages, see shownPath). A missing file is
 * no servers; unreadable or malformed JSON throws ConfigFileError.
 */
export function parseServersFile (text: string, file: string, env: Readonly<Record<string, string | undefined>>, shown = path.basename(file)): LoadedConfig {
  let raw: unknown
  if (text.trim() === '') raw = {}
  else {
    try { raw = JSON.parse(text) } catch (err) {
      throw new ConfigFileError(`${shown} is not valid JSON (${(err as Error).message}); fix it: the servers keep their last good configuration until then.`)
    }
  }
  const res = check(FileSchema, raw)
  if (!res.ok) throw new ConfigFileError(`${shown} is invalid: ${formatErrors(res.errors)}; expected { "servers": { "<name>": { ... } } }.`)
  const baseDir = path.dirname(file)
  const servers = new Map<string, ServerEntry>()
  for (const [name, entry] of Object.entries(res.value.servers)) servers.set(name, resolveServer(name, entry, env, baseDir))
  return { file, servers }
}

export async function loadServersFile (file: string, env: Readonly<Record<string, string | undefined>>, shown = path.basename(file)): Promise<LoadedConfig> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file, servers: new Map() }
    throw new ConfigFileError(`${shown} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`)
  }
  return parseServersFile(text, file, env, shown)
}
