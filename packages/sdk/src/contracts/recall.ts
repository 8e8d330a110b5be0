// Recall technique contract: one way of finding memories for a query. The memory service
// runs every registered technique in parallel and fuses their candidates.
import type { EmbeddingRef, Entity, Turn } from './memory-stores.ts'

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
   * fuse this list says so (`RecallCandidates.fuses_nearest_turns`).
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

/** DECISIONS.md's recall settings; defaults and the schema are in the recall kit (`@agentd/sdk/kits/recall`). */
export interface RecallSettings {
  recall_enable_hybrid: boolean
  recall_enable_entity_centric: boolean
  recall_enable_query_expansion: boolean
  recall_enable_hyde: boolean
  recall_enable_self_query: boolean
  recall_hybrid_bm25_weight: number
  recall_hybrid_vector_weight: number
  recall_hybrid_rrf_k: number
  recall_entity_similarity_threshold: number
  recall_entity_max_entities: number
  /** Relationship hops from a matched entity whose entities' facts are recalled too (0: only the matched entities' own). */
  recall_entity_graph_depth: number
  recall_expansion_max_variants: number
  /** `provider/model` (or a bare model a provider knows); '' = none, the technique drops out. */
  recall_hyde_model: string
  /** The provider of recall_hyde_model when that is a bare name ('' = the model's own prefix, or any provider that knows it). */
  recall_hyde_provider: string
  recall_hyde_temperature: number
  recall_hyde_max_tokens: number
  recall_self_query_model: string
  recall_self_query_provider: string
  recall_self_query_temperature: number
  recall_self_query_max_tokens: number
}

/** The bundle parts a technique may fill. Items with an `id` are merged across techniques. */
export type RecallPart = 'relevant_turns' | 'entities' | 'facts' | 'strategies' | 'active_goals'
export type RecallCandidates = Partial<Record<RecallPart, Array<Record<string, unknown>>>> & {
  /** Store roles (or stages) that could not be asked; only when not strict. */
  degraded?: string[]
  /** The technique's own stages, reported in the result's timings_ms. */
  timings_ms?: Record<string, number>
  /** Why the technique gave nothing (no model set, the model failed): shown in the result's `notes`. */
  note?: string
  /**
   * true: `relevant_turns` already fuse `RecallInput.nearestTurns` (hybrid: keyword search
   * fused with them). The service then leaves its own list of those neighbours out of the
   * fusion, so each list counts once.
   */
  fuses_nearest_turns?: boolean
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
  /** Also the settings key: `recall_enable_<name>` turns it on or off (a name without such a key always runs). */
  readonly name: string
  /** Weight of this technique's ranks in the fusion (default 1). */
  readonly weight?: number
  run: (input: RecallInput) => Promise<RecallCandidates>
}

declare module '../kernel/registry.ts' {
  interface Capabilities { recallTechniques: RecallTechnique }
}
