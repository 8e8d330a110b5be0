// The memory service: the MemoryService contract (storeTurn and recall, which never reject:
// a memory failure must not fail a chat) over the parts, each in its own file, sharing a
// ServiceContext (context.ts: the stores looked up per call, hooks, log, options, outbox).
// The routes, the health section and the job support use the parts directly; there is no
// layer that forwards their methods:
//   embedding        which embedder, embedding a text (embedding.ts, warm-up.ts)
//   drift            vectors of another embedder: warning, re-embed job (embedder-drift.ts, reembed.ts)
//   episodic         turns, deleting a conversation (episodic.ts)
//   semantic         entities, facts, relationships (semantic.ts)
//   procedural       strategies, goals, tool invocations (procedural.ts)
//   items            one item by id, its history (items.ts)
//   recaller         recall (recall-bundle.ts, vector-recency.ts, recall-merge.ts)
//   channels         channels and their counts (channel-admin.ts; admin.ts: stats, reset)
//   copies           copies in a graph store that keeps them, Neo4j (graph-copy.ts)
import type { FastifyBaseLogger } from 'fastify'
import type { NewToolInvocation, Turn } from '@agentd/sdk/contracts/memory-stores'
import type { MemoryService, RecallResult } from '@agentd/sdk/contracts/memory-service'
import type { Hooks, Registry } from '@agentd/sdk'
import { ServiceContext, type ServiceOptions } from './context.ts'
import { Embedding } from './embedding.ts'
import { EmbedderDrift } from './embedder-drift.ts'
import { Episodic, type QueuedTurn, type TurnInput } from './episodic.ts'
import type { LogEntry } from './outbox/outbox.ts'
import { Semantic } from './semantic.ts'
import { Procedural } from './procedural.ts'
import { Items } from './items.ts'
import { GraphCopy } from './graph-copy.ts'
import { Recall, type RecallQuery } from './recall-bundle.ts'
import { ChannelAdmin } from './channel-admin.ts'

export type { ServiceOptions }

export class MemoryServiceImpl implements MemoryService {
  readonly ctx: ServiceContext
  readonly embedding: Embedding
  readonly drift: EmbedderDrift
  readonly copies: GraphCopy
  readonly episodic: Episodic
  readonly semantic: Semantic
  readonly procedural: Procedural
  readonly items: Items
  readonly recaller: Recall
  readonly channels: ChannelAdmin

  constructor (registry: () => Registry, hooks: () => Hooks, log: FastifyBaseLogger, opts: ServiceOptions) {
    const ctx = this.ctx = new ServiceContext(registry, hooks, log, opts)
    this.embedding = new Embedding(ctx)
    this.drift = new EmbedderDrift(ctx, this.embedding)
    this.copies = new GraphCopy(ctx, this.embedding)
    this.episodic = new Episodic(ctx, this.embedding, this.copies)
    this.semantic = new Semantic(ctx, this.embedding)
    this.procedural = new Procedural(ctx, this.embedding, this.copies)
    this.items = new Items(ctx)
    this.recaller = new Recall(ctx, this.embedding, () => this.drift.warning)
    this.channels = new ChannelAdmin(ctx, this.copies)
  }

  // ---- the MemoryService contract
  async storeTurn (turn: TurnInput): Promise<{ stored: boolean, queued?: boolean, turn?: Turn, error?: string }> { return await this.episodic.storeTurn(turn) }
  async recall (query: RecallQuery, signal?: AbortSignal): Promise<RecallResult> { return await this.recaller.recall(query, signal) }
  /** Writes waiting in either outbox (the chat's, the graph copies'). */
  outboxDepth (): number { return (this.ctx.outbox?.status().pending ?? 0) + (this.copies.outbox?.status().pending ?? 0) }

  /** Stores one queued write: how the outbox replays. Throws what the store throws. */
  readonly applyQueued = async (entry: LogEntry): Promise<void> => {
    if (entry.kind === 'turn') await this.episodic.addTurn(entry.data as QueuedTurn)
    else if (entry.kind === 'tool_invocation') await this.procedural.addToolInvocation(entry.data as NewToolInvocation)
    else throw new Error(`unknown outbox entry kind "${entry.kind}"`)
  }
}
