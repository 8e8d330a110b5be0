// Which dotted keys POST /api/config/update accepts. Anything else is a 400 that lists
// these, so a typo is caught instead of being written and ignored.
import { isPlainObject } from './plain.ts'

const PROVIDER_FIELDS = ['api_key', 'base_url', 'timeout']
const SECTIONS: Record<string, string[]> = {
  'models.defaults': ['chat', 'reasoning', 'extraction'],
  llm_settings: ['default_temperature', 'default_max_tokens', 'top_p', 'frequency_penalty', 'presence_penalty'],
  preferences: ['default_model', 'default_reasoning_strategy', 'enable_memory_by_default'],
}

/**
 * Other names for a provider under `providers`: the original system's web client saves the
 * local OpenAI-compatible server as `providers.lmstudio`. Taken when the provider it names
 * is loaded and nothing is loaded under the alias itself.
 */
export const PROVIDER_ALIASES: Readonly<Record<string, string>> = { lmstudio: 'local' }

/** `patch` with aliased provider sections moved under the provider they name (merged into what the patch has there). */
export function resolveAliases (patch: Record<string, unknown>, providers: string[]): Record<string, unknown> {
  const section = patch.providers
  if (!isPlainObject(section)) return patch
  let out: Record<string, unknown> | undefined
  for (const [alias, target] of Object.entries(PROVIDER_ALIASES)) {
    if (!Object.hasOwn(section, alias) || providers.includes(alias) || !providers.includes(target)) continue
    out ??= { ...section }
    const { [alias]: moved, ...rest } = out
    const existing = rest[target]
    out = { ...rest, [target]: isPlainObject(existing) && isPlainObject(moved) ? { ...existing, ...moved } : moved }
  }
  return out === undefined ? patch : { ...patch, providers: out }
}

/** Human list of the accepted keys, given the loaded providers. */
export function describeAllowed (providers: string[]): string {
  const ids = providers.length === 0 ? '<provider>' : providers.length === 1 ? providers[0] : `{${providers.join(',')}}`
  return [
    `providers.${ids}.{${PROVIDER_FIELDS.join(',')}}`,
    ...Object.entries(SECTIONS).map(([s, keys]) => `${s}.{${keys.join(',')}}`),
    'models.overrides.<model>',
  ].join(', ')
}

/** Dotted paths in `patch` that are not accepted keys. `models.overrides.<model>` objects are checked by the schema. */
export function unknownKeys (patch: Record<string, unknown>, providers: string[]): string[] {
  const bad: string[] = []
  const walk = (obj: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix === '' ? k : `${prefix}.${k}`
      if (key === 'providers' || key === 'models') {
        if (isPlainObject(v)) walk(v, key); else bad.push(key)
        continue
      }
      if (prefix === 'providers') {
        if (!providers.includes(k)) { bad.push(key); continue }
        if (isPlainObject(v)) { for (const f of Object.keys(v)) if (!PROVIDER_FIELDS.includes(f)) bad.push(`${key}.${f}`) } else bad.push(key)
        continue
      }
      if (key === 'models.overrides') { if (!isPlainObject(v)) bad.push(key); continue }
      if (prefix === 'models.overrides') continue
      // Own keys only: `constructor` or `toString` must be unknown keys, not Object's members.
      const fields = Object.hasOwn(SECTIONS, key) ? SECTIONS[key] : undefined
      if (fields !== undefined) {
        if (isPlainObject(v)) { for (const f of Object.keys(v)) if (!fields.includes(f)) bad.push(`${key}.${f}`) } else bad.push(key)
        continue
      }
      bad.push(key)
    }
  }
  walk(patch, '')
  return bad
}
