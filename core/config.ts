// The kernel's settings (from the environment, read once at start) and data/config.json,
// re-read and validated for every generation. The environment with .env and the view
// plugins read (config file, then environment, then default) are the SDK's.
import { mkdirSync } from 'node:fs'
import { writeFile, rename, mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { TSchema } from '@agentd/sdk/typebox'
import type { RuntimeConfig } from './config-schema.ts'
import { check, envInt, Errors, formatErrors, readTextIfExists, withDetails, type Env, type ErrorDetail } from '@agentd/sdk'
import { parseCorsOrigins, type CorsOrigins } from './cors.ts'
import { parseAllowedHosts, type AllowedHosts } from '@agentd/sdk'

function bool (v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())
}

/** "100/m", "10/s", "1000/h", "5000/d" -> max and window in ms. */
export function parseRate (spec: string): { max: number, windowMs: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d*)\s*(s|sec|second|m|min|minute|h|hour|d|day)\s*$/i.exec(spec)
  if (m === null) throw new Error(`AGENT_RATE_LIMIT must look like "100/m" (count per s, m, h or d), got "${spec}".`)
  const unit = m[3].toLowerCase()[0]
  const per = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit as 's' | 'm' | 'h' | 'd']
  return { max: Number(m[1]), windowMs: per * (m[2] === '' ? 1 : Number(m[2])) }
}

/** Process-level settings, from the environment only. */
export interface Settings {
  host: string
  port: number
  cwd: string
  dataDir: string
  pluginsFile: string
  apiKeyRequired: boolean
  apiKey: string | undefined
  rateLimitEnabled: boolean
  rateLimit: { max: number, windowMs: number, spec: string }
  rateLimitRedis: { uri: string | undefined, namespace: string } // counts shared by a cluster: AGENT_RATE_LIMIT_REDIS_URI, else REDIS_URI
  logLevel: string
  drainTimeoutMs: number
  reloadDebounceMs: number
  /** Origins whose pages may call the API from a browser (AGENT_CORS_ORIGINS over the loopback default). */
  corsOrigins: CorsOrigins
  allowedHosts: AllowedHosts // AGENT_ALLOWED_HOSTS over loopback and the bound address
  /** How long /api/health waits for one contributor before reporting it unhealthy. */
  healthTimeoutMs: number
  /** How long a client may take to send a whole request (headers and body); responses are not bounded. */
  requestTimeoutMs: number
}

export function readSettings (env: Env, cwd: string): Settings {
  const rateSpec = env.AGENT_RATE_LIMIT ?? '100/m'
  const apiKeyRequired = bool(env.AGENT_API_KEY_REQUIRED, false)
  const apiKey = env.AGENT_API_KEY === '' ? undefined : env.AGENT_API_KEY
  if (apiKeyRequired && apiKey === undefined) {
    throw new Error('AGENT_API_KEY_REQUIRED is true but AGENT_API_KEY is not set: set the key clients must send in X-API-Key.')
  }
  const host = env.API_HOST ?? '127.0.0.1'
  return {
    host,
    port: envInt(env, 'API_PORT', 12319),
    cwd,
    dataDir: path.resolve(cwd, env.AGENT_DATA_DIR ?? './data'),
    pluginsFile: path.resolve(cwd, env.AGENT_PLUGINS_FILE ?? './plugins.json'),
    apiKeyRequired,
    apiKey,
    rateLimitEnabled: bool(env.AGENT_RATE_LIMIT_ENABLED, false),
    rateLimit: { ...parseRate(rateSpec), spec: rateSpec },
    rateLimitRedis: { uri: env.AGENT_RATE_LIMIT_REDIS_URI || env.REDIS_URI || undefined, namespace: env.AGENT_RATE_LIMIT_NAMESPACE || 'agentd-rate-limit:' }, // '' = unset
    logLevel: env.AGENT_LOG_LEVEL ?? env.LOG_LEVEL ?? 'info',
    drainTimeoutMs: envInt(env, 'AGENT_DRAIN_TIMEOUT_MS', 30_000),
    reloadDebounceMs: envInt(env, 'AGENT_RELOAD_DEBOUNCE_MS', 150),
    corsOrigins: parseCorsOrigins(env.AGENT_CORS_ORIGINS),
    allowedHosts: parseAllowedHosts(env.AGENT_ALLOWED_HOSTS, host),
    healthTimeoutMs: envInt(env, 'AGENT_HEALTH_TIMEOUT_MS', 5000),
    requestTimeoutMs: Math.max(1, envInt(env, 'AGENT_REQUEST_TIMEOUT_MS', 120_000)),
  }
}

export const runtimeConfigPath = (dataDir: string): string => path.join(dataDir, 'config.json')

/** Reads and validates data/config.json. A missing file is an empty config; an invalid one throws with the bad paths. */
export async function readRuntimeConfig (dataDir: string, schema: TSchema): Promise<RuntimeConfig> {
  const file = runtimeConfigPath(dataDir)
  const text = await readTextIfExists(file)
  if (text === undefined || text.trim() === '') return {}
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    // V8's JSON errors quote the text near the fault, which may be part of a key: this
    // message reaches the reload log, GET /api/plugins and a refused config update.
    const why = (err as Error).message.replace(/(Unexpected token '.', )(?:\.\.\.)?".*"(?:\.\.\.)?(?= is not valid JSON)/s, '$1the text there (not quoted: it may hold a secret)')
    throw new Errors.CONFIG_INVALID(`${file} is not valid JSON (${why}); fix or delete it.`)
  }
  const res = check(schema, raw)
  if (!res.ok) throw withDetails(new Errors.CONFIG_INVALID(`${file} is invalid: ${formatErrors(res.errors)}.`), res.errors)
  return res.value as RuntimeConfig
}

// ---- writing data/config.json ------------------------------------------------------

let writeChain: Promise<unknown> = Promise.resolve()

function isPlainObject (v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

export function deepMerge (base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(patch)) {
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? deepMerge(out[k] as Record<string, unknown>, v) : v
  }
  return out
}

/**
 * Merges a patch into data/config.json: validated as a whole, then written atomically
 * (temp file + rename). Updates are serialized in this process, so concurrent callers
 * never interleave a read-modify-write. A file that is there but invalid is a 409 (nothing written).
 */
export async function updateRuntimeConfig (dataDir: string, schema: TSchema, patch: Record<string, unknown>): Promise<{ config: RuntimeConfig, errors?: ErrorDetail[] }> {
  const run = async (): Promise<{ config: RuntimeConfig }> => {
    // Merging onto a file we cannot read would drop every setting in it (keys included):
    // refuse, write nothing, and say which file and what is wrong with it.
    const current = await readRuntimeConfig(dataDir, schema).catch((err: Error & { details?: ErrorDetail[] }) => {
      const why = err.message.endsWith('.') ? err.message : `${err.message}.`
      const e = new Errors.CONFLICT(`${why} The update was not applied and nothing was written; retry once the file is fixed.`)
      throw err.details === undefined ? e : withDetails(e, err.details)
    })
    const merged = deepMerge(current as Record<string, unknown>, patch)
    const res = check(schema, merged)
    if (!res.ok) throw withDetails(new Errors.VALIDATION(`Invalid configuration: ${formatErrors(res.errors)}.`), res.errors)
    await mkdir(dataDir, { recursive: true })
    const file = runtimeConfigPath(dataDir)
    const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`
    await writeFile(tmp, `${JSON.stringify(res.value, null, 2)}\n`, { mode: 0o600 })
    await rename(tmp, file)
    return { config: res.value as RuntimeConfig }
  }
  const p = writeChain.then(run, run)
  writeChain = p.catch(() => undefined)
  return await p
}

export function ensureDir (dir: string): void { mkdirSync(dir, { recursive: true }) }

export { ConfigView, loadEnv, type Env } from '@agentd/sdk'
