// The consolidate job's settings section (GET/POST /api/memory/settings, served by the
// memory plugin as the union of the loaded job plugins' sections): extraction mode, model
// and prompt, the relevance filter, entity linking of new names, quality thresholds, batch
// size, its interval. DECISIONS.md: GET shows every key with its value and default; POST
// takes a partial object and refuses unknown keys and wrong types with 400. The job reads
// the values in force at each run, so a change is live without a reload.
import { Type, type Static } from '@agentd/sdk/typebox'
import { JobSetting } from '@agentd/sdk/kits/memory'
import type { MemorySettingsSection } from '@agentd/sdk/contracts/memory-jobs'
import { DEFAULT_EXTRACTION_PROMPT, DEFAULT_RELEVANCE_PROMPT } from './llm-extractor.ts'
import { ENTITY_TYPES, RELATIONSHIP_TYPES } from './extraction.ts'

const Num01 = JobSetting.fraction
const Interval = JobSetting.interval

/**
 * The consolidate job's part of /api/memory/settings. The keys of the original system's
 * memory settings panel come first (their names are that client's), then agentd's own.
 * Every key acts on the code it names (docs/api.md).
 */
export const ConsolidateSettings = Type.Object({
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
  job_consolidate_interval: Interval(15, 'consolidate'),
  contradiction_detection_enabled: Type.Boolean({ default: true, description: 'a new current value of an attribute (lives_in Porto after lives_in Lisbon) supersedes the current fact, or is flagged for review under contradiction_review_threshold; false: both are kept' }),
  correction_detection_enabled: Type.Boolean({ default: true, description: 'a statement that something no longer holds ("I no longer live in Lisbon") supersedes the current fact; false: it is stored beside it' }),
  extraction_mode: Type.Union([Type.Literal('auto'), Type.Literal('llm'), Type.Literal('offline')], { default: 'auto', description: 'auto: the model while it answers with valid output, else offline; llm: the model for every conversation (offline where it fails); offline: no model' }),
  extraction_timeout_ms: Type.Integer({ minimum: 1000, maximum: 600_000, default: 60_000, description: 'how long one extraction call may take before the offline extractor runs instead' }),
  relevance_threshold: Num01(0.4, 'minimum relevance of a fact to be stored'),
  contradiction_review_threshold: Num01(0.7, 'a contradicting fact less certain than this is flagged_for_review instead of superseding the current one'),
  consolidation_batch_size: Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'conversations per consolidate run' }),
}, { additionalProperties: false })

/** The names agentd used before it adopted the original system's (docs/api.md: deprecated, accepted until the next release). */
export const SETTING_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  extraction_prompt: 'extraction_system_prompt',
  min_fact_confidence: 'fact_confidence_threshold',
  entity_link_similarity_threshold: 'entity_linking_similarity_threshold',
})

export type ConsolidateSettingsValues = Static<typeof ConsolidateSettings>

/** The section, with the values GET shows that no POST changes (computed here). */
export const SECTION: MemorySettingsSection = {
  schema: ConsolidateSettings,
  aliases: SETTING_ALIASES,
  readOnly: {
    entity_types: { schema: Type.Array(Type.String(), { description: 'read-only: the entity types extraction assigns' }), value: [...ENTITY_TYPES] },
    relationship_types: { schema: Type.Array(Type.String(), { description: 'read-only: the relationship types the extractor is told of' }), value: [...RELATIONSHIP_TYPES] },
    default_extraction_prompt: { schema: Type.String({ description: 'read-only: extraction_system_prompt\'s default' }), value: DEFAULT_EXTRACTION_PROMPT },
    default_relevance_prompt: { schema: Type.String({ description: 'read-only: relevance_filter_prompt\'s default' }), value: DEFAULT_RELEVANCE_PROMPT },
  },
}
