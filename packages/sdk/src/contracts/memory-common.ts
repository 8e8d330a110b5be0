// What every memory store role shares: health, vectors and their embedders, re-embedding,
// paging, and the key-value (working memory) store. Re-exported by memory-stores.ts.

/** What a store reports for GET /api/health?include_memory=true (DECISIONS.md). */
export interface StoreHealth {
  status: 'healthy' | 'unhealthy' | 'not_configured'
  /** What serves the role: `pglite`, `postgres`, `sql`, `memory`, `redis`, `neo4j`... */
  backend: string
  error?: string
  /** Something works but not as well as it could (e.g. no pgvector: exact cosine scan). */
  warning?: string
}

/** A vector with the embedder that made it; its dimension is `vector.length`. */
export interface EmbeddingRef { vector: number[], embedder: string }

/** How many stored vectors each embedder made: to detect an embedder change at start. */
export interface EmbedderUsage { embedder: string, dimensions: number, count: number }

/** Counts of what deleting a channel or a conversation removed from one store. */
export type DeleteCounts = Record<string, number>

/** A stored vector that another embedder (or another size) made, with the text to embed anew. */
export interface StaleEmbedding {
  kind: string
  id: string
  text: string
  /** The earlier texts the vector is read with, oldest first, when the memory service embeds it so (turns: @agentd/sdk/kits/recall context.ts). */
  context?: string[]
  /** Who said it (turns: the write API's `name`), read with each of its sentences (@agentd/sdk/kits/recall sentences.ts). */
  speaker?: string
}

export interface StaleQuery { embedder: string, dimensions: number, limit: number, after?: Record<string, string> }

/** Re-embedding support, on every store that keeps vectors (see MemoryServiceImpl.reembed). */
export interface ReembedSupport {
  /**
   * Up to `limit` stored vectors not made by `embedder` at `dimensions`, with their source
   * text, in a stable order per kind. `after` (kind -> the last id a caller got) resumes past
   * them, so a job walking the table does each row once instead of rescanning from the start.
   */
  staleEmbeddings: (q: StaleQuery) => Promise<StaleEmbedding[]>
  /** Replaces stored vectors; `null` drops one (text the embedder cannot embed). Returns rows changed. */
  setEmbeddings: (items: Array<{ kind: string, id: string, embedding: EmbeddingRef | null }>) => Promise<number>
}

export interface Page { offset: number, limit: number }
export interface PageResult<T> { items: T[], total: number }

// ---- key-value / working memory ------------------------------------------------------

/** Key-value / working memory. Keys are namespaced by the caller; TTLs slide on read when asked. */
export interface KvStore {
  readonly backend: string
  get: <T = unknown>(key: string, opts?: { slide?: boolean }) => Promise<T | undefined>
  set: (key: string, value: unknown, opts?: { ttlSeconds?: number }) => Promise<void>
  delete: (key: string) => Promise<boolean>
  /** Deletes every key with this prefix (taken literally, no glob); returns how many. */
  deletePrefix: (prefix: string) => Promise<number>
  /** Appends to a capped list (newest last). */
  pushList: (key: string, value: unknown, opts?: { max?: number, ttlSeconds?: number }) => Promise<void>
  getList: <T = unknown>(key: string, opts?: { slide?: boolean }) => Promise<T[]>
  /**
   * Optional: every live plain key (not lists) with this prefix (taken literally) and its
   * value, in no particular order; reading does not slide TTLs. Chat's session list
   * uses it; a store without it cannot list sessions (the chat answers 503).
   */
  entries?: <T = unknown>(prefix: string) => Promise<Array<{ key: string, value: T }>>
  /**
   * Optional: drops expired keys now, returns how many (the `cleanup` job calls it). A
   * store whose backend expires keys by itself (Redis) leaves it out.
   */
  sweep?: () => Promise<number>
  health: () => Promise<StoreHealth>
  /** Closes connections; the resource pool calls it, never a request. */
  close?: () => Promise<void>
}
