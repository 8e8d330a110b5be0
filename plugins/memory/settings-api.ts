// What the two settings endpoints (/api/memory/settings, /api/memory/recall-settings) share:
// the flat GET shape the original system's client reads (key -> value, with defaults,
// descriptions, read-only keys and deprecated names under `_meta`), and the POST check.
// That client posts back the whole object it read, so the keys GET itself returns as
// read-only (and `_meta`) are accepted and ignored; any other unknown key is a 400 that
// lists the allowed keys, with the same code on both endpoints (AGENT_ERR_MEMORY_BAD_REQUEST).
import { Type, type TObject, type TSchema } from '@agentd/sdk/typebox'
import { describeErrors, withDetails } from '@agentd/sdk'
import { MemoryErrors } from './errors.ts'

export interface SettingsApiSpec {
  /** The writable keys' schema (with defaults and descriptions). */
  schema: TObject
  /** Keys GET shows that cannot be set (values computed by the server). */
  readOnly: readonly string[]
  /** Old name -> new name, accepted on POST and in the settings file for one release. */
  aliases: Readonly<Record<string, string>>
  /** Said in a 400 when a key of the other endpoint was sent here. */
  hint?: (unknown: string[]) => string
}

export const META = '_meta'

/** The schema of each key without its default: the validator must not fill in keys a partial update left out. */
function withoutDefaults (schema: TObject): TObject {
  return Type.Object(Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => {
    const { default: _default, ...rest } = s as unknown as Record<string, unknown>
    return [k, Type.Optional(rest as unknown as TSchema)]
  })), { additionalProperties: false })
}

export function settingsApi (spec: SettingsApiSpec): {
  /** The GET answer: the values flat, read-only values beside them, `_meta`. */
  view: (values: Record<string, unknown>, readOnly: Record<string, unknown>) => Record<string, unknown>
  /** A POST body checked and normalised (aliases to their names, read-only keys and `_meta` dropped); throws the 400. */
  patch: (body: unknown) => Record<string, unknown>
  /** The response schema of GET (for validation on the way out and the OpenAPI document). */
  responseSchema: (readOnly: Record<string, TSchema>) => TObject
  keys: string[]
} {
  const keys = Object.keys(spec.schema.properties)
  const partial = withoutDefaults(spec.schema)
  const defaults = Object.fromEntries(Object.entries(spec.schema.properties).map(([k, s]) => [k, (s as { default?: unknown }).default]))
  const descriptions = Object.fromEntries(Object.entries(spec.schema.properties).map(([k, s]) => [k, String((s as { description?: string }).description ?? '')]))
  const allowed = (): string => `Allowed keys: ${keys.join(', ')}` +
    (Object.keys(spec.aliases).length > 0 ? ` (deprecated names still accepted: ${Object.entries(spec.aliases).map(([o, n]) => `${o} -> ${n}`).join(', ')})` : '') +
    `; ignored (read-only): ${[...spec.readOnly, META].join(', ')}.`

  return {
    keys,
    view: (values, readOnly) => ({
      ...values,
      ...readOnly,
      [META]: { defaults, descriptions, read_only: [...spec.readOnly], deprecated_aliases: { ...spec.aliases } },
    }),
    patch: (body) => {
      if (body === undefined || body === null) return {}
      if (typeof body !== 'object' || Array.isArray(body)) {
        throw new MemoryErrors.BAD_REQUEST(`The body must be an object of settings to change. ${allowed()}`)
      }
      const out: Record<string, unknown> = {}
      const unknown: string[] = []
      for (const [k, v] of Object.entries(body)) {
        if (k === META || spec.readOnly.includes(k)) continue
        const name = spec.aliases[k] ?? k
        if (!keys.includes(name)) { unknown.push(k); continue }
        // The new name wins when a client sends both.
        if (name !== k && Object.hasOwn(body, name)) continue
        out[name] = v
      }
      if (unknown.length > 0) {
        throw withDetails(new MemoryErrors.BAD_REQUEST(`Unknown setting(s): ${unknown.join(', ')}. ${allowed()}${spec.hint?.(unknown) ?? ''}`),
          unknown.map(k => ({ path: k, message: 'unknown key' })))
      }
      const errors = describeErrors(partial, out)
      if (errors.length > 0) {
        throw withDetails(new MemoryErrors.BAD_REQUEST(`Invalid setting value(s): ${errors.map(e => `${e.path.replace(/^\./, '')}: ${e.message}`).join('; ')}. GET shows each key's default and meaning under _meta.`), errors)
      }
      return out
    },
    responseSchema: (readOnly) => Type.Object({
      ...partial.properties,
      ...readOnly,
      [META]: Type.Object({
        defaults: Type.Record(Type.String(), Type.Unknown()),
        descriptions: Type.Record(Type.String(), Type.String()),
        read_only: Type.Array(Type.String()),
        deprecated_aliases: Type.Record(Type.String(), Type.String(), { description: 'old name -> new name; the old names are accepted on POST until the next release' }),
      }),
    }),
  }
}

/** Renames deprecated keys read from the settings file (the new name wins when both are there). */
export function renameAliases (obj: Record<string, unknown>, aliases: Readonly<Record<string, string>>): Record<string, unknown> {
  const out = { ...obj }
  for (const [old, name] of Object.entries(aliases)) {
    if (!Object.hasOwn(out, old)) continue
    if (!Object.hasOwn(out, name)) out[name] = out[old]
    Reflect.deleteProperty(out, old)
  }
  return out
}
