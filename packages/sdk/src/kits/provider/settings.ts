// Where a provider's key, address and timeout come from. Lookup priority (SPEC.md):
// data/config.json `providers.<id>.*`, then the environment variable, then the default.
// A key stays with its host: an environment key is sent only to the environment's base URL
// (or the provider's default), never to a base URL set in data/config.json, which a run-time
// update can change (POST /api/config/update clears a stored key when base_url changes
// without one). Otherwise a page or a script that may change the base URL could collect
// the key as `Authorization: Bearer`.
// The values are read once per generation: a config update rebuilds the generation, so a
// new key reaches the next request while a stream already running keeps the old one.
import type { ConfigView } from '../../kernel/config-view.ts'

export interface SettingsSpec {
  /** Provider id (also its key under `providers` in data/config.json). */
  id: string
  /** Other names under `providers` that configure this provider (`lmstudio` for `local`), read after the id's own. */
  aliases?: readonly string[]
  keyEnv?: string
  /** Without a key the provider is `not_configured` (false for local servers). */
  keyRequired: boolean
  urlEnv?: string
  defaultUrl?: string
  timeoutEnv?: string
  /** Seconds. */
  defaultTimeout: number
}

export interface ResolvedSettings {
  apiKey: string | undefined
  keySource: 'config' | 'env' | undefined
  /** Set when an environment key exists but is not sent to the configured base URL (why, for messages). */
  keyWithheld?: string
  baseUrl: string | undefined
  timeoutMs: number
  keyHint: string
  urlHint: string
  timeoutHint: string
}

const or = (...parts: Array<string | undefined>): string => parts.filter(p => p !== undefined).join(' or ')

const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== ''

/** Whether two base URLs are one address (case, surrounding space and trailing slashes aside): a key set for one goes to the other. */
export const sameAddress = (a: unknown, b: unknown): boolean =>
  typeof a === 'string' && typeof b === 'string' && a.trim().replace(/\/+$/, '').toLowerCase() === b.trim().replace(/\/+$/, '').toLowerCase()

const nonEmpty = (v: unknown): string | undefined => typeof v === 'string' && v !== '' ? v : undefined

export function resolveSettings (config: ConfigView, spec: SettingsSpec): ResolvedSettings {
  const names = [spec.id, ...(spec.aliases ?? [])]
  // The file path of a field: under the id, else under the first alias that sets it.
  const at = (field: string): string => `providers.${names.find(n => isSet(config.fromFile(`providers.${n}.${field}`))) ?? spec.id}.${field}`
  const fileKey = nonEmpty(config.fromFile(at('api_key')))
  const fileUrl = nonEmpty(config.fromFile(at('base_url')))
  const envKey = spec.keyEnv === undefined ? undefined : nonEmpty(config.env[spec.keyEnv])
  const envUrl = spec.urlEnv === undefined ? undefined : nonEmpty(config.env[spec.urlEnv])
  // The address an environment key belongs to: the environment's own, else the default.
  const envKeyHome = envUrl ?? spec.defaultUrl
  const envKeyFits = fileUrl === undefined || sameAddress(fileUrl, envKeyHome)
  const apiKey = fileKey ?? (envKeyFits ? envKey : undefined)
  const keyWithheld = fileKey === undefined && envKey !== undefined && !envKeyFits
    ? `${spec.keyEnv ?? 'the environment key'} is not sent to ${at('base_url')} (${fileUrl ?? ''}): it goes only to ${spec.urlEnv ?? 'the default address'}${spec.urlEnv !== undefined && spec.defaultUrl !== undefined ? ' or the default address' : ''}; set providers.${spec.id}.api_key together with that base_url`
    : undefined
  const timeout = config.lookupNumber(at('timeout'), spec.timeoutEnv, spec.defaultTimeout)
  const keyHint = or(spec.keyEnv, `providers.${spec.id}.api_key`)
  return {
    apiKey,
    keySource: fileKey !== undefined ? 'config' : apiKey !== undefined ? 'env' : undefined,
    ...(keyWithheld === undefined ? {} : { keyWithheld }),
    baseUrl: fileUrl ?? envUrl ?? spec.defaultUrl,
    timeoutMs: Math.max(1, Math.round((timeout > 0 ? timeout : spec.defaultTimeout) * 1000)),
    keyHint: keyWithheld === undefined ? keyHint : `${keyHint} (${keyWithheld})`,
    urlHint: or(spec.urlEnv, `providers.${spec.id}.base_url`),
    timeoutHint: or(`providers.${spec.id}.timeout (seconds)`, spec.timeoutEnv),
  }
}
