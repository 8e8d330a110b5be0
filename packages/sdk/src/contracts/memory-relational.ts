// The relational + vector store's items and roles. Re-exported by memory-stores.ts.
import type { DeleteCounts, EmbedderUsage, EmbeddingRef, Page, PageResult, ReembedSupport, StoreHealth } from './memory-common.ts'
import type { CopiedKind, CopySourceItem, GraphStore } from './memory-graph.ts'

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
export interface NewGoal {
  description: string, status?: Goal['status'], priority?: number, parent_goal_id?: string | null, deadline?: string | null, channel: string, embedding?: EmbeddingRef
  /** When it was set (an imported goal keeps its time); default now. */
  created_at?: string
}

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
export interface NewLearnedStrategy {
  description: string, context_pattern: string, tool_sequence?: string[], channel: string, embedding?: EmbeddingRef
  /** An imported strategy keeps its record (memory import); default 0, 0, null. */
  success_count?: number, failure_count?: number, last_used?: string | null
}
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
  /**
   * Optional: the conversations of a channel (every channel when absent) in id order after
   * `after` (memory export). A store without it cannot export turns (the export answers 503).
   */
  conversations?: (q: { channel?: string, after?: string, limit: number }) => Promise<ConversationInfo[]>
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
