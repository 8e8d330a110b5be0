// The memory service: one object over the parts, each in its own file, that share a
// ServiceContext (context.ts: stores looked up per call, hooks, log, options):
//   embedding.ts (+ warm-up.ts)   which embedder, embedding a text
//   embedder-drift.ts (+ reembed.ts)   vectors of another embedder: warning, re-embed job
//   episodic.ts     turns, working memory, deleting a conversation
//   semantic.ts     entities, facts, relationships
//   procedural.ts   strategies, goals, tool invocations
//   recall-bundle.ts (+ vector-recency.ts, recall-merge.ts)   recall
//   channel-admin.ts, admin.ts   channels, stats, reset
// Two faces: the chat-facing storeTurn/recall never reject (a memory failure must not fail
// a chat), the rest throws StoreUnavailableError / 4xx errors for the routes.
import type { FastifyBaseLogger } from 'fastify'
import type { Embedder } from '@agentd/sdk/contracts/embedder'
import type { EmbeddingRef, Entity, Fact, Goal, GraphStore, KvStore, LearnedStrategy, NewGoal, NewLearnedStrategy, NewToolInvocation, RelationalStore, Relationship, ToolInvocation, Turn } from '@agentd/sdk/contracts/memory-stores'
import type { MemoryService, RecallResult } from '@agentd/sdk/contracts/memory-service'
import type { RecallTechnique } from '@agentd/sdk/contracts/recall'
import type { Hooks, Registry } from '@agentd/sdk'
import type { OutageLog } from './outage-log.ts'
import { MemoryErrors } from './errors.ts'
import { history as itemHistory, record, type Actor, type HistoryEntry, type ItemKind } from './history.ts'

const PLURAL: Record<ItemKind, string> = { fact: 'facts', entity: 'entities', goal: 'goals', strategy: 'strategies' }
import { ServiceContext, type ServiceOptions, type StoreRole } from './context.ts'
import { Embedding } from './embedding.ts'
import { EmbedderDrift } from './embedder-drift.ts'
import { Episodic, type QueuedTurn, type TurnInput } from './episodic.ts'
import type { LogEntry, Outbox } from './outbox/outbox.ts'
import { Semantic, type EntityInput, type FactInput, type RelationInput } from './semantic.ts'
import { Procedural } from './procedural.ts'
import { GraphCopy } from './graph-copy.ts'
import { Recall, type RecallQuery } from './recall-bundle.ts'
import { ChannelAdmin, type ChannelInfo } from './channel-admin.ts'
import { memoryStats, resetMemory, type MemoryStats } from './admin.ts'
import type { Reembedder, ReembedProgress } from './reembed.ts'

export type { ServiceOptions }

export class MemoryServiceImpl implements MemoryService {
  readonly #ctx: ServiceContext
  readonly #embedding: Embedding
  readonly #drift: EmbedderDrift
  readonly #episodic: Episodic
  readonly #semantic: Semantic
  readonly #procedural: Procedural
  readonly #recall: Recall
  readonly #channels: ChannelAdmin
  /** Copies of turns, goals and strategies in a graph store that keeps them (Neo4j). */
  readonly copies: GraphCopy

  constructor (registry: () => Registry, hooks: () => Hooks, log: FastifyBaseLogger, opts: ServiceOptions) {
    const ctx = this.#ctx = new ServiceContext(registry, hooks, log, opts)
    this.#embedding = new Embedding(ctx)
    this.#drift = new EmbedderDrift(ctx, this.#embedding)
    this.copies = new GraphCopy(ctx, this.#embedding)
    this.#episodic = new Episodic(ctx, this.#embedding, this.copies)
    this.#semantic = new Semantic(ctx, this.#embedding)
    this.#procedural = new Procedural(ctx, this.#embedding, this.copies)
    this.#recall = new Recall(ctx, this.#embedding, this.#episodic, () => this.#drift.warning)
    this.#channels = new ChannelAdmin(ctx, this.copies)
  }

  get opts (): ServiceOptions { return this.#ctx.opts }
  /** Writes one change of an item to its history (the audit log), for changes made beside the write API (consolidation, promotion, merges). */
  async recordChange (e: { kind: ItemKind, action: string, id: string, channel: string, actor: Actor, details?: Record<string, unknown> }): Promise<void> { await record(this.#ctx, e) }
  get outage (): OutageLog { return this.#ctx.outage }
  get log (): FastifyBaseLogger { return this.#ctx.log }

  // ---- stores and embedder
  get relational (): RelationalStore | undefined { return this.#ctx.relational }
  get graph (): GraphStore | undefined { return this.#ctx.graph }
  get kv (): KvStore | undefined { return this.#ctx.kv }
  need (role: 'relational'): RelationalStore
  need (role: 'graph'): GraphStore
  need (role: 'kv'): KvStore
  need (role: StoreRole): RelationalStore | GraphStore | KvStore { return this.#ctx.need(role) }
  embedder (): Embedder | undefined { return this.#embedding.embedder() }
  async embed (text: string, signal?: AbortSignal): Promise<EmbeddingRef | undefined> { return await this.#embedding.embed(text, signal) }

  // ---- vectors of another embedder
  /** Set at start when stored vectors were made by another embedder. */
  get embedderWarning (): string | undefined { return this.#drift.warning }
  get reembedder (): Reembedder { return this.#drift.reembedder }
  async checkEmbedder (): Promise<string | undefined> { return await this.#drift.check() }
  startReembed (): ReembedProgress { return this.#drift.startReembed() }

  // ---- episodic
  async storeTurn (turn: TurnInput): Promise<{ stored: boolean, queued?: boolean, turn?: Turn, error?: string }> { return await this.#episodic.storeTurn(turn) }
  async addTurn (turn: TurnInput & { id?: string, timestamp?: string }, opts?: { workingMemory?: boolean }): Promise<Turn> { return await this.#episodic.addTurn(turn, opts) }
  async writeTurns (input: Parameters<Episodic['writeTurns']>[0]): Promise<{ turns: Turn[], queued: number }> { return await this.#episodic.writeTurns(input) }
  async conversationTurns (conversationId: string, limit: number): Promise<Turn[]> {
    const turns = await this.#ctx.need('relational').conversationTurns(conversationId, limit)
    if (turns.length === 0) throw new MemoryErrors.NOT_FOUND(`No conversation "${conversationId}" (or it has no turns yet).`)
    return turns
  }
  async workingMemory (channel: string, conversationId: string): Promise<Array<Record<string, unknown>>> { return await this.#episodic.workingMemory(channel, conversationId) }
  async deleteConversation (conversationId: string): Promise<Record<string, number>> { return await this.#episodic.deleteConversation(conversationId) }

  // ---- semantic
  async addEntity (e: EntityInput, actor?: Actor): Promise<{ entity: Entity, created: boolean }> { return await this.#semantic.addEntity(e, actor) }
  async addFact (f: FactInput, actor?: Actor): Promise<{ fact: Fact, created: boolean }> { return await this.#semantic.addFact(f, actor) }
  async supersedeFact (oldId: string, next: FactInput, actor?: Actor): Promise<{ old: Fact, fact: Fact }> { return await this.#semantic.supersedeFact(oldId, next, actor) }
  async editFact (id: string, patch: Parameters<Semantic['editFact']>[1], actor?: Actor): Promise<{ fact: Fact, superseded?: Fact }> { return await this.#semantic.editFact(id, patch, actor) }
  async deleteFact (id: string, actor?: Actor): Promise<Fact> { return await this.#semantic.deleteFact(id, actor) }
  async editEntity (id: string, patch: Parameters<Semantic['editEntity']>[1], actor?: Actor): Promise<Entity> { return await this.#semantic.editEntity(id, patch, actor) }
  async deleteEntity (id: string, actor?: Actor): Promise<Entity> { return await this.#semantic.deleteEntity(id, actor) }
  async relate (r: RelationInput): Promise<Relationship> { return await this.#semantic.relate(r) }

  // ---- procedural and goals
  async addStrategy (s: Omit<NewLearnedStrategy, 'embedding' | 'channel'> & { channel?: string }, actor?: Actor): Promise<LearnedStrategy> { return await this.#procedural.addStrategy(s, actor) }
  async deleteStrategy (id: string, actor?: Actor): Promise<LearnedStrategy> { return await this.#procedural.deleteStrategy(id, actor) }
  async addGoal (g: Omit<NewGoal, 'embedding' | 'channel'> & { channel?: string }, actor?: Actor): Promise<Goal> { return await this.#procedural.addGoal(g, actor) }
  async editGoal (id: string, patch: Parameters<Procedural['editGoal']>[1], actor?: Actor): Promise<Goal> { return await this.#procedural.editGoal(id, patch, actor) }
  async deleteGoal (id: string, actor?: Actor): Promise<Goal> { return await this.#procedural.deleteGoal(id, actor) }

  // ---- one item by id, and its history (the audit log)
  /** The item, or a 404 that says how to list them. */
  async item (kind: ItemKind, id: string): Promise<Fact | Entity | Goal | LearnedStrategy> {
    const found = kind === 'fact'
      ? await this.#ctx.need('graph').fact(id)
      : kind === 'entity'
        ? await this.#ctx.need('graph').entity(id)
        : kind === 'goal' ? await this.#ctx.need('relational').goal(id) : await this.#ctx.need('relational').strategy(id)
    if (found === undefined) throw new MemoryErrors.NOT_FOUND(`No ${kind} with id "${id}". GET /api/memory/${PLURAL[kind]} lists them.`)
    return found
  }

  /** What changed an item, oldest first. A deleted item keeps its history; an id never seen is a 404. */
  async history (kind: ItemKind, id: string): Promise<{ exists: boolean, history: HistoryEntry[] }> {
    const entries = (await itemHistory(this.#ctx, id)).filter(h => h.action.startsWith(`${kind}.`))
    const exists = await this.item(kind, id).then(() => true, (err: unknown) => { if ((err as { statusCode?: number }).statusCode === 404) return false; throw err })
    if (!exists && entries.length === 0) throw new MemoryErrors.NOT_FOUND(`No ${kind} with id "${id}", and none in the audit log (which keeps the memory plugin's audit_retention_days).`)
    return { exists, history: entries }
  }

  async goals (q: { channel?: string, status?: Goal['status'], limit: number }): Promise<Goal[]> {
    return await this.#ctx.need('relational').goals({ channels: q.channel === undefined ? undefined : [q.channel], status: q.status, limit: q.limit })
  }
  async recordToolInvocation (t: Omit<NewToolInvocation, 'channel'> & { channel?: string }): Promise<ToolInvocation | undefined> { return await this.#procedural.recordToolInvocation(t) }

  // ---- the outbox (writes kept while their store is down)
  get outbox (): Outbox | undefined { return this.#ctx.outbox }
  outboxDepth (): number { return (this.#ctx.outbox?.status().pending ?? 0) + (this.copies.outbox?.status().pending ?? 0) }
  set outbox (o: Outbox | undefined) { this.#ctx.outbox = o }
  /** Stores one queued write: how the outbox replays. Throws what the store throws. */
  readonly applyQueued = async (entry: LogEntry): Promise<void> => {
    if (entry.kind === 'turn') await this.#episodic.addTurn(entry.data as QueuedTurn, { workingMemory: false })
    else if (entry.kind === 'tool_invocation') await this.#procedural.addToolInvocation(entry.data as NewToolInvocation)
    else throw new Error(`unknown outbox entry kind "${entry.kind}"`)
  }

  // ---- recall
  /** Used when no recall technique is registered (the memory plugin registers this one). */
  get defaultTechnique (): RecallTechnique { return this.#recall.defaultTechnique }
  async recall (query: RecallQuery, signal?: AbortSignal): Promise<RecallResult> { return await this.#recall.recall(query, signal) }
  async recallBundle (query: RecallQuery, opts: { strict: boolean, signal?: AbortSignal }): Promise<RecallResult> { return await this.#recall.recallBundle(query, opts) }

  // ---- channels, stats, reset
  async channelCounts (): Promise<Record<string, Record<string, number>>> { return await this.#channels.channelCounts() }
  async listChannels (): Promise<ChannelInfo[]> { return await this.#channels.listChannels() }
  async createChannel (name: string): Promise<{ name: string, created_at: string }> { return await this.#channels.createChannel(name) }
  async deleteChannel (name: string): Promise<Record<string, number>> { return await this.#channels.deleteChannel(name) }
  async stats (): Promise<MemoryStats> { return await memoryStats(this.#channels, this.reembedder.progress()) }
  async reset (deleteMemories: boolean): Promise<{ success: true, conversations_reset: number, memories_deleted: number }> { return await resetMemory(this.#ctx, deleteMemories) }
}
