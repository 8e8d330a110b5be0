// The recall settings (DECISIONS.md): read from data/memory_settings.json at start, changed
// by POST /api/memory/recall-settings, in force for the next recall (live) and written back.
// Which keys there are is the union of what is loaded (`schema()`: the fusion's keys and
// every technique's own, recall kit's recallSettingsSchema), known only once every plugin
// has registered: the file's values are kept as read and checked against the union when
// asked. The file is shared with the consolidation settings: an update rewrites only the
// recall keys and keeps every other key as it was; writes are atomic (temp file + rename)
// and serialized, so two updates never interleave.
import { readFile } from 'node:fs/promises'
import type { TObject } from '@agentd/sdk/typebox'
import { Value } from '@agentd/sdk/typebox/value'
import { defaultsOf } from '@agentd/sdk/kits/recall'
import type { RecallSettings } from '@agentd/sdk/contracts/recall'
import { updateSettingsFile } from './settings-file.ts'

type Log = { warn: (obj: object, msg: string) => void }

export class RecallSettingsStore {
  readonly file: string
  /** The union of the loaded techniques' settings (and the fusion's). */
  readonly schema: () => TObject
  /** The file's values as read and updated (every key; only the union's are answered). */
  #raw: Record<string, unknown> = {}
  #log: Log | undefined
  readonly #warned = new Set<string>()
  #cache: { schema: TObject, values: RecallSettings } | undefined

  constructor (file: string, schema: () => TObject) { this.file = file; this.schema = schema }

  /** The settings in force: each key of the union, its valid stored value or its default. */
  get (): RecallSettings {
    const schema = this.schema()
    if (this.#cache?.schema === schema) return this.#cache.values
    const values: Record<string, unknown> = defaultsOf(schema)
    for (const [key, s] of Object.entries(schema.properties)) {
      if (!Object.hasOwn(this.#raw, key)) continue
      if (Value.Check(s, this.#raw[key])) { values[key] = this.#raw[key]; continue }
      if (!this.#warned.has(key)) {
        this.#warned.add(key)
        this.#log?.warn({ file: this.file, key, value: this.#raw[key] }, `memory: recall setting ${key} in the settings file is not valid; using its default ${JSON.stringify(values[key])}`)
      }
    }
    this.#cache = { schema, values: Object.freeze(values) }
    return this.#cache.values
  }

  /** Reads the file (a key with a wrong value keeps its default and is logged when first asked for). */
  async load (log: Log): Promise<void> {
    this.#log = log
    this.#raw = await this.#readFile(log)
    this.#cache = undefined
  }

  /** Applies a validated partial update: in force at once, then persisted; returns the keys set. */
  async update (patch: Record<string, unknown>): Promise<string[]> {
    const keys = Object.keys(patch).filter(k => Object.hasOwn(this.schema().properties, k))
    // One writer per file for both stores of this file (settings-file.ts).
    await updateSettingsFile(this.file, all => { for (const k of keys) all[k] = patch[k] })
    for (const k of keys) this.#raw[k] = patch[k]
    this.#cache = undefined
    return keys
  }

  async #readFile (log?: Log): Promise<Record<string, unknown>> {
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw err
    }
    try {
      const v: unknown = JSON.parse(text)
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>
    } catch {}
    log?.warn({ file: this.file }, 'memory: the settings file is not a JSON object; recall settings use their defaults until it is fixed or rewritten')
    return {}
  }
}
