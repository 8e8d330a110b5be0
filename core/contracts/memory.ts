// Memory contracts: three store roles (graph, relational+vector, key-value), recall
// techniques, and the memory service the chat calls. Each role is a small, backend-neutral
// interface with an in-process or embedded reference implementation, the way
// @fastify/rate-limit's LocalStore/RedisStore share one interface. Stores never embed
// text themselves: the service embeds and hands them vectors tagged with the embedder id,
// so a store can be swapped without touching embeddings and vice versa.

/** What a store reports for GET /api/health?include_memory=true (DECISIONS.md). */
export interface StoreHealth {
  status: 'healthy' | 'unhealthy' | 'not_configured'
  /** What serves the role: `pglite`, `postgres`, `sql`, `memory`, `redis`, `neo4j`... */
  backend: string
  error?: string
  /** Something works but not as well as it could (e.g. no pgvector: exact cosine scan). */
  warning?: string
}

/**
 * Thrown by a store when its backend cannot be reached (connection refused, dropped,
 * timed out). The memory routes turn it into a 503 that names the store; the chat path
 * swallows it. Anything else a store throws is a bug or a caller's mistake.
 */
export class StoreUnavailableError extends Error {
  readonly role: 'relational' | 'graph' | 'kv'
  readonly backend: string
  constructor (role: 'relational' | 'graph' | 'kv', backend: string, cause: unknown) {
    super(`The ${role} memory store (${backend}) is unavailable: ${(cause as Error | undefined)?.message ?? String(cause)}`, { cause })
    this.name = 'StoreUnavailableError'
    this.role = role
    this.backend = backend
  }
}

// ---- channels ------------------------------------------------------------------------

/** Longest channel name: every store keys data by it (SQL column, Redis key prefix). */
export const CHANNEL_MAX_LENGTH = 64
/** Reserved: a filter value meaning "every channel" on list endpoints; never a channel. */
export const CHANNEL_ALL = '_all'
/**
 * A channel name: 1-64 letters, digits, hyphens or underscores, and not `_all`. The one
 * rule for every plugin that takes a channel (chat, agent, memory): a name another
 * plugin accepts but memory refuses would silently lose that request's memory.
 */
export const CHANNEL_PATTERN = `^(?!${CHANNEL_ALL}$)[A-Za-z0-9_-]{1,${CHANNEL_MAX_LENGTH}}$`
const CHANNEL_RE = new RegExp(CHANNEL_PATTERN)
export const isChannelName = (name: string): boolean => CHANNEL_RE.test(name)

/** A vector with the embedder that made it; its dimension is `vector.length`. */
export interface EmbeddingRef { vector: number[], embedder: string }

/** How many stored vectors each embedder made: to detect an embedder change at start. */
export interface EmbedderUsage { embedder: string, dimensions: number, count: number }

/** Counts of what deleting a channel or a conversation removed from one store. */
export type DeleteCounts = Record<string, number>

/** A stored vector that another embedder (or another size) made, with the text to embed anew. */
export interface StaleEmbedding { kind: string, id: string, text: string }

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
  health: () => Promise<StoreHealth>
  /** Closes connections; the resource pool calls it, never a request. */
  close?: () => Promise<void>
}

// ---- relational + vector -------------------------------------------------------------

export type TurnRole = 'user' | 'assistant' | 'system' | 'tool'

export interface Turn {
  id: string
  conversation_id: string
  index: number
  timestamp: string
  role: string
  content: string
  token_count: number | null
  metadata: Record<string, unknown>
  channel: string
  embedder: string | null
}

export interface NewTurn {
  conversation_id: string
  role: string
  content: string
  channel: string
  token_count?: number | null
  metadata?: Record<string, unknown>
  embedding?: EmbeddingRef
}

export interface Goal {
  id: string
  description: string
  status: 'active' | 'completed' | 'abandoned' | 'blocked'
  priority: number
  parent_goal_id: string | null
  created_at: string
  deadline: string | null
  channel: string
}
export interface NewGoal { description: string, status?: Goal['status'], priority?: number, parent_goal_id?: string | null, deadline?: string | null, channel: string, embedding?: EmbeddingRef }

export interface Strategy {
  id: string
  description: string
  context_pattern: string
  tool_sequence: string[]
  success_count: number
  failure_count: number
  last_used: string | null
  channel: string
}
export interface NewStrategy { description: string, context_pattern: string, tool_sequence?: string[], channel: string, embedding?: EmbeddingRef }

export interface ToolInvocation {
  id: string
  conversation_id: string | null
  tool: string
  arguments: Record<string, unknown>
  result: string
  is_error: boolean
  duration_ms: number | null
  channel: string
  created_at: string
}
export type NewToolInvocation = Omit<ToolInvocation, 'id' | 'created_at'>

export interface Channel { name: string, created_at: string }

/** A conversation as consolidation jobs see it. */
export interface ConversationInfo { id: string, channel: string, turn_count: number, created_at: string, updated_at: string, consolidated_at: string | null }

/** A similarity search: vectors made by other embedders are ignored. */
export interface VectorQuery { embedding: EmbeddingRef, channels: string[], limit: number }

/** Turns, conversations, goals, strategies, tool invocations, channels, audit log, and their vectors. */
export interface RelationalStore extends ReembedSupport {
  readonly backend: string
  health: () => Promise<StoreHealth>

  /** Appends a turn at the conversation's next index (creating the conversation). */
  addTurn: (turn: NewTurn) => Promise<Turn>
  /** A conversation's turns in order, the last `limit`. */
  conversationTurns: (conversationId: string, limit: number) => Promise<Turn[]>
  /** Nearest turns by cosine similarity, best first, `score` in -1..1. */
  similarTurns: (q: VectorQuery) => Promise<Array<Turn & { score: number }>>
  /** Newest turns in these channels. */
  recentTurns: (channels: string[], limit: number) => Promise<Turn[]>
  /** Removes a conversation and its turns; null when it did not exist. */
  deleteConversation: (conversationId: string) => Promise<DeleteCounts | null>
  /** Clears every conversation's consolidated marker; returns how many were set. */
  resetConsolidation: () => Promise<number>

  // For recall techniques and consolidation jobs that come as plugins (no store change needed):
  /**
   * Keyword search over turn text: full text with the language-neutral `simple`
   * configuration, matching any of the query's words, best first (`score` = text rank).
   * Punctuation and operators in `text` are ignored, never interpreted.
   */
  searchTurns: (q: { text: string, channels: string[], limit: number }) => Promise<Array<Turn & { score: number }>>
  /** Conversations never consolidated, or with turns added since; least recently changed first. `idle_seconds`: only those unchanged for that long. */
  unconsolidatedConversations: (q: { limit: number, idle_seconds?: number }) => Promise<ConversationInfo[]>
  /** Sets consolidated_at (now, or `at`) on these conversations; returns how many exist. */
  markConsolidated: (ids: string[], at?: string) => Promise<number>

  addGoal: (goal: NewGoal) => Promise<Goal>
  goals: (q: { channels?: string[], status?: Goal['status'], limit: number }) => Promise<Goal[]>
  addStrategy: (s: NewStrategy) => Promise<Strategy>
  strategies: (q: { channel?: string, search?: string } & Page) => Promise<PageResult<Strategy>>
  similarStrategies: (q: VectorQuery) => Promise<Array<Strategy & { score: number }>>
  addToolInvocation: (t: NewToolInvocation) => Promise<ToolInvocation>
  toolInvocations: (q: { conversation_id?: string, channel?: string, limit: number }) => Promise<ToolInvocation[]>

  /** Idempotent; returns false when the channel already existed. */
  createChannel: (name: string) => Promise<{ created: boolean, channel: Channel }>
  channels: () => Promise<Channel[]>
  /** Removes the channel and every row in it; the counts name what went. */
  deleteChannel: (name: string) => Promise<DeleteCounts>
  /**
   * Optional: removes the channel from this store and from `graph` in one transaction, when
   * both live in the same database. Resolves undefined when they do not; the caller then
   * deletes from each store in turn (after checking that every store is up).
   */
  deleteChannelWith?: (name: string, graph: GraphStore) => Promise<{ relational: DeleteCounts, graph: DeleteCounts } | undefined>
  /** Per channel: turns, strategies, goals, conversations. */
  countByChannel: () => Promise<Record<string, Record<string, number>>>
  /** Deletes strategies and goals (the consolidated memories this store holds). */
  deleteMemories: () => Promise<number>

  audit: (entry: { action: string, target?: string, channel?: string, details?: Record<string, unknown> }) => Promise<void>
  /** Removes audit entries older than `days`; returns how many. */
  pruneAudit: (days: number) => Promise<number>
  auditLog: (limit: number) => Promise<Array<{ at: string, action: string, target: string | null, channel: string | null, details: Record<string, unknown> }>>

  embedderUsage: () => Promise<EmbedderUsage[]>
  close?: () => Promise<void>
}

// ---- graph ---------------------------------------------------------------------------

export interface Entity {
  id: string
  name: string
  type: string
  aliases: string[]
  description: string | null
  salience: number
  properties: Record<string, unknown>
  first_seen: string
  last_accessed: string
  access_count: number
  channel: string
}
export interface NewEntity { name: string, type: string, aliases?: string[], description?: string | null, salience?: number, properties?: Record<string, unknown>, channel: string, embedding?: EmbeddingRef }

export type TemporalContext = 'current' | 'past' | 'future'

export interface Fact {
  id: string
  claim: string
  claim_hash: string
  confidence: number
  source: 'extraction' | 'user_stated' | 'inferred'
  source_turn_id: string | null
  entity_ids: string[]
  created_at: string
  channel: string
  last_accessed: string
  access_count: number
  salience: number
  temporal_context: TemporalContext | null
  superseded_at: string | null
  superseded_by_id: string | null
  supersedes_id: string | null
  flagged_for_review: boolean
}
export interface NewFact {
  claim: string
  /** SHA-256 of the normalised claim; the service computes it. */
  claim_hash: string
  confidence?: number
  source: Fact['source']
  source_turn_id?: string | null
  entity_ids?: string[]
  channel: string
  salience?: number
  temporal_context?: TemporalContext | null
  embedding?: EmbeddingRef
}

export interface Relationship { id: string, source_id: string, target_id: string, type: string, confidence: number, channel: string }

export interface EntityGraph {
  entity: Entity
  facts: Fact[]
  /**
   * `direction` is relative to the walk from the root: `outgoing` when the walk followed the
   * edge from its source to its target (at depth 1: the root is the source), `incoming` when
   * it went from the target back to the source. `depth`: hops from the root to the edge's
   * far end (1 = touches the root).
   */
  relationships: Array<{ type: string, direction: 'outgoing' | 'incoming', confidence: number, depth: number, source: { id: string, name: string, type: string }, target: { id: string, name: string, type: string } }>
  depth: number
}

/** Entities, facts, relationships and their links; traversal to depth 1-3. */
export interface GraphStore extends ReembedSupport {
  readonly backend: string
  health: () => Promise<StoreHealth>

  /** Same (channel, name case-insensitively, type) -> the existing entity, aliases merged. */
  upsertEntity: (e: NewEntity) => Promise<{ entity: Entity, created: boolean }>
  entity: (id: string) => Promise<Entity | undefined>
  entities: (q: { channel?: string, search?: string, type?: string } & Page) => Promise<PageResult<Entity>>
  similarEntities: (q: VectorQuery) => Promise<Array<Entity & { score: number }>>

  /** Same (channel, claim_hash) -> the existing fact (`created: false`), not a second row. */
  addFact: (f: NewFact) => Promise<{ fact: Fact, created: boolean }>
  /** Stores `next` and links it: old.superseded_by_id/superseded_at, next.supersedes_id. */
  supersedeFact: (oldId: string, next: NewFact) => Promise<{ old: Fact, fact: Fact }>
  fact: (id: string) => Promise<Fact | undefined>
  /** Lists facts; superseded ones only with include_superseded. */
  facts: (q: { channel?: string, search?: string, min_confidence?: number, include_superseded?: boolean } & Page) => Promise<PageResult<Fact>>
  /** Nearest current (not superseded) facts. Bumps access_count/last_accessed of what it returns. */
  similarFacts: (q: VectorQuery) => Promise<Array<Fact & { score: number }>>

  relate: (r: { source_id: string, target_id: string, type: string, confidence?: number, channel: string }) => Promise<Relationship>
  /** The entity, its facts and the relationships reachable within `depth` hops; undefined if unknown. */
  graph: (entityId: string, depth: number) => Promise<EntityGraph | undefined>

  // For consolidation jobs that come as plugins:
  /** Sets an entity's or a fact's salience (clamped to 0-1); false when there is no such item. */
  setSalience: (kind: 'entity' | 'fact', id: string, salience: number) => Promise<boolean>
  /**
   * Moves an entity or a fact to another channel (promotion to `_global`). When that channel
   * already holds the same item (entity: name any case + type; fact: claim_hash), the two
   * merge into the one already there: links, relationships and access counts move over.
   * Returns the id that remains; undefined for an unknown id.
   */
  moveToChannel: (kind: 'entity' | 'fact', id: string, channel: string) => Promise<{ id: string, merged: boolean } | undefined>

  deleteChannel: (name: string) => Promise<DeleteCounts>
  /** Per channel: entities, facts. */
  countByChannel: () => Promise<Record<string, Record<string, number>>>
  /** Deletes every entity, fact and relationship; returns how many rows. */
  deleteAll: () => Promise<number>
  embedderUsage: () => Promise<EmbedderUsage[]>
  close?: () => Promise<void>
}

// ---- the service ---------------------------------------------------------------------

export interface MemoryBundle {
  relevant_turns: Array<Record<string, unknown>>
  entities: Array<Record<string, unknown>>
  facts: Array<Record<string, unknown>>
  strategies: Array<Record<string, unknown>>
  active_goals: Array<Record<string, unknown>>
  user_context: Record<string, unknown>
}

export interface RecallResult extends MemoryBundle {
  /** The bundle rendered as prompt text within the token budget ('' when nothing was found). */
  context: string
  techniques: string[]
  timings_ms: Record<string, number>
  /** Stores that could not be asked; recall still answers with what the others gave. */
  degraded?: string[]
  [key: string]: unknown
}

/**
 * What the chat flow needs from memory. Registered under registry.memory.service.
 * Failure-tolerant: storeTurn and recall never reject because a store is down
 * (they resolve with `stored: false` / an empty context and say why).
 */
export interface MemoryService {
  storeTurn: (turn: { conversation_id: string, role: string, content: string, channel?: string, metadata?: Record<string, unknown> }) => Promise<{ stored: boolean, turn?: Turn, error?: string }>
  recall: (query: { text: string, channel?: string, top_k?: number, conversation_id?: string, token_budget?: number }, signal?: AbortSignal) => Promise<RecallResult>
}

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
   * true (the recall endpoint): let StoreUnavailableError out, the endpoint answers 503.
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
 * HyDE, self-query), registered under registry.recall by any plugin. The service runs
 * every registered technique in parallel and merges their candidates per part: the same
 * `id` from two techniques is kept once with the higher `score`, parts are ordered by
 * `score` (items without one after those with one, in order) and cut to the part's size.
 * Techniques read the stores through registry.memory; a store that is down throws
 * StoreUnavailableError (that part degrades, the chat goes on).
 */
export interface RecallTechnique {
  readonly name: string
  run: (input: RecallInput) => Promise<RecallCandidates>
}
