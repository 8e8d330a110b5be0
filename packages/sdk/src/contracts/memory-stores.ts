// Memory store contracts: three roles (graph, relational+vector, key-value). Each role is
// a small, backend-neutral interface with an in-process or embedded reference
// implementation, the way @fastify/rate-limit's LocalStore/RedisStore share one interface.
// Stores never embed text themselves: the memory service embeds and hands them vectors
// tagged with the embedder id, so a store can be swapped without touching embeddings.
// A store that cannot reach its backend throws the memory kit's StoreUnavailableError.

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
  /**
   * Given by the caller so a write can be retried (a replay from the outbox, a reply lost in
   * an outage): a turn whose id is already stored is returned as it is, never added twice.
   */
  id?: string
  /** When the turn was said (a replayed turn keeps its time); default now. */
  timestamp?: string
  conversation_id: string
  role: string
  content: string
  channel: string
  token_count?: number | null
  metadata?: Record<string, unknown>
  embedding?: EmbeddingRef
  /**
   * Words of the turns this one answers (@agentd/sdk/kits/recall contextWords): a keyword
   * search may match them, weighed below the turn's own words, so "Two nights in a tiny
   * hotel." is found by the question that asked how long. Not part of the stored Turn; a
   * store without keyword search may ignore it.
   */
  context?: string
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
export interface GoalPatch { description?: string, status?: Goal['status'], priority?: number, deadline?: string | null, embedding?: EmbeddingRef }
export interface AuditEntry { at: string, action: string, target: string | null, channel: string | null, details: Record<string, unknown> }
export interface NewGoal { description: string, status?: Goal['status'], priority?: number, parent_goal_id?: string | null, deadline?: string | null, channel: string, embedding?: EmbeddingRef }

/** Procedural memory: a way of using tools that worked (not an agent reasoning strategy). */
export interface LearnedStrategy {
  id: string
  description: string
  context_pattern: string
  tool_sequence: string[]
  success_count: number
  failure_count: number
  last_used: string | null
  channel: string
}
export interface NewLearnedStrategy { description: string, context_pattern: string, tool_sequence?: string[], channel: string, embedding?: EmbeddingRef }
/** One run of tools in a conversation, for recordStrategyRun. */
export interface StrategyRun extends NewLearnedStrategy { tool_sequence: string[], conversation_id: string, success: boolean }

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
/** `id` and `created_at` may be given (a retried write: the same id is stored once). */
export type NewToolInvocation = Omit<ToolInvocation, 'id' | 'created_at'> & { id?: string, created_at?: string }

export interface Channel { name: string, created_at: string }

/** A conversation as consolidation jobs see it. */
export interface ConversationInfo { id: string, channel: string, turn_count: number, created_at: string, updated_at: string, consolidated_at: string | null }

/** A similarity search: vectors made by other embedders are ignored. */
export interface VectorQuery { embedding: EmbeddingRef, channels: string[], limit: number }

/** What every store answers: its backend's name, health, the embedders its vectors come from. */
export interface StoreBasics {
  readonly backend: string
  health: () => Promise<StoreHealth>
  embedderUsage: () => Promise<EmbedderUsage[]>
  close?: () => Promise<void>
}

/** Turns: appended per conversation, read back, searched by vector and by keywords, and read in order for copies elsewhere (the graph back-fill). */
export interface TurnStore {
  /** Appends a turn at the conversation's next index (creating the conversation); an `id` already stored returns that turn. */
  addTurn: (turn: NewTurn) => Promise<Turn>
  /** A conversation's turns in order, the last `limit`. */
  conversationTurns: (conversationId: string, limit: number) => Promise<Turn[]>
  /** Nearest turns by cosine similarity, best first, `score` in -1..1. */
  similarTurns: (q: VectorQuery) => Promise<Array<Turn & { score: number }>>
  /** Newest turns in these channels. */
  recentTurns: (channels: string[], limit: number) => Promise<Turn[]>
  /**
   * Keyword search over turn text: full text with the language-neutral `simple`
   * configuration, matching any of the query's words, best first (`score` = text rank).
   * Punctuation and operators in `text` are ignored, never interpreted. A store may leave
   * out turns that share only a common word with the query (one in a large part of the
   * channels' turns), returning fewer than `limit`.
   */
  searchTurns: (q: { text: string, channels: string[], limit: number }) => Promise<Array<Turn & { score: number }>>
  /**
   * Optional: items of one kind in id order after `after`, with their stored vectors, for a
   * graph store's back-fill of copies (items written before it was configured).
   */
  copySource?: (q: { kind: CopiedKind, after?: string, limit: number }) => Promise<CopySourceItem[]>
  /** Optional: how many items of each kind there are (the back-fill's total). */
  copySourceCount?: () => Promise<Record<CopiedKind, number>>
}

/** Conversations as units: deleted whole, and marked when consolidation has read them. */
export interface ConversationStore {
  /** Removes a conversation and its turns; null when it did not exist. */
  deleteConversation: (conversationId: string) => Promise<DeleteCounts | null>
  /** Clears every conversation's consolidated marker; returns how many were set. */
  resetConsolidation: () => Promise<number>
  /** Conversations never consolidated, or with turns added since; least recently changed first. `idle_seconds`: only those unchanged for that long. */
  unconsolidatedConversations: (q: { limit: number, idle_seconds?: number }) => Promise<ConversationInfo[]>
  /** Sets consolidated_at (now, or `at`) on these conversations; returns how many exist. */
  markConsolidated: (ids: string[], at?: string) => Promise<number>
}

/** Goals (procedural memory). */
export interface GoalStore {
  addGoal: (goal: NewGoal) => Promise<Goal>
  goals: (q: { channels?: string[], status?: Goal['status'], limit: number }) => Promise<Goal[]>
  goal: (id: string) => Promise<Goal | undefined>
  /** Changes a goal's fields (the service checks status transitions); undefined for an unknown id. */
  updateGoal: (id: string, patch: GoalPatch) => Promise<Goal | undefined>
  /** False for an unknown id. */
  deleteGoal: (id: string) => Promise<boolean>
}

/** Learned strategies: ways of using tools that worked (the patterns job records them). */
export interface StrategyStore {
  addStrategy: (s: NewLearnedStrategy) => Promise<LearnedStrategy>
  /**
   * Counts one tool-using run towards the strategy with this tool sequence in this channel
   * (the patterns job). No such strategy: a successful run creates it (success_count 1), a
   * failed one creates nothing. A conversation is counted once per strategy (`counted`
   * false the second time), so running the job again changes nothing.
   */
  recordStrategyRun: (r: StrategyRun) => Promise<{ strategy?: LearnedStrategy, created: boolean, counted: boolean }>
  strategy: (id: string) => Promise<LearnedStrategy | undefined>
  /** False for an unknown id. */
  deleteStrategy: (id: string) => Promise<boolean>
  strategies: (q: { channel?: string, search?: string } & Page) => Promise<PageResult<LearnedStrategy>>
  similarStrategies: (q: VectorQuery) => Promise<Array<LearnedStrategy & { score: number }>>
}

/** The tool calls chats made (procedural memory's raw material). */
export interface ToolLogStore {
  addToolInvocation: (t: NewToolInvocation) => Promise<ToolInvocation>
  /** Optional: removes tool invocations older than `days`; returns how many (the `cleanup` job). */
  pruneToolInvocations?: (days: number) => Promise<number>
  /** Oldest first; `since`: only those recorded after that moment (the patterns job's watermark). */
  toolInvocations: (q: { conversation_id?: string, channel?: string, since?: string, limit: number }) => Promise<ToolInvocation[]>
}

/** Channels: created, listed, counted and deleted with everything in them. */
export interface ChannelStore {
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
}

/** The audit log: every change to a memory, by whom; an item's history. */
export interface AuditStore {
  audit: (entry: { action: string, target?: string, channel?: string, details?: Record<string, unknown> }) => Promise<void>
  /** Removes audit entries older than `days`; returns how many. */
  pruneAudit: (days: number) => Promise<number>
  /** The audit entries about one item (its `target`), oldest first: an item's history. */
  auditFor: (target: string, limit: number) => Promise<AuditEntry[]>
  auditLog: (limit: number) => Promise<Array<{ at: string, action: string, target: string | null, channel: string | null, details: Record<string, unknown> }>>
}

/**
 * Turns, conversations, goals, strategies, tool invocations, channels, audit log, and their vectors: every relational role.
 * Callers depend on the roles they use (a recall technique on TurnStore, a job on the
 * roles it reads and writes); a backend registers the whole.
 */
export interface RelationalStore extends StoreBasics, ReembedSupport, TurnStore, ConversationStore, GoalStore, StrategyStore, ToolLogStore, ChannelStore, AuditStore {}

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
  /** Distinct conversations the entity was extracted from (salience grows with it). */
  conversation_count: number
}
export interface NewEntity {
  name: string
  type: string
  aliases?: string[]
  description?: string | null
  salience?: number
  properties?: Record<string, unknown>
  channel: string
  embedding?: EmbeddingRef
  /** The conversation it was extracted from: counted once per entity. */
  conversation_id?: string | null
}

export interface EntityPatch { name?: string, type?: string, aliases?: string[], description?: string | null, properties?: Record<string, unknown>, salience?: number, embedding?: EmbeddingRef }

export type TemporalContext = 'current' | 'past' | 'future'
export interface FactPatch { confidence?: number, temporal_context?: TemporalContext | null, salience?: number, flagged_for_review?: boolean }

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
  /** The entity the fact is about: supersession compares facts of one subject only. */
  subject_id: string | null
  /** A single-valued attribute (works_at, lives_in...): a new value supersedes the old. Null: the fact accumulates (likes, friends). */
  attribute: string | null
  /** The attribute's value as extracted ("Acme"). */
  value: string | null
  /** Distinct conversations that stated the fact (promotion needs two). */
  conversation_count: number
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
  subject_id?: string | null
  attribute?: string | null
  value?: string | null
  /** The conversation that stated it: counted once per fact, also when the fact already exists. */
  conversation_id?: string | null
  /** A low-confidence contradiction of a current fact is stored flagged, not superseding. */
  flagged_for_review?: boolean
}

/** What a graph store may hold a copy of (GraphStore.removeCopy). */
export type CopyKind = 'goal' | 'strategy' | 'conversation'

/** The items a graph store keeps copies of, one by one (the back-fill copies them in this order). */
export type CopiedKind = 'turn' | 'goal' | 'strategy'
/** One item of the relational store as a copy needs it: the item and its stored vector. */
export type CopySourceItem =
  | { kind: 'turn', item: Turn, embedding?: EmbeddingRef }
  | { kind: 'goal', item: Goal, embedding?: EmbeddingRef }
  | { kind: 'strategy', item: LearnedStrategy, embedding?: EmbeddingRef }
/** Where a back-fill of copies stands, kept in the graph store it fills (a new server starts over). */
export interface BackfillState {
  /** The last id copied per kind (items are read in id order). */
  after: Partial<Record<CopiedKind, string>>
  /** Every item the relational store held when the run started has been looked at. */
  done: boolean
  /** Items copied so far (those the graph store already had are not counted). */
  copied: number
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
  /** The most relationships this walk returns (the memory kit's `graphWalkLimit`). */
  limit: number
  /** True when more relationships were within reach than `limit`: the nearest were kept (by depth, type, target name). */
  truncated: boolean
}

/** Entities: deduplicated by name and type per channel, found by name, by vector or by text. */
export interface EntityStore {
  /** Same (channel, name case-insensitively, type) -> the existing entity, aliases merged, `conversation_id` counted once. */
  upsertEntity: (e: NewEntity) => Promise<{ entity: Entity, created: boolean }>
  entity: (id: string) => Promise<Entity | undefined>
  /**
   * Entities in these channels whose name or an alias is `name`, case-insensitively, in
   * the order of `channels` (entity linking reads the conversation's channel, then `_global`).
   */
  findEntities: (q: { channels: string[], name: string, limit: number }) => Promise<Entity[]>
  /** `exclude_channel`: leave one channel out (promotion reads every channel but `_global`). */
  entities: (q: { channel?: string, exclude_channel?: string, search?: string, type?: string, min_salience?: number } & Page) => Promise<PageResult<Entity>>
  /**
   * Changes an entity; undefined for an unknown id. A name and type another entity of the
   * channel has already throw EntityConflictError (merge them instead).
   */
  updateEntity: (id: string, patch: EntityPatch) => Promise<Entity | undefined>
  /** Deletes an entity with its relationships and fact links (the facts stay). False for an unknown id. */
  deleteEntity: (id: string) => Promise<boolean>
  /**
   * Nearest entities by cosine similarity, best first, `score` in -1..1: every entity in the
   * channels with a vector of the query's embedder, up to `limit`, never fewer when more
   * exist (an approximate index scan that came back short is run again exactly), so an
   * empty answer means the channels hold no such entity (recall-entity relies on it).
   */
  similarEntities: (q: VectorQuery) => Promise<Array<Entity & { score: number }>>
  /**
   * Optional keyword search (a store with a full-text index: Neo4j): entities whose name,
   * aliases or description hold any of the query's words, best first (`score` = text rank).
   * Punctuation and operators in `text` are ignored, never interpreted.
   */
  searchEntities?: (q: { text: string, channels: string[], limit: number }) => Promise<Array<Entity & { score: number }>>
}

/** Facts about entities, with supersession: a correction replaces a fact, which stays with its history. */
export interface FactStore {
  /**
   * Same (channel, claim_hash) -> the existing fact (`created: false`), not a second row;
   * its confidence becomes the higher of the two and `conversation_id` is counted once.
   */
  addFact: (f: NewFact) => Promise<{ fact: Fact, created: boolean }>
  /**
   * Stores `next` (or finds it by claim_hash) and links it: the old fact gets
   * superseded_at, superseded_by_id and temporal_context `past`; next.supersedes_id.
   */
  supersedeFact: (oldId: string, next: NewFact) => Promise<{ old: Fact, fact: Fact }>
  fact: (id: string) => Promise<Fact | undefined>
  /** The fact with this claim_hash in the first of these channels that has one, superseded or not. */
  findFact: (q: { channels: string[], claim_hash: string }) => Promise<Fact | undefined>
  /**
   * The facts that hold now about `subject_id`'s `attribute` in these channels: not
   * superseded, not flagged for review, temporal_context `current` (or unset). Supersession candidates.
   */
  currentFacts: (q: { channels: string[], subject_id: string, attribute: string }) => Promise<Fact[]>
  /**
   * Lists facts, newest first; superseded ones only with include_superseded; `flagged`
   * true: only those flagged for review (false: only those not flagged).
   */
  facts: (q: { channel?: string, exclude_channel?: string, search?: string, min_confidence?: number, include_superseded?: boolean, flagged?: boolean, min_access_count?: number, min_conversations?: number } & Page) => Promise<PageResult<Fact>>
  /**
   * Nearest facts, current ones only unless include_superseded. Bumps access_count/last_accessed
   * of what it returns.
   */
  similarFacts: (q: VectorQuery & { include_superseded?: boolean }) => Promise<Array<Fact & { score: number }>>
  /** Changes a fact in place (not its claim: a new claim is a supersession); undefined for an unknown id. */
  updateFact: (id: string, patch: FactPatch) => Promise<Fact | undefined>
  /** Deletes one fact; links to it from other facts (supersedes/superseded_by) are cleared. False for an unknown id. */
  deleteFact: (id: string) => Promise<boolean>
  /** Optional keyword search over current (not superseded) facts' claims, as searchEntities. */
  searchFacts?: (q: { text: string, channels: string[], limit: number }) => Promise<Array<Fact & { score: number }>>
}

/** Relationships between entities, the graph walk, and what consolidation changes on items (salience, promotion to another channel). */
export interface RelationStore {
  relate: (r: { source_id: string, target_id: string, type: string, confidence?: number, channel: string }) => Promise<Relationship>
  /**
   * The entity, its facts and the relationships reachable within `depth` hops, at most
   * `limit` of them (default and bounds: the memory kit's `GRAPH_WALK_LIMIT`), the nearest
   * first; undefined if unknown.
   */
  graph: (entityId: string, depth: number, limit?: number) => Promise<EntityGraph | undefined>
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
}

/** Copies of turns, goals and strategies a graph store keeps beside its own items (Neo4j: full text and vector search over them), and the back-fill's position. Every member optional: a store that keeps no copies has none. */
export interface CopyStore {
  // Optional copies of what the relational store keeps (it stays the record): a graph store
  // that holds the seed's whole model (Neo4j: Conversation, Turn, Goal and Strategy nodes)
  // has all four of upsertTurn, upsertGoal, upsertStrategy and removeCopy, or none. The
  // memory service writes them after the relational write, through its copy outbox (queued
  // while the graph store is down, so a copy may lag; a failed copy never fails the write).
  /**
   * Creates or replaces the copy of a stored turn (by id), in its Conversation (created when
   * new) at its index. `embedding` undefined: a vector the copy already has stays.
   */
  upsertTurn?: (t: Turn, embedding?: EmbeddingRef) => Promise<void>
  /** Creates or replaces the copy of a goal (by id), every field as stored; under its parent goal when that is copied. */
  upsertGoal?: (g: Goal, embedding?: EmbeddingRef) => Promise<void>
  /** Creates or replaces the copy of a learned strategy (by id), counts and tool sequence as stored. */
  upsertStrategy?: (s: LearnedStrategy, embedding?: EmbeddingRef) => Promise<void>
  /** Removes a copy: a goal, a strategy, or a conversation with its turns. Returns the nodes removed (0: none). */
  removeCopy?: (kind: CopyKind, id: string) => Promise<number>
  /**
   * Optional keyword search over copied turns, as RelationalStore.searchTurns (a store with a
   * full-text index over them: Neo4j). Recall prefers it when there, the relational store's otherwise.
   */
  searchTurns?: (q: { text: string, channels: string[], limit: number }) => Promise<Array<Turn & { score: number }>>
  /**
   * Optional nearest copied turns by vector, as RelationalStore.similarTurns (a store with a
   * vector index over its copies: Neo4j). Recall prefers it when there, the relational store's otherwise.
   */
  similarTurns?: (q: VectorQuery) => Promise<Array<Turn & { score: number }>>
  /** Optional, with the copy writers: which of these ids it holds a copy of (the back-fill skips them). */
  copiedIds?: (kind: CopiedKind, ids: string[]) => Promise<string[]>
  /** Optional, with the copy writers: the back-fill's progress as last saved here; undefined before the first. */
  backfillState?: () => Promise<BackfillState | undefined>
  saveBackfillState?: (s: BackfillState) => Promise<void>
}

/** A graph store's channels: counted, deleted with everything in them; everything deleted. */
export interface GraphChannelStore {
  /** Removes the channel's items (and copies: turns, conversations, goals, strategies, counted by kind). */
  deleteChannel: (name: string) => Promise<DeleteCounts>
  /** Per channel: entities, facts (copies are counted by the relational store, the record). */
  countByChannel: () => Promise<Record<string, Record<string, number>>>
  /** Deletes every entity, fact and relationship (and copies of goals and strategies, not counted: the relational store counts those); returns how many rows. */
  deleteAll: () => Promise<number>
}

/**
 * Entities, facts, relationships, and copies of turns, goals and strategies where the store keeps them: every graph role.
 * Callers depend on the roles they use (a recall technique on TurnStore, a job on the
 * roles it reads and writes); a backend registers the whole.
 */
export interface GraphStore extends StoreBasics, ReembedSupport, EntityStore, FactStore, RelationStore, CopyStore, GraphChannelStore {}


declare module '../kernel/registry.ts' {
  interface Capabilities {
    graphStores: GraphStore
    relationalStores: RelationalStore
    kvStores: KvStore
  }
}


/** One entity as it was when a graph store's maintenance merged it (`memory:entity-merged`). */
export interface MergedEntityRef { id: string, name: string, type: string, channel: string }

/**
 * A graph store merged entity `merged` into `survivor` (the `entity_linking` job): `merged`
 * is gone, its name an alias of `survivor`; `facts` were linked to `merged` and are linked
 * to `survivor` now (each stays in its channel). Run after the merge is committed, by the
 * store's plugin; the memory plugin writes it to the history of every item named.
 */
export interface EntityMerged {
  survivor: MergedEntityRef
  merged: MergedEntityRef
  reason: string
  score: number | null
  facts: Array<{ id: string, channel: string }>
  relationships_moved: number
  /** What merged them, e.g. `entity_linking`. */
  by: string
}

declare module '../kernel/hooks.ts' {
  interface HookPayloads {
    /** After a graph store merged two entities (committed). */
    'memory:entity-merged': EntityMerged
  }
}
