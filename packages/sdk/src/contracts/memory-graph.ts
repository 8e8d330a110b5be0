// The graph store's items and roles. Re-exported by memory-stores.ts.
import type { DeleteCounts, EmbeddingRef, Page, PageResult, ReembedSupport } from './memory-common.ts'
import type { Goal, LearnedStrategy, StoreBasics, Turn, VectorQuery } from './memory-relational.ts'

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
   * Optional: the relationships whose source entity is in `channel`, in id order after
   * `after` (memory export). Without it the export reads them by a one-hop walk per entity.
   */
  relationships?: (q: { channel: string, after?: string, limit: number }) => Promise<Relationship[]>
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

/**
 * Maintenance a graph store may offer the `decay` and `entity_linking` job plugins (the SQL
 * graph store has both). A store without a member has that job report it skipped.
 */
export interface GraphMaintenance {
  /**
   * An entity's or a current fact's salience halves every `halfLifeDays` it goes unrecalled;
   * items recalled within `minIdleHours` are left alone; decay counts from the last access or
   * the last decay, whichever is later (running more often does not decay faster).
   */
  decay?: (o: { halfLifeDays: number, minIdleHours: number }) => Promise<{ entities: number, facts: number }>
  /**
   * Merges duplicate entities of one type (same normalised name or alias, or embeddings at
   * least `similarity` alike), within a channel or into `_global`, at most `maxMerges`;
   * each committed merge is handed to `onMerged`. Returns counts (`merged`, `by_name`...).
   */
  linkEntities?: (o: { similarity: number, maxMerges: number, signal: AbortSignal, onMerged?: (m: EntityMerged) => Promise<void> }) => Promise<Record<string, number>>
}

/**
 * Entities, facts, relationships, and copies of turns, goals and strategies where the store keeps them: every graph role.
 * Callers depend on the roles they use (a recall technique on TurnStore, a job on the
 * roles it reads and writes); a backend registers the whole.
 */
export interface GraphStore extends StoreBasics, ReembedSupport, EntityStore, FactStore, RelationStore, CopyStore, GraphChannelStore, GraphMaintenance {}
