// The recall settings (DECISIONS.md): read from data/memory_settings.json at start, changed
// by POST /api/memory/recall-settings, in force for the next recall (live) and written back.
// The file is shared with the consolidation settings: an update rewrites only the recall
// keys and keeps every other key as it was; writes are atomic (temp file + rename) and
// serialized, so two updates never interleave.
import { readFile } from 'node:fs/promises'
import { updateSettingsFile } from './settings-file.ts'
import { Value } from '@agentd/sdk/typebox/value'
import { RECALL_DEFAULTS, RECALL_SETTING_KEYS, RecallSettingsSchema } from '@agentd/sdk/kits/recall'
import type { RecallSettings } from '@agentd/sdk/contracts/recall'

type Log = { warn: (obj: object, msg: string) => void }

export class RecallSettingsStore {
  readonly file: string
  #values: RecallSettings = { ...RECALL_DEFAULTS }

  constructor (file: string) { this.file = file }

  /** The settings in force (a copy). */
  get (): RecallSettings { return { ...this.#values } }

  /** Reads the file; a key with a wrong value keeps its default and is logged, other keys are not ours. */
  async load (log: Log): Promise<void> {
    const all = await this.#readFile(log)
    const next: Record<string, unknown> = { ...RECALL_DEFAULTS }
    for (const key of RECALL_SETTING_KEYS) {
      if (!(key in all)) continue
      const schema = RecallSettingsSchema.properties[key]
      if (Value.Check(schema, all[key])) next[key] = all[key]
      else log.warn({ file: this.file, key, value: all[key] }, `memory: recall setting ${key} in the settings file is not valid; using its default ${JSON.stringify(RECALL_DEFAULTS[key])}`)
    }
    this.#values = next as unknown as RecallSettings
  }

  /** Applies a validated partial update: in force at once, then persisted; returns the keys set. */
  async update (patch: Partial<RecallSettings>): Promise<string[]> {
    const keys = Object.keys(patch).filter(k => (RECALL_SETTING_KEYS as string[]).includes(k))
    const next = { ...this.#values, ...patch }
    // One writer per file for both stores of this file (settings-file.ts).
    await updateSettingsFile(this.file, all => { for (const k of keys) all[k] = (next as unknown as Record<string, unknown>)[k] })
    this.#values = { ...this.#values, ...patch }
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
    // An update must not overwrite a file it cannot read (the other keys would be lost).
    if (log === undefined) throw new Error(`${this.file} is not a JSON object: fix or remove it, then update the settings again`)
    return {}
  }
}
