// Memory contracts: three store roles (graph, relational+vector, key-value), recall
// techniques, and the memory service the chat calls. Each role is a small interface with
// an in-process reference implementation, the way @fastify/rate-limit's stores are.
// Refined by the memory work.

/** Key-value / working memory. Keys are namespaced by the caller; TTLs slide on read when asked. */
export interface KvStore {
  readonly backend: string
  get: <T = unknown>(key: string, opts?: { slide?: boolean }) => Promise<T | undefined>
  set: (key: string, value: unknown, opts?: { ttlSeconds?: number }) => Promise<void>
  delete: (key: string) => Promise<boolean>
  /** Deletes every key with this prefix; returns how many. */
  deletePrefix: (prefix: string) => Promise<number>
  /** Appends to a capped list (newest last). */
  pushList: (key: string, value: unknown, opts?: { max?: number, ttlSeconds?: number }) => Promise<void>
  getList: <T = unknown>(key: string, opts?: { slide?: boolean }) => Promise<T[]>
  health: () => Promise<{ status: 'healthy' | 'unhealthy', error?: string }>
}

/** What the chat flow needs from memory. Registered under registry.memory.service. */
export interface MemoryService {
  storeTurn: (turn: { conversation_id: string, role: string, content: string, channel?: string, metadata?: Record<string, unknown> }) => Promise<unknown>
  recall: (query: { text: string, channel?: string, top_k?: number, conversation_id?: string }, signal?: AbortSignal) => Promise<{ context: string, [key: string]: unknown }>
}

/** Entities, facts, relationships and their links; traversal to depth 1-3. */
export interface GraphStore {
  readonly backend: string
  health: () => Promise<{ status: 'healthy' | 'unhealthy', error?: string }>
}

/** Turns, conversations, tool invocations, audit log, and vectors. */
export interface RelationalStore {
  readonly backend: string
  health: () => Promise<{ status: 'healthy' | 'unhealthy', error?: string, warning?: string }>
}

/** A recall technique (hybrid, entity-centric, query expansion, HyDE, self-query). */
export interface RecallTechnique {
  readonly name: string
  /** Adds candidates to the bundle being built. */
  run: (input: { query: string, channel: string, top_k: number, signal?: AbortSignal }) => Promise<Record<string, unknown[]>>
}
