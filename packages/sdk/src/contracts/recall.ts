// Recall technique contract: one way of finding memories for a query. The memory service
// runs every registered technique in parallel and fuses their candidates.
import type { TObject } from '@agentd/sdk/typebox'
import type { EmbeddingRef, Entity, Fact, Goal, LearnedStrategy, Turn } from './memory-stores.ts'

/** What a recall technique is asked. */
export interface RecallInput {
  query: string
  /** The active channel. */
  channel: string
  /** What to read: the active channel and `_global`. */
  channels: string[]
  top_k: number
  conversation_id?: string
  /** The query embedded once by the service for every technique; undefined when no embedder works. */
  embedding?: EmbeddingRef
  signal?: AbortSignal
  /** The recall settings in force (GET /api/memory/recall-settings); read them per call, they change live. */
  settings: RecallSettings
  /**
   * The turns nearest the query's `embedding` in `channels`, at most `limit`, ranked as the
   * service ranks vector neighbours (`score`: the cosine, recency breaking ties, or blended in
   * when the query asks for what is recent; `similarity`: the cosine; noise below 0.05 left
   * out): fetched once per recall by the service and shared, so techniques that all need the
   * query's vector neighbours (vector_recency, hybrid) do not each ask the store. Empty
   * without an embedding. Rejects as the store's similarTurns would. A technique whose turns
   * fuse this list says so (`RecallCandidates.includes`).
   */
  nearestTurns?: (limit: number) => Promise<Array<Turn & { score: number }>>
  /**
   * The entities nearest the query's `embedding` in `channels`, as nearestTurns: read once
   * per recall and shared (vector_recency lists them, entity_centric starts from them).
   * Empty without an embedding or a graph store. Rejects as the store's similarEntities would.
   */
  nearestEntities?: (limit: number) => Promise<Array<Entity & { score: number }>>
  /** Embeds another text with the embedder that made `embedding` (query variants, HyDE); undefined when none works. */
  embed?: (text: string) => Promise<EmbeddingRef | undefined>
  /**
   * true (the recall endpoint): let StoreUnavailableError (memory kit) out, the endpoint answers 503.
   * false (a chat): a part whose store is down is left empty and its role named in `degraded`.
   */
  strict: boolean
}

/**
 * The recall settings in force (GET /api/memory/recall-settings): key -> value, the fusion's
 * keys and those of every loaded technique. A technique reads its own through the recall
 * kit's `settingsOf(itsSchema, input.settings)`, typed and with its defaults.
 */
export type RecallSettings = Readonly<Record<string, unknown>>

/** How a recalled item ranked, beside the store's own fields. */
export interface Ranked {
  /** The technique's score (cosine, text rank, fused rank score); in a bundle, the fused score. */
  score?: number
  /** A turn's cosine when its score blends recency in; null when it was found without a vector. */
  similarity?: number | null
  /** In a bundle: the techniques that found the item. */
  found_by?: string[]
}

/** The bundle's parts: the stores' items, ranked. Items are merged across techniques by `id`. */
export interface RecallParts {
  relevant_turns: Array<Turn & Ranked>
  entities: Array<Entity & Ranked>
  facts: Array<Fact & Ranked>
  strategies: Array<LearnedStrategy & Ranked>
  active_goals: Array<Goal & Ranked>
}

/** The bundle parts a technique may fill. */
export type RecallPart = keyof RecallParts
export type RecallCandidates = Partial<RecallParts> & {
  /** Store roles (or stages) that could not be asked; only when not strict. */
  degraded?: string[]
  /** The technique's own stages, reported in the result's timings_ms. */
  timings_ms?: Record<string, number>
  /** Why the technique gave nothing (no model set, the model failed): shown in the result's `notes`. */
  note?: string
  /**
   * Weights of this answer's lists in the fusion, per part, where the technique's settings
   * set them (the service's vector list weighs `recall_hybrid_vector_weight`, hybrid's
   * keyword list `recall_hybrid_bm25_weight`); a part not named weighs the technique's `weight`.
   */
  weights?: Partial<Record<RecallPart, number>>
}

/**
 * A recall technique (vector+recency, hybrid keyword, entity-centric, query expansion,
 * HyDE, self-query), registered under registry.recallTechniques by any plugin. The service runs
 * every enabled technique in parallel within the memory plugin's `recall_technique_timeout_ms` and fuses their
 * candidates per part by reciprocal rank fusion: each technique's list counts by rank
 * (return items best first), the same `id` from two techniques is kept once and ranks
 * higher; identical turn contents are collapsed; items without an `id` come after.
 * Techniques read the stores through the store roles; a store that is down throws
 * StoreUnavailableError (that part degrades, the chat goes on).
 */
export interface RecallTechnique {
  /** `recall_enable_<name>` in its settings turns it on or off (without such a key it always runs). */
  readonly name: string
  /**
   * Its own recall settings: keys (DECISIONS.md's names), defaults, descriptions and
   * validation, as a TypeBox object. The recall-settings endpoint serves them beside every
   * other loaded technique's; read them with the recall kit's `settingsOf`.
   */
  readonly settings?: TObject
  /** Weight of this technique's ranks in the fusion (default 1; `RecallCandidates.weights` sets it per answer). */
  readonly weight?: number
  run: (input: RecallInput) => Promise<RecallCandidates>
}

declare module '../kernel/registry.ts' {
  interface Capabilities { recallTechniques: RecallTechnique }
}
