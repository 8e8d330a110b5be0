// Consolidation settings (GET/POST /api/memory/settings): extraction mode, model and prompt,
// the relevance filter, entity linking, quality and promotion thresholds, batch size.
// DECISIONS.md: GET shows every key with its value and default; POST takes a partial
// object, refuses unknown keys and wrong types with 400 (nothing changes then), and
// persists to data/memory_settings.json (shared with the recall settings; settings-file.ts). Jobs read the current values at each run, so a
// change is live without a reload.
import path from 'node:path'
import { Type, type Static, type TInteger, type TNumber } from '@agentd/sdk/typebox'
import { check } from '@agentd/sdk'
import { DEFAULT_EXTRACTION_PROMPT, DEFAULT_RELEVANCE_PROMPT } from './llm-extractor.ts'
import { renameAliases, settingsApi } from '../settings-api.ts'
import { readSettingsFile, updateSettingsFile } from '../settings-file.ts'

const Num01 = (dflt: number, description: string): TNumber => Type.Number({ minimum: 0, maximum: 1, default: dflt, description })

const Interval = (dflt: number, job: string): TInteger => Type.Integer({ minimum: 1, maximum: 1440, default: dflt, description: `minutes between scheduled runs of the ${job} job (the jobs plugin's \`schedules\` option, when it names the job, wins)` })

/**
 * The keys of the original system's memory settings panel come first (their names are
 * that client's), then agentd's own. Every key acts on the code it names (docs/api.md).
 */
export const SettingsSchema = Type.Object({
  extraction_enabled: Type.Boolean({ default: true, description: 'false: the consolidate job extracts nothing (conversations stay pending and are read once it is true again)' }),
  extraction_provider: Type.String({ maxLength: 100, default: '', description: 'provider of extraction_model when that is a bare name; with extraction_model empty, that provider\'s copy of the default model' }),
  extraction_model: Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { default: '', description: 'provider/model (or a bare name with extraction_provider); empty: models.defaults.extraction, else the chat default model' }),
  extraction_temperature: Type.Number({ minimum: 0, maximum: 2, default: 0, description: 'sampling temperature of the extraction call' }),
  extraction_max_tokens: Type.Integer({ minimum: 100, maximum: 32_000, default: 2000, description: 'longest extraction answer, in tokens' }),
  extraction_condense_facts: Type.Boolean({ default: false, description: 'one fact per subject and attribute per conversation (the last one stated), and the model is asked for short claims' }),
  extraction_system_prompt: Type.String({ maxLength: 20_000, default: DEFAULT_EXTRACTION_PROMPT, description: 'system prompt of the LLM extractor (empty: the default, default_extraction_prompt)' }),
  relevance_filter_enabled: Type.Boolean({ default: true, description: 'drop facts whose relevance (confidence x how lasting the attribute is) is under relevance_threshold; with a relevance model set, also skip conversations that model calls not worth remembering' }),
  relevance_filter_provider: Type.String({ maxLength: 100, default: '', description: 'provider of relevance_filter_model (as extraction_provider)' }),
  relevance_filter_model: Type.String({ maxLength: 200, default: '', description: 'provider/model asked, per conversation, whether it holds anything worth remembering (YES/NO); empty with relevance_filter_provider empty: no model is asked' }),
  relevance_filter_max_tokens: Type.Integer({ minimum: 1, maximum: 2000, default: 10, description: 'longest answer of the relevance model, in tokens' }),
  relevance_filter_prompt: Type.String({ maxLength: 20_000, default: DEFAULT_RELEVANCE_PROMPT, description: 'system prompt of the relevance model (empty: the default, default_relevance_prompt)' }),
  entity_linking_enabled: Type.Boolean({ default: true, description: 'link a new entity name to an existing entity of the same type by alias or by name similarity; the entity_linking job relates similar entities' }),
  entity_linking_similarity_threshold: Num01(0.9, 'cosine similarity of names above which a new entity is the existing one (its name becomes an alias), and above which the entity_linking job relates two entities'),
  fact_confidence_threshold: Num01(0.3, 'facts less certain than this are never stored'),
  promotion_min_confidence: Num01(0.85, 'facts: minimum confidence to be promoted to _global'),
  job_consolidate_interval: Interval(15, 'consolidate'),
  job_promote_interval: Interval(60, 'promote'),
  job_entity_linking_interval: Interval(60, 'entity_linking'),
  contradiction_detection_enabled: Type.Boolean({ default: true, description: 'a new current value of an attribute (lives_in Porto after lives_in Lisbon) supersedes the current fact, or is flagged for review under contradiction_review_threshold; false: both are kept' }),
  correction_detection_enabled: Type.Boolean({ default: true, description: 'a statement that something no longer holds ("I no longer live in Lisbon") supersedes the current fact; false: it is stored beside it' }),
  extraction_mode: Type.Union([Type.Literal('auto'), Type.Literal('llm'), Type.Literal('offline')], { default: 'auto', description: 'auto: the model while it answers with valid output, else offline; llm: the model for every conversation (offline where it fails); offline: no model' }),
  extraction_timeout_ms: Type.Integer({ minimum: 1000, maximum: 600_000, default: 60_000, description: 'how long one extraction call may take before the offline extractor runs instead' }),
  relevance_threshold: Num01(0.4, 'minimum relevance of a fact to be stored'),
  contradiction_review_threshold: Num01(0.7, 'a contradicting fact less certain than this is flagged_for_review instead of superseding the current one'),
  promotion_min_access_count: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 5, description: 'facts: minimum times recalled to be promoted' }),
  promotion_min_conversations: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 2, description: 'facts: minimum distinct conversations that stated the fact' }),
  promotion_min_entity_salience: Num01(0.85, 'entities: minimum salience to be promoted'),
  consolidation_batch_size: Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'conversations per consolidate run' }),
  patterns_batch_size: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000, description: 'latest tool invocations the patterns job reads per run' }),
}, { additionalProperties: false })

/** The names agentd used before it adopted the original system's (docs/api.md: deprecated, accepted until the next release). */
export const SETTING_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  extraction_prompt: 'extraction_system_prompt',
  min_fact_confidence: 'fact_confidence_threshold',
  entity_link_similarity_threshold: 'entity_linking_similarity_threshold',
})

/** Keys GET shows that cannot be set. */
export const READ_ONLY_SETTINGS = ['entity_types', 'relationship_types', 'default_extraction_prompt', 'default_relevance_prompt'] as const

export type MemorySettings = Static<typeof SettingsSchema>
export const SETTING_KEYS = Object.keys(SettingsSchema.properties) as Array<keyof MemorySettings>

export function defaultSettings (): MemorySettings {
  const c = check(SettingsSchema, {})
  if (!c.ok) throw new Error(`memory settings: the defaults do not pass their own schema: ${c.errors.map(e => e.message).join('; ')}`)
  return c.value
}

export const API = settingsApi({
  schema: SettingsSchema,
  readOnly: READ_ONLY_SETTINGS,
  aliases: SETTING_ALIASES,
  hint: unknown => unknown.some(k => k.startsWith('recall_')) ? ' Recall settings go to POST /api/memory/recall-settings.' : '',
})

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
    const known = Object.fromEntries(Object.entries(renameAliases(obj, SETTING_ALIASES)).filter(([k]) => (SETTING_KEYS as string[]).includes(k)))
    const c = check(SettingsSchema, { ...known })
    if (c.ok) { this.#values = c.value; return }
    // Keep every valid key; a wrong one falls back to its default.
    const bad = new Set(c.errors.map(e => e.path.replace(/^\./, '').split('.')[0]))
    this.warn(`memory: invalid value(s) in ${this.file} (${c.errors.map(e => `${e.path}: ${e.message}`).join('; ')}); those keys use their defaults`)
    const kept = Object.fromEntries(Object.entries(known).filter(([k]) => !bad.has(k)))
    const again = check(SettingsSchema, kept)
    if (again.ok) this.#values = again.value
  }

  /** Validates a partial update (400 naming every problem, nothing applied), applies and persists it; returns the keys set. */
  async update (body: unknown): Promise<string[]> {
    const patch = API.patch(body)
    const next = { ...this.#values, ...(patch as Partial<MemorySettings>) }
    await this.#persist(next)
    this.#values = next
    return Object.keys(patch)
  }

  /** Writes the values that differ from their defaults (a key back at its default is removed); other keys in the file are kept. */
  async #persist (values: MemorySettings): Promise<void> {
    const d = defaultSettings()
    await updateSettingsFile(this.file, all => {
      // A deprecated name in the file is written back under its new name.
      for (const old of Object.keys(SETTING_ALIASES)) Reflect.deleteProperty(all, old)
      for (const k of SETTING_KEYS) {
        if (values[k] === d[k]) Reflect.deleteProperty(all, k)
        else all[k] = values[k]
      }
    })
  }
}
