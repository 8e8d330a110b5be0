// The embedder contract: text in, unit-length vectors out.

export interface Embedder {
  /** e.g. `hash`, `local:Xenova/all-MiniLM-L6-v2`, `openai:text-embedding-3-small`: recorded with every stored vector. */
  readonly id: string
  readonly dimensions: number
  embed: (texts: string[], signal?: AbortSignal) => Promise<number[][]>
  /** `ready`, `loading`, `not_loaded` or `error` (with `error`). */
  status?: () => { status: string, error?: string }
}
