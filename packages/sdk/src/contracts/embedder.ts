// The embedder contract: text in, unit-length vectors out. The memory service records
// `id` and the vector's length with every stored vector, so a change of embedder is
// detected (and old vectors are never compared with new ones).
import type { TraceContext } from '../kernel/telemetry.ts'

/**
 * What texts are embedded for: `query`, a search waiting on its answer (a recall); `document`,
 * what is stored to be found later. An embedder that runs one text at a time serves queries
 * first, so a search is not held up behind the stored turns of the chat before it.
 */
export type EmbedPurpose = 'query' | 'document'

export interface Embedder {
  /** e.g. `hash-v1`, `local:Xenova/all-MiniLM-L6-v2`, `openai:text-embedding-3-small`: recorded with every stored vector. */
  readonly id: string
  /** Length of every vector it returns. */
  readonly dimensions: number
  /**
   * One unit-length vector per text, in order. Rejects with a message that says how to fix it
   * (model missing, key unset...). `trace`: the work it is part of (a recall's span): an
   * embedder that calls a server sends it along (`traceHeaders`). `purpose`: what the texts
   * are for (unset: `document`); the vectors are the same either way.
   */
  embed: (texts: string[], signal?: AbortSignal, trace?: TraceContext, purpose?: EmbedPurpose) => Promise<number[][]>
  /** `ready`, `loading`, `not_loaded` or `error` (with `error`). */
  status?: () => { status: string, error?: string }
}

declare module '../kernel/registry.ts' {
  interface Capabilities { embedders: Embedder }
}
