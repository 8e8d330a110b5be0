// The recall settings of DECISIONS.md: one schema with the defaults, for the memory
// plugin (GET/POST /api/memory/recall-settings) and every technique plugin.
import { Type, type Static } from '@agentd/sdk/typebox'
import type { RecallSettings } from '../../contracts/recall.ts'

const Weight = (def: number, description: string): ReturnType<typeof Type.Number> => Type.Number({ minimum: 0, maximum: 1, default: def, description })
const Model = (what: string): ReturnType<typeof Type.String> => Type.String({ maxLength: 200, default: '', description: `provider/model that ${what}; '' = none (the technique drops out and the recall says so)` })

const Provider = (model: string): ReturnType<typeof Type.String> => Type.String({ maxLength: 100, default: '', description: `provider of ${model} when that is a bare model name ('' = the model's own provider/ prefix, or any provider that knows it)` })
const Temperature = (def: number, what: string): ReturnType<typeof Type.Number> => Type.Number({ minimum: 0, maximum: 2, default: def, description: `sampling temperature of the model call that writes ${what}` })

export const RecallSettingsSchema = Type.Object({
  recall_enable_hybrid: Type.Boolean({ default: true, description: 'full-text search (IDF-weighted, ts_rank_cd) fused with vector search' }),
  recall_enable_entity_centric: Type.Boolean({ default: true, description: 'entities named in the query, their current facts and the turns that mention them' }),
  recall_enable_query_expansion: Type.Boolean({ default: true, description: 'rule-based variants of the query (statement form, synonyms, word forms)' }),
  recall_enable_hyde: Type.Boolean({ default: false, description: 'a model writes a hypothetical answer, which is embedded and searched' }),
  recall_enable_self_query: Type.Boolean({ default: false, description: 'a model turns the query into filters (time range, channel, entity, kind)' }),
  recall_hybrid_bm25_weight: Weight(0.3, 'weight of the full-text ranks in the hybrid fusion'),
  recall_hybrid_vector_weight: Weight(0.7, 'weight of the vector ranks in the hybrid fusion'),
  recall_hybrid_rrf_k: Type.Integer({ minimum: 1, maximum: 1000, default: 60, description: 'reciprocal rank fusion constant: score = weight / (k + rank)' }),
  recall_entity_similarity_threshold: Weight(0.65, 'least cosine similarity for an entity to match the query by embedding'),
  recall_entity_max_entities: Type.Integer({ minimum: 1, maximum: 50, default: 5 }),
  recall_entity_graph_depth: Type.Integer({ minimum: 0, maximum: 3, default: 0, description: 'relationship hops from a matched entity whose entities\' facts are recalled too, scored lower per hop (0: only the matched entities\' own facts)' }),
  recall_expansion_max_variants: Type.Integer({ minimum: 0, maximum: 10, default: 3 }),
  recall_hyde_model: Model('writes the hypothetical answer'),
  recall_hyde_provider: Provider('recall_hyde_model'),
  recall_hyde_temperature: Temperature(0, 'the hypothetical answer'),
  recall_hyde_max_tokens: Type.Integer({ minimum: 16, maximum: 4000, default: 120, description: 'longest hypothetical answer, in tokens' }),
  recall_self_query_model: Model('turns the query into filters'),
  recall_self_query_provider: Provider('recall_self_query_model'),
  recall_self_query_temperature: Temperature(0, 'the filters'),
  recall_self_query_max_tokens: Type.Integer({ minimum: 16, maximum: 4000, default: 200, description: 'longest filter answer, in tokens' }),
}, { additionalProperties: false })

export type RecallSettingsValues = Static<typeof RecallSettingsSchema>

/** Every key with its default. */
export const RECALL_DEFAULTS: Readonly<RecallSettings> = Object.freeze(Object.fromEntries(
  Object.entries(RecallSettingsSchema.properties).map(([k, s]) => [k, (s as unknown as { default: unknown }).default]),
) as unknown as RecallSettings)

export const RECALL_SETTING_KEYS = Object.keys(RecallSettingsSchema.properties) as Array<keyof RecallSettings>

/** The settings key that turns a technique on or off, when it has one. */
export const enableKey = (technique: string): keyof RecallSettings | undefined => {
  const k = `recall_enable_${technique}`
  return (RECALL_SETTING_KEYS as string[]).includes(k) ? k as keyof RecallSettings : undefined
}
