// Recall settings (DECISIONS.md's names): every technique declares its own keys, defaults
// and validation (`RecallTechnique.settings`, a TypeBox object under the names the API
// promises); the memory plugin serves the union of what is loaded at
// /api/memory/recall-settings. Only the fusion's keys live here, since any technique that
// fuses lists (hybrid, HyDE, self-query) and the service's own fusion read them. A new
// technique with settings of its own needs no change in this file.
import { Type, type Static, type TObject, type TSchema } from '@agentd/sdk/typebox'
import { Value } from '@agentd/sdk/typebox/value'
import type { RecallSettings, RecallTechnique } from '../../contracts/recall.ts'

const Weight = (def: number, description: string): ReturnType<typeof Type.Number> => Type.Number({ minimum: 0, maximum: 1, default: def, description })

/** The fusion's settings, shared by the service and every technique that fuses ranked lists. */
export const FusionSettings = Type.Object({
  recall_hybrid_bm25_weight: Weight(0.3, 'weight of the full-text ranks where keyword and vector lists are fused'),
  recall_hybrid_vector_weight: Weight(0.7, 'weight of the vector ranks where keyword and vector lists are fused'),
  // 20, not the original system's 60: with deep lists (below) a larger k lets the many
  // second-tier ranks outweigh the first (LoCoMo dev R@10 0.760 at 20, 0.749 at 60).
  recall_hybrid_rrf_k: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'reciprocal rank fusion constant: score = weight / (k + rank)' }),
  // LoCoMo dev R@10 at 30 / 50 / 80 / 100 / 120: 0.747 / 0.753 / 0.758 / 0.760 / 0.761 (docs/benchmarks.md, "One fusion").
  recall_candidate_depth: Type.Integer({ minimum: 10, maximum: 500, default: 100, description: 'how many candidates each technique reads (at least 3 x top_k) before the fusion keeps top_k: deeper lists let the techniques agree on a turn each ranks lower' }),
}, { additionalProperties: false })

/**
 * How deep a technique reads its lists: `times` x top_k, and never less than
 * `recall_candidate_depth` (nor than `floor`, for a technique that keeps only part of what it
 * reads). Fusion ranks by agreement: a turn second-tier in three lists beats one that tops a
 * single list only when all three lists reach it.
 */
export const candidateDepth = (topK: number, settings: RecallSettings, times = 3, floor = 0): number =>
  Math.max(topK * times, settingsOf(FusionSettings, settings).recall_candidate_depth, floor)

/** Schema helpers for a technique's own settings, so every technique words them alike. */
export const RecallSetting = {
  /** `recall_enable_<technique>`: whether the technique runs. */
  enable: (def: boolean, description: string): ReturnType<typeof Type.Boolean> => Type.Boolean({ default: def, description }),
  weight: Weight,
  /** `provider/model`, '' = none: the technique drops out and the recall says so. */
  model: (what: string): ReturnType<typeof Type.String> => Type.String({ maxLength: 200, default: '', description: `provider/model that ${what}; '' = none (the technique drops out and the recall says so)` }),
  provider: (model: string): ReturnType<typeof Type.String> => Type.String({ maxLength: 100, default: '', description: `provider of ${model} when that is a bare model name ('' = the model's own provider/ prefix, or any provider that knows it)` }),
  temperature: (def: number, what: string): ReturnType<typeof Type.Number> => Type.Number({ minimum: 0, maximum: 2, default: def, description: `sampling temperature of the model call that writes ${what}` }),
  /**
   * The four keys of a technique that asks a model (`<prefix>_model`, `_provider`,
   * `_temperature`, `_max_tokens`): what the model writes, and the longest answer in tokens.
   */
  modelCall: <P extends string>(prefix: P, writes: string, answer: string, maxTokens: number) => ({
    [`${prefix}_model`]: RecallSetting.model(writes),
    [`${prefix}_provider`]: RecallSetting.provider(`${prefix}_model`),
    [`${prefix}_temperature`]: RecallSetting.temperature(0, `the ${answer}`),
    [`${prefix}_max_tokens`]: Type.Integer({ minimum: 16, maximum: 4000, default: maxTokens, description: `longest ${answer}, in tokens` }),
  }) as { [K in `${P}_model` | `${P}_provider`]: ReturnType<typeof Type.String> } & { [K in `${P}_temperature`]: ReturnType<typeof Type.Number> } & { [K in `${P}_max_tokens`]: ReturnType<typeof Type.Integer> },
}

/** Every key of a schema with its default. */
export function defaultsOf (schema: TObject): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, (s as unknown as { default: unknown }).default]))
}

/** The union a recall answers to: the fusion's keys and every technique's own (the first declaration of a key wins). */
export function recallSettingsSchema (techniques: Iterable<Pick<RecallTechnique, 'settings'>>): TObject {
  const properties: Record<string, TSchema> = { ...FusionSettings.properties }
  for (const t of techniques) for (const [k, s] of Object.entries(t.settings?.properties ?? {})) properties[k] ??= s
  return Type.Object(properties, { additionalProperties: false })
}

/**
 * The values of one schema's keys as typed values: the settings in force where they are
 * valid for it, its defaults elsewhere (a technique's keys are absent when it was not loaded
 * as recall settings were read).
 */
export function settingsOf<T extends TObject> (schema: T, all: RecallSettings): Static<T> {
  const out: Record<string, unknown> = defaultsOf(schema)
  for (const [k, s] of Object.entries(schema.properties)) if (Object.hasOwn(all, k) && Value.Check(s, all[k])) out[k] = all[k]
  return out as Static<T>
}

/** The settings key that turns a technique on or off, when its settings declare one. */
export const enableKey = (technique: Pick<RecallTechnique, 'name' | 'settings'>): string | undefined => {
  const k = `recall_enable_${technique.name}`
  return technique.settings !== undefined && Object.hasOwn(technique.settings.properties, k) ? k : undefined
}
