// Copies of turns, goals and strategies in a graph store that keeps the seed's whole model
// (GraphStore.upsertTurn/upsertGoal/upsertStrategy/removeCopy: Neo4j). The relational
// store stays the record; the copy is written after it, and by the memory service's
// failure rules: it never fails the write it follows (a chat, a goal edit), and while the
// graph store is down it waits in its own durable outbox (memory-outbox-graph, apart from
// the chat's, so a Neo4j outage never holds up the turns SQL can take) and is replayed, in
// order per conversation or item, once the store is back. A graph store without copies
// (memory-graph-sql: the same database) costs nothing here.
import type { CopyKind, EmbeddingRef, Goal, GraphStore, LearnedStrategy, Turn } from '@agentd/sdk/contracts/memory-stores'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import type { LogEntry, Outbox } from './outbox/outbox.ts'
import { within } from '@agentd/sdk'

/** One copy write, as queued. Vectors are not queued (a replay embeds the text again). */
export type CopyOp =
  | { op: 'turn', turn: Turn }
  | { op: 'goal', goal: Goal }
  | { op: 'strategy', strategy: LearnedStrategy }
  | { op: 'remove', kind: CopyKind, id: string }

type Copying = GraphStore & Required<Pick<GraphStore, 'upsertTurn' | 'upsertGoal' | 'upsertStrategy' | 'removeCopy'>>

/** The graph store when it keeps copies, else undefined. */
export function copying (g: GraphStore | undefined): Copying | undefined {
  return g !== undefined && typeof g.upsertTurn === 'function' && typeof g.upsertGoal === 'function' && typeof g.upsertStrategy === 'function' && typeof g.removeCopy === 'function'
    ? g as Copying
    : undefined
}

/** Orders a conversation's copies together, and each goal's or strategy's. */
const keyOf = (op: CopyOp): string => op.op === 'turn'
  ? `conv:${op.turn.conversation_id}`
  : op.op === 'goal' ? `goal:${op.goal.id}` : op.op === 'strategy' ? `strategy:${op.strategy.id}` : op.kind === 'conversation' ? `conv:${op.id}` : `${op.kind}:${op.id}`

export class GraphCopy {
  readonly #ctx: ServiceContext
  readonly #embedding: Embedding
  /** Where copies wait while the graph store is down (set by the plugin; none in unit tests: a failed copy is then logged). */
  outbox: Outbox | undefined = undefined

  constructor (ctx: ServiceContext, embedding: Embedding) { this.#ctx = ctx; this.#embedding = embedding }

  async turn (turn: Turn, embedding?: EmbeddingRef): Promise<void> { await this.#write({ op: 'turn', turn }, embedding) }
  async goal (goal: Goal, embedding?: EmbeddingRef): Promise<void> { await this.#write({ op: 'goal', goal }, embedding) }
  async strategy (strategy: LearnedStrategy, embedding?: EmbeddingRef): Promise<void> { await this.#write({ op: 'strategy', strategy }, embedding) }
  async remove (kind: CopyKind, id: string): Promise<void> { await this.#write({ op: 'remove', kind, id }) }

  /**
   * Stores the queued copies now (before a channel is deleted, so none lands after it);
   * waits at most `ms` (the graph store going away again leaves the rest queued).
   */
  async flush (ms = 10_000): Promise<void> { if (this.outbox !== undefined) await within(this.outbox.flush(), ms, { unref: true }) }

  /** Never rejects: stored, queued, or (not an outage) logged. */
  async #write (op: CopyOp, embedding?: EmbeddingRef): Promise<void> {
    const graph = copying(this.#ctx.graph)
    if (graph === undefined) return
    const direct = async (): Promise<void> => { await this.#apply(graph, op, embedding) }
    try {
      const outbox = this.outbox
      if (outbox === undefined) { await direct(); return }
      const at = new Date().toISOString()
      const r = await outbox.write({ at, kind: `graph_${op.op}`, key: keyOf(op), data: op }, direct)
      if (r.status === 'failed') throw r.error
    } catch (err) {
      this.#ctx.log.warn({ err: (err as Error).message, copy: op.op }, 'memory: a copy in the graph store was not written (the relational store has the item)')
    }
  }

  async #apply (graph: Copying, op: CopyOp, embedding?: EmbeddingRef): Promise<void> {
    if (op.op === 'turn') await graph.upsertTurn(op.turn, embedding)
    else if (op.op === 'goal') await graph.upsertGoal(op.goal, embedding)
    else if (op.op === 'strategy') await graph.upsertStrategy(op.strategy, embedding)
    else await graph.removeCopy(op.kind, op.id)
  }

  /** How the copy outbox replays an entry: the text embedded again; nothing to do when the graph store keeps no copies now. */
  readonly applyQueued = async (entry: LogEntry): Promise<void> => {
    const graph = copying(this.#ctx.graph)
    if (graph === undefined) return
    const op = entry.data as CopyOp
    const text = op.op === 'turn' ? op.turn.content : op.op === 'goal' ? op.goal.description : op.op === 'strategy' ? `${op.strategy.description} ${op.strategy.context_pattern}` : undefined
    const embedding = text === undefined ? undefined : await this.#embedding.embed(text)
    await this.#apply(graph, op, embedding)
  }
}
