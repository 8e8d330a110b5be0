// The memory settings (GET/POST /api/memory/settings, DECISIONS.md): the union of the
// sections the loaded job plugins declare (registry.memorySettings: consolidate's
// extraction keys, promote's thresholds...), so a disabled job takes its keys with it.
// Read from data/memory_settings.json at start (shared with the recall settings: each store
// rewrites only its own keys, settings-file.ts); a key with a wrong value keeps its default
// and is logged once. Jobs read the values in force at each run (live).
import { Type, type TObject, type TSchema } from '@agentd/sdk/typebox'
import { Value } from '@agentd/sdk/typebox/value'
import { defaultsOf } from '@agentd/sdk/kits/recall'
import type { MemorySettingsSection } from '@agentd/sdk/contracts/memory-jobs'
import { readSettingsFile, updateSettingsFile } from './settings-file.ts'
import { renameAliases, settingsApi } from './settings-api.ts'

type Log = { warn: (obj: object, msg: string) => void }

/** The sections as one: writable keys, read-only values, deprecated names (the first declaration of a key wins). */
export interface SettingsUnion {
  schema: TObject
  readOnly: Record<string, { schema: TSchema, value: unknown }>
  aliases: Record<string, string>
  api: ReturnType<typeof settingsApi>
}

function unionOf (sections: MemorySettingsSection[]): SettingsUnion {
  const properties: Record<string, TSchema> = {}
  const readOnly: SettingsUnion['readOnly'] = {}
  const aliases: Record<string, string> = {}
  for (const s of sections) {
    for (const [k, v] of Object.entries(s.schema.properties)) properties[k] ??= v
    Object.assign(readOnly, s.readOnly ?? {})
    Object.assign(aliases, s.aliases ?? {})
  }
  const schema = Type.Object(properties, { additionalProperties: false })
  const api = settingsApi({
    schema,
    readOnly: Object.keys(readOnly),
    aliases,
    hint: unknown => unknown.some(k => k.startsWith('recall_')) ? ' Recall settings go to POST /api/memory/recall-settings.' : '',
  })
  return { schema, readOnly, aliases, api }
}

export class MemorySettingsStore {
  readonly file: string
  readonly #sections: () => MemorySettingsSection[]
  /** The file's values as read and updated (every key; only the union's are answered). */
  #raw: Record<string, unknown> = {}
  #log: Log | undefined
  readonly #warned = new Set<string>()
  #union: { sections: MemorySettingsSection[], union: SettingsUnion } | undefined
  #values: Readonly<Record<string, unknown>> | undefined

  constructor (file: string, sections: () => MemorySettingsSection[]) { this.file = file; this.#sections = sections }

  /** The union of the loaded sections: made again only when they change (fixed once the generation is ready). */
  union (): SettingsUnion {
    const sections = this.#sections()
    const last = this.#union
    if (last !== undefined && last.sections.length === sections.length && last.sections.every((s, i) => s === sections[i])) return last.union
    const union = unionOf(sections)
    this.#union = { sections, union }
    this.#values = undefined
    return union
  }

  /** The values in force: each key of the union, its valid stored value (under its current name) or its default. */
  values (): Readonly<Record<string, unknown>> {
    const u = this.union()
    if (this.#values !== undefined) return this.#values
    const raw = renameAliases(this.#raw, u.aliases)
    const values = defaultsOf(u.schema)
    for (const [key, s] of Object.entries(u.schema.properties)) {
      if (!Object.hasOwn(raw, key)) continue
      if (Value.Check(s, raw[key])) { values[key] = raw[key]; continue }
      if (!this.#warned.has(key)) {
        this.#warned.add(key)
        this.#log?.warn({ file: this.file, key, value: raw[key] }, `memory: setting ${key} in the settings file is not valid; using its default ${JSON.stringify(values[key])}`)
      }
    }
    this.#values = Object.freeze(values)
    return this.#values
  }

  /** Reads the file; a broken one is logged and defaults are used. */
  async load (log: Log): Promise<void> {
    this.#log = log
    try { this.#raw = await readSettingsFile(this.file) } catch (err) {
      log.warn({ file: this.file }, `memory: ${(err as Error).message}; memory settings use their defaults until it is fixed`)
      this.#raw = {}
    }
    this.#values = undefined
  }

  /** Validates a partial update (400 naming every problem, nothing applied), persists and applies it; returns the keys set. */
  async update (body: unknown): Promise<string[]> {
    const u = this.union()
    const patch = u.api.patch(body)
    const defaults = defaultsOf(u.schema)
    const keys = Object.keys(patch)
    // A key back at its default is removed from the file; a deprecated name is written under its new one.
    const write = (all: Record<string, unknown>): void => {
      for (const [old, name] of Object.entries(u.aliases)) if (keys.includes(name)) Reflect.deleteProperty(all, old)
      for (const k of keys) {
        if (patch[k] === defaults[k]) Reflect.deleteProperty(all, k)
        else all[k] = patch[k]
      }
    }
    await updateSettingsFile(this.file, write)
    write(this.#raw)
    this.#values = undefined
    return keys
  }
}
