// Consolidation settings (GET/POST /api/memory/settings): extraction mode, model and prompt,
// the relevance filter, entity linking, quality and promotion thresholds, batch size.
// DECISIONS.md: GET shows every key with its value and default; POST takes a partial
// object, refuses unknown keys and wrong types with 400 (nothing changes then), and
// persists to data/memory_settings.json (shared with the recall settings; settings-file.ts). Jobs read the current values at each run, so a
// change is live without a reload.
import path from 'node:path'
import { Type, type Static, type TNumber } from '@agentd/sdk/typebox'
import { check, describeErrors, withDetails } from '@agentd/sdk'
import { MemoryErrors } from '../errors.ts'
import { DEFAULT_EXTRACTION_PROMPT } from './llm-extractor.ts'
import { readSettingsFile, updateSettingsFile } from '../settings-file.ts'

const Num01 = (dflt: number, description: string): TNumber => Type.Number({ minimum: 0, maximum: 1, default: dflt, description })

export const SettingsSchema = Type.Object({
  extraction_mode: Type.Union([Type.Literal('auto'), Type.Literal('llm'), Type.Literal('offline')], { default: 'auto', description: 'auto: the model while it answers with valid output, else offline; llm: the model for every conversation (offline where it fails); offline: no model' }),
  extraction_model: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()], { default: null, description: 'provider/model; null: models.defaults.extraction, else the chat default model' }),
  extraction_timeout_ms: Type.Integer({ minimum: 1000, maximum: 600_000, default: 60_000, description: 'how long one extraction call may take before the offline extractor runs instead' }),
  extraction_prompt: Type.String({ minLength: 1, maxLength: 20_000, default: DEFAULT_EXTRACTION_PROMPT, description: 'system prompt of the LLM extractor' }),
  relevance_filter_enabled: Type.Boolean({ default: true, description: 'drop facts whose relevance (confidence x how lasting the attribute is) is under relevance_threshold' }),
  relevance_threshold: Num01(0.4, 'minimum relevance of a fact to be stored'),
  min_fact_confidence: Num01(0.3, 'facts less certain than this are never stored'),
  entity_linking_enabled: Type.Boolean({ default: true, description: 'link a new entity name to an existing entity of the same type by alias or by name similarity' }),
  entity_link_similarity_threshold: Num01(0.9, 'cosine similarity of names above which a new entity is the existing one (its name becomes an alias)'),
  contradiction_review_threshold: Num01(0.7, 'a contradicting fact less certain than this is flagged_for_review instead of superseding the current one'),
  promotion_min_confidence: Num01(0.85, 'facts: minimum confidence to be promoted to _global'),
  promotion_min_access_count: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 5, description: 'facts: minimum times recalled to be promoted' }),
  promotion_min_conversations: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 2, description: 'facts: minimum distinct conversations that stated the fact' }),
  promotion_min_entity_salience: Num01(0.85, 'entities: minimum salience to be promoted'),
  consolidation_batch_size: Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'conversations per consolidate run' }),
  patterns_batch_size: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000, description: 'latest tool invocations the patterns job reads per run' }),
}, { additionalProperties: false })

export type MemorySettings = Static<typeof SettingsSchema>
export const SETTING_KEYS = Object.keys(SettingsSchema.properties) as Array<keyof MemorySettings>

export function defaultSettings (): MemorySettings {
  const c = check(SettingsSchema, {})
  if (!c.ok) throw new Error(`memory settings: the defaults do not pass their own schema: ${c.errors.map(e => e.message).join('; ')}`)
  return c.value
}

const partial = Type.Partial(SettingsSchema, { additionalProperties: false })

export class SettingsStore {
  #values: MemorySettings = defaultSettings()
  readonly file: string

  constructor (dataDir: string, private readonly warn: (msg: string, data?: Record<string, unknown>) => void) {
    this.file = path.join(dataDir, 'memory_settings.json')
  }

  get values (): Readonly<MemorySettings> { return this.#values }

  /**
   * Reads the file (shared with the recall settings: their keys are not ours); a missing
   * file means defaults; a broken one is logged and defaults are used.
   */
  async load (): Promise<void> {
    let obj: Record<string, unknown>
    try { obj = await readSettingsFile(this.file) } catch (err) {
      this.warn(`memory: ${(err as Error).message}; consolidation settings use their defaults until it is fixed`)
      return
    }
    const known = Object.fromEntries(Object.entries(obj).filter(([k]) => (SETTING_KEYS as string[]).includes(k)))
    const c = check(SettingsSchema, { ...known })
    if (c.ok) { this.#values = c.value; return }
    // Keep every valid key; a wrong one falls back to its default.
    const bad = new Set(c.errors.map(e => e.path.replace(/^\./, '').split('.')[0]))
    this.warn(`memory: invalid value(s) in ${this.file} (${c.errors.map(e => `${e.path}: ${e.message}`).join('; ')}); those keys use their defaults`)
    const kept = Object.fromEntries(Object.entries(known).filter(([k]) => !bad.has(k)))
    const again = check(SettingsSchema, kept)
    if (again.ok) this.#values = again.value
  }

  /** Every key with its value, default and description. */
  describe (): Record<string, { value: unknown, default: unknown, description: string }> {
    const d = defaultSettings()
    const out: Record<string, { value: unknown, default: unknown, description: string }> = {}
    for (const k of SETTING_KEYS) {
      out[k] = { value: this.#values[k], default: d[k], description: String((SettingsSchema.properties[k] as { description?: string }).description ?? '') }
    }
    return out
  }

  /** Validates a partial update (400 naming every problem, nothing applied), applies and persists it. */
  async update (patch: unknown): Promise<string[]> {
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
      throw new MemoryErrors.BAD_REQUEST(`The body must be an object of settings to change. Allowed keys: ${SETTING_KEYS.join(', ')}.`)
    }
    const keys = Object.keys(patch)
    const unknown = keys.filter(k => !(SETTING_KEYS as string[]).includes(k))
    if (unknown.length > 0) {
      const recall = unknown.some(k => k.startsWith('recall_')) ? ' Recall settings go to POST /api/memory/recall-settings.' : ''
      throw withDetails(new MemoryErrors.BAD_REQUEST(`Unknown setting(s): ${unknown.join(', ')}. Allowed keys: ${SETTING_KEYS.join(', ')}.${recall}`),
        unknown.map(k => ({ path: k, message: 'unknown key' })))
    }
    const errors = describeErrors(partial, patch)
    if (errors.length > 0) {
      throw withDetails(new MemoryErrors.BAD_REQUEST(`Invalid setting value(s): ${errors.map(e => `${e.path.replace(/^\./, '')}: ${e.message}`).join('; ')}. GET /api/memory/settings shows each key's default and meaning.`), errors)
    }
    const next = { ...this.#values, ...(patch as Partial<MemorySettings>) }
    await this.#persist(next)
    this.#values = next
    return keys
  }

  /** Writes the values that differ from their defaults (a key back at its default is removed); other keys in the file are kept. */
  async #persist (values: MemorySettings): Promise<void> {
    const d = defaultSettings()
    await updateSettingsFile(this.file, all => {
      for (const k of SETTING_KEYS) {
        if (values[k] === d[k]) Reflect.deleteProperty(all, k)
        else all[k] = values[k]
      }
    })
  }
}
