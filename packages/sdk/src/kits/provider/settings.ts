// Where a provider's key, address and timeout come from. Lookup priority (SPEC.md):
// data/config.json `providers.<id>.*`, then the environment variable, then the default.
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
  baseUrl: string | undefined
  timeoutMs: number
  keyHint: string
  urlHint: string
  timeoutHint: string
}

const or = (...parts: Array<string | undefined>): string => parts.filter(p => p !== undefined).join(' or ')

const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== ''

export function resolveSettings (config: ConfigView, spec: SettingsSpec): ResolvedSettings {
  const names = [spec.id, ...(spec.aliases ?? [])]
  // The file path of a field: under the id, else under the first alias that sets it.
  const at = (field: string): string => `providers.${names.find(n => isSet(config.fromFile(`providers.${n}.${field}`))) ?? spec.id}.${field}`
  const fileKey = config.fromFile(at('api_key'))
  const hasFileKey = typeof fileKey === 'string' && fileKey !== ''
  const apiKey = config.lookup(at('api_key'), spec.keyEnv)
  const timeout = config.lookupNumber(at('timeout'), spec.timeoutEnv, spec.defaultTimeout)
  return {
    apiKey,
    keySource: hasFileKey ? 'config' : apiKey !== undefined ? 'env' : undefined,
    baseUrl: config.lookup(at('base_url'), spec.urlEnv, spec.defaultUrl),
    timeoutMs: Math.max(1, Math.round((timeout > 0 ? timeout : spec.defaultTimeout) * 1000)),
    keyHint: or(spec.keyEnv, `providers.${spec.id}.api_key`),
    urlHint: or(spec.urlEnv, `providers.${spec.id}.base_url`),
    timeoutHint: or(`providers.${spec.id}.timeout (seconds)`, spec.timeoutEnv),
  }
}
