// Episodic memory: conversation turns in the relational store, the latest of each
// conversation also in working memory (the key-value store, a cache: losing it loses
// nothing the relational store lacks), and deleting a conversation from both.
import { randomUUID } from 'node:crypto'
import type { RelationalStore, Turn } from '@agentd/sdk/contracts/memory-stores'
import { CONTEXT_GAP_MS, CONTEXT_LOOKBACK, contextTexts, contextWords } from '@agentd/sdk/kits/recall'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import type { GraphCopy } from './graph-copy.ts'
import { DEFAULT, checkChannel } from './channels.ts'
import { MemoryErrors } from './errors.ts'
import { estimateTokens } from './render.ts'
import type { WriteOutcome } from './outbox/outbox.ts'

export interface TurnInput { conversation_id: string, role: string, content: string, channel?: string, metadata?: Record<string, unknown>, timestamp?: string }
/** A message of the write API: `name` says who spoke (OpenAI's field), `timestamp` when (default now). */
export interface MessageInput { role: string, content: string, name?: string, timestamp?: string, metadata?: Record<string, unknown> }
/** A turn with its id and time fixed before the first attempt, so a replay stores the same turn once. */
export interface QueuedTurn extends TurnInput { id: string, timestamp: string, channel: string }

/** The working-memory key of a conversation; `ch:<channel>:` prefixes every key of a channel. */
export const wmKey = (channel: string, conversationId: string): string => `ch:${channel}:conv:${conversationId}`

/** The outbox key that orders a conversation's writes. */
export const conversationKey = (conversationId: string): string => `conv:${conversationId}`

export class Episodic {
  readonly #ctx: ServiceContext
  readonly #embedding: Embedding
  readonly #copy: GraphCopy

  constructor (ctx: ServiceContext, embedding: Embedding, copy: GraphCopy) { this.#ctx = ctx; this.#embedding = embedding; this.#copy = copy }

  /**
   * Chat-facing: never rejects. A store that cannot be reached puts the turn in the outbox
   * (`queued`: stored once it is back); any other failure says why.
   */
  async storeTurn (turn: TurnInput): Promise<{ stored: boolean, queued?: boolean, turn?: Turn, error?: string }> {
    let r: WriteOutcome<Turn>
    try {
      r = await this.#write(turn)
    } catch (err) {
      return { stored: false, error: (err as Error).message }
    }
    if (r.status === 'stored') return { stored: true, turn: r.value }
    if (r.status === 'failed') return { stored: false, error: r.error.message }
    return { stored: false, queued: true }
  }

  /**
   * The write API's turns (POST /api/memory/turns), in order. Throws a caller's mistake or a
   * missing store before anything is written; a store that is down queues them (`queued`).
   */
  async writeTurns (input: { conversation_id: string, channel?: string, messages: MessageInput[], metadata?: Record<string, unknown> }): Promise<{ turns: Turn[], queued: number }> {
    const channel = checkChannel(input.channel ?? DEFAULT)
    this.#ctx.need('relational')
    const turns: Turn[] = []
    let queued = 0
    for (const m of input.messages) {
      // The speaker is kept in the turn's metadata under `name`, where consolidation reads it.
      const name = m.name === undefined ? {} : { name: m.name }
      const r = await this.#write({ conversation_id: input.conversation_id, channel, role: m.role, content: m.content, timestamp: m.timestamp, metadata: { ...input.metadata, ...m.metadata, ...name, source: 'api' } })
      if (r.status === 'failed') throw r.error
      if (r.status === 'stored') turns.push(r.value)
      else queued++
    }
    return { turns, queued }
  }

  /** One turn through the outbox (when there is one): stored, queued, or why not. Throws a bad channel. */
  async #write (turn: TurnInput): Promise<WriteOutcome<Turn>> {
    const q: QueuedTurn = { ...turn, id: randomUUID(), timestamp: turn.timestamp ?? new Date().toISOString(), channel: checkChannel(turn.channel ?? DEFAULT) }
    const outbox = this.#ctx.outbox
    if (outbox === undefined) {
      try {
        return { status: 'stored', value: await this.addTurn(q) }
      } catch (err) {
        return { status: 'failed', error: err as Error }
      }
    }
    const r = await outbox.write({ at: q.timestamp, kind: 'turn', key: conversationKey(q.conversation_id), data: q }, async () => await this.addTurn(q))
    // Queued: the conversation's working memory still gets it, so the chat keeps its context.
    if (r.status === 'queued') await this.#pushWorking(q, null)
    return r
  }

  /**
   * Stores a turn (an `id` already stored returns that turn). `workingMemory: false` leaves
   * working memory alone (a replay: the turn went there when it was queued).
   */
  async addTurn (turn: TurnInput & { id?: string, timestamp?: string }, opts: { workingMemory?: boolean } = {}): Promise<Turn> {
    const ctx = this.#ctx
    const channel = checkChannel(turn.channel ?? DEFAULT)
    const store = ctx.need('relational')
    // The turns it answers sharpen both its vector and its keywords.
    const earlier = await earlierTexts(store, turn, channel)
    const embedding = await this.#embedding.embedInContext(turn.content, earlier)
    const stored = await store.addTurn({
      id: turn.id, timestamp: turn.timestamp,
      conversation_id: turn.conversation_id, role: turn.role, content: turn.content, channel,
      token_count: estimateTokens(turn.content), metadata: turn.metadata ?? {}, embedding,
      context: contextWords(turn.content, earlier),
    })
    if (opts.workingMemory !== false) await this.#pushWorking({ ...turn, id: stored.id, channel }, stored.index)
    await this.#copy.turn(stored, embedding)
    await ctx.stored('turn', stored)
    return stored
  }

  async #pushWorking (turn: TurnInput & { id: string, channel: string }, index: number | null): Promise<void> {
    const ctx = this.#ctx
    const kv = ctx.kv
    if (kv === undefined) return
    await kv.pushList(wmKey(turn.channel, turn.conversation_id), { id: turn.id, role: turn.role, content: turn.content, index },
      { max: ctx.opts.workingMemoryTurns, ttlSeconds: ctx.opts.workingMemoryTtlSeconds })
      .catch((err: unknown) => { ctx.log.debug({ err: (err as Error).message }, 'memory: working memory not updated') })
  }

  async workingMemory (channel: string, conversationId: string): Promise<Array<Record<string, unknown>>> {
    return await this.#ctx.need('kv').getList(wmKey(checkChannel(channel), conversationId), { slide: true })
  }

  async deleteConversation (conversationId: string): Promise<Record<string, number>> {
    const store = this.#ctx.need('relational')
    const turns = await store.conversationTurns(conversationId, 100_000)
    const res = await store.deleteConversation(conversationId)
    if (res === null) throw new MemoryErrors.NOT_FOUND(`No conversation "${conversationId}".`)
    let redisKeys = 0
    const kv = this.#ctx.kv
    if (kv !== undefined) {
      for (const c of new Set(turns.map(t => t.channel))) redisKeys += await kv.delete(wmKey(c, conversationId)).then(ok => ok ? 1 : 0, () => 0)
    }
    await this.#copy.remove('conversation', conversationId)
    await store.audit({ action: 'conversation.delete', target: conversationId, details: { ...res, redis_keys: redisKeys } }).catch(() => {})
    return { ...res, redis_keys: redisKeys }
  }
}

/**
 * What a new turn is read with (@agentd/sdk/kits/recall context.ts): the last informative
 * turns before it in its conversation, else (a conversation's first turn) those said in its
 * channel within CONTEXT_GAP_MS before it, as when a chat is sent one message per request.
 * A replayed turn (its id and time fixed earlier) reads only the turns before it.
 */
async function earlierTexts (store: RelationalStore, turn: TurnInput & { id?: string, timestamp?: string }, channel: string): Promise<string[]> {
  const at = turn.timestamp === undefined ? Date.now() : Date.parse(turn.timestamp)
  const before = (t: Turn): boolean => t.id !== turn.id && Date.parse(t.timestamp) <= at
  try {
    let earlier = (await store.conversationTurns(turn.conversation_id, CONTEXT_LOOKBACK + 1)).filter(before).slice(-CONTEXT_LOOKBACK)
    if (earlier.length === 0) {
      earlier = (await store.recentTurns([channel], CONTEXT_LOOKBACK)).filter(t => before(t) && at - Date.parse(t.timestamp) <= CONTEXT_GAP_MS).reverse()
    }
    return contextTexts(earlier)
  } catch {
    // The context only sharpens the vector and keywords: a store that cannot give it fails the write below, or not at all.
    return []
  }
}
