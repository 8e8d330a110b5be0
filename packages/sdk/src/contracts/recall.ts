// Recall technique contract: one way of finding memories for a query. The memory service
// runs every registered technique in parallel and fuses their candidates.
import type { EmbeddingRef } from './memory-stores.ts'

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
  /**
   * true (the recall endpoint): let StoreUnavailableError (memory kit) out, the endpoint answers 503.
   * false (a chat): a part whose store is down is left empty and its role named in `degraded`.
   */
  strict: boolean
}

/** The bundle parts a technique may fill. Items with an `id` are merged across techniques. */
export type RecallPart = 'relevant_turns' | 'entities' | 'facts' | 'strategies' | 'active_goals'
export type RecallCandidates = Partial<Record<RecallPart, Array<Record<string, unknown>>>> & {
  /** Store roles (or stages) that could not be asked; only when not strict. */
  degraded?: string[]
  /** The technique's own stages, reported in the result's timings_ms. */
  timings_ms?: Record<string, number>
}

/**
 * A recall technique (vector+recency, hybrid keyword, entity-centric, query expansion,
 * HyDE, self-query), registered under registry.recallTechniques by any plugin. The service runs
 * every registered technique in parallel and merges their candidates per part: the same
 * `id` from two techniques is kept once with the higher `score`, parts are ordered by
 * `score` (items without one after those with one, in order) and cut to the part's size.
 * Techniques read the stores through the store roles; a store that is down throws
 * StoreUnavailableError (that part degrades, the chat goes on).
 */
export interface RecallTechnique {
  readonly name: string
  run: (input: RecallInput) => Promise<RecallCandidates>
}

declare module '../kernel/registry.ts' {
  interface Capabilities { recallTechniques: RecallTechnique }
}
