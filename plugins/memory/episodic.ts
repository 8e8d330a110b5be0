// Episodic memory: conversation turns in the relational store (each read with the turns
// before it: from the caller's history when it gives them, else from the store), and
// deleting a conversation. There is no second copy of a conversation's latest turns: a chat
// holds its history, and recall leaves out what the chat gives it as seen.
import { randomUUID } from 'node:crypto'
import type { RelationalStore, Turn } from '@agentd/sdk/contracts/memory-stores'
import { CONTEXT_GAP_MS, CONTEXT_LOOKBACK, contextTexts, contextWords, informative, turnDateWords } from '@agentd/sdk/kits/recall'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import type { GraphCopy } from './graph-copy.ts'
import { DEFAULT, checkChannel } from './channels.ts'
import { MemoryErrors } from './errors.ts'
import { estimateTokens } from './render.ts'
import type { WriteOutcome } from './outbox/outbox.ts'

/**
 * `earlier`: what was said before it, oldest first, as the caller holds it (then the store is
 * not read for it). `date_words`: its date words when already read ('' for none; dateWords; else read as it is stored).
 */
export interface TurnInput { conversation_id: string, role: string, content: string, channel?: string, metadata?: Record<string, unknown>, timestamp?: string, earlier?: string[], date_words?: string }
/** A message of the write API: `name` says who spoke (OpenAI's field), `timestamp` when (default now). */
export interface MessageInput { role: string, content: string, name?: string, timestamp?: string, metadata?: Record<string, unknown> }
/** A turn with its id and time fixed before the first attempt, so a replay stores the same turn once. */
export interface QueuedTurn extends TurnInput { id: string, timestamp: string, channel: string }

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
    // Read before the outbox: the first text with a date loads the date parser, which must
    // not count against the store's write deadline (the write would answer "queued").
    q.date_words = await dateWords(q) ?? ''
    const outbox = this.#ctx.outbox
    if (outbox === undefined) {
      try {
        return { status: 'stored', value: await this.addTurn(q) }
      } catch (err) {
        return { status: 'failed', error: err as Error }
      }
    }
    return await outbox.write({ at: q.timestamp, kind: 'turn', key: conversationKey(q.conversation_id), data: q }, async () => await this.addTurn(q))
  }

  /** Stores a turn (an `id` already stored returns that turn). */
  async addTurn (turn: TurnInput & { id?: string, timestamp?: string }): Promise<Turn> {
    const ctx = this.#ctx
    const channel = checkChannel(turn.channel ?? DEFAULT)
    const store = ctx.need('relational')
    // The turns it answers sharpen both its vector and its keywords; its speaker (the write
    // API's `name`) is read with each of its sentences.
    const earlier = await earlierTexts(store, turn, channel)
    const name = turn.metadata?.name
    const embedding = await this.#embedding.embedInContext(turn.content, earlier, undefined, typeof name === 'string' ? name : undefined)
    const stored = await store.addTurn({
      id: turn.id, timestamp: turn.timestamp,
      conversation_id: turn.conversation_id, role: turn.role, content: turn.content, channel,
      token_count: estimateTokens(turn.content), metadata: turn.metadata ?? {}, embedding,
      context: joinWords(contextWords(turn.content, earlier), turn.date_words ?? await dateWords(turn)),
    })
    await this.#copy.turn(stored, embedding)
    await ctx.stored('turn', stored)
    return stored
  }

  /** The conversation's latest turns, oldest first; a 404 when it has none. */
  async conversationTurns (conversationId: string, limit: number): Promise<Turn[]> {
    const turns = await this.#ctx.need('relational').conversationTurns(conversationId, limit)
    if (turns.length === 0) throw new MemoryErrors.NOT_FOUND(`No conversation "${conversationId}" (or it has no turns yet).`)
    return turns
  }

  /**
   * `redis_keys` stays in the answer for clients that read it: memory keeps no key-value
   * copy of a conversation any more, so it is 0.
   */
  async deleteConversation (conversationId: string): Promise<Record<string, number>> {
    const store = this.#ctx.need('relational')
    const res = await store.deleteConversation(conversationId)
    if (res === null) throw new MemoryErrors.NOT_FOUND(`No conversation "${conversationId}".`)
    await this.#copy.remove('conversation', conversationId)
    await store.audit({ action: 'conversation.delete', target: conversationId, details: res }).catch(() => {})
    return { ...res, redis_keys: 0 }
  }
}

const joinWords = (...parts: Array<string | undefined>): string | undefined => parts.filter(p => p !== undefined && p !== '').join(' ') || undefined

/**
 * When the turn was said and when what it tells of happened, as keyword date words (the
 * recall kit's dates.ts): none for a turn that says nothing ("OK." would otherwise come up
 * for every question about its day); a date that cannot be read only leaves them out.
 */
async function dateWords (turn: TurnInput & { timestamp?: string }): Promise<string | undefined> {
  if (!informative(turn.content)) return undefined
  return await turnDateWords(turn.content, turn.timestamp).catch(() => undefined)
}

/**
 * What a new turn is read with (@agentd/sdk/kits/recall context.ts): the last informative
 * turns before it in its conversation (the caller's `earlier` when given, else the store's),
 * else (a conversation's first turn) those said in its channel within CONTEXT_GAP_MS before
 * it, as when a chat is sent one message per request. A replayed turn (its id and time
 * fixed earlier) reads only the turns before it.
 */
async function earlierTexts (store: RelationalStore, turn: TurnInput & { id?: string, timestamp?: string }, channel: string): Promise<string[]> {
  const at = turn.timestamp === undefined ? Date.now() : Date.parse(turn.timestamp)
  const before = (t: Turn): boolean => t.id !== turn.id && Date.parse(t.timestamp) <= at
  try {
    let earlier: Array<{ content: string }> = turn.earlier !== undefined
      ? turn.earlier.slice(-CONTEXT_LOOKBACK).map(content => ({ content }))
      : (await store.conversationTurns(turn.conversation_id, CONTEXT_LOOKBACK + 1)).filter(before).slice(-CONTEXT_LOOKBACK)
    if (earlier.length === 0) {
      earlier = (await store.recentTurns([channel], CONTEXT_LOOKBACK)).filter(t => before(t) && at - Date.parse(t.timestamp) <= CONTEXT_GAP_MS).reverse()
    }
    return contextTexts(earlier)
  } catch {
    // The context only sharpens the vector and keywords: a store that cannot give it fails the write below, or not at all.
    return []
  }
}
