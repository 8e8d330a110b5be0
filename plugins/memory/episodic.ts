// Episodic memory: conversation turns in the relational store, the latest of each
// conversation also in working memory (the key-value store, a cache: losing it loses
// nothing the relational store lacks), and deleting a conversation from both.
import type { Turn } from '@agentd/sdk/contracts/memory-stores'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import { DEFAULT, checkChannel } from './channels.ts'
import { MemoryErrors } from './errors.ts'
import { estimateTokens } from './render.ts'

export interface TurnInput { conversation_id: string, role: string, content: string, channel?: string, metadata?: Record<string, unknown> }

/** The working-memory key of a conversation; `ch:<channel>:` prefixes every key of a channel. */
export const wmKey = (channel: string, conversationId: string): string => `ch:${channel}:conv:${conversationId}`

export class Episodic {
  readonly #ctx: ServiceContext
  readonly #embedding: Embedding

  constructor (ctx: ServiceContext, embedding: Embedding) { this.#ctx = ctx; this.#embedding = embedding }

  /** Chat-facing: never rejects; says why when the turn was not stored. */
  async storeTurn (turn: TurnInput): Promise<{ stored: boolean, turn?: Turn, error?: string }> {
    try {
      return { stored: true, turn: await this.addTurn(turn) }
    } catch (err) {
      return { stored: false, error: (err as Error).message }
    }
  }

  async addTurn (turn: TurnInput): Promise<Turn> {
    const ctx = this.#ctx
    const channel = checkChannel(turn.channel ?? DEFAULT)
    const store = ctx.need('relational')
    const embedding = await this.#embedding.embed(turn.content)
    const stored = await store.addTurn({
      conversation_id: turn.conversation_id, role: turn.role, content: turn.content, channel,
      token_count: estimateTokens(turn.content), metadata: turn.metadata ?? {}, embedding,
    })
    const kv = ctx.kv
    if (kv !== undefined) {
      await kv.pushList(wmKey(channel, turn.conversation_id), { id: stored.id, role: stored.role, content: stored.content, index: stored.index },
        { max: ctx.opts.workingMemoryTurns, ttlSeconds: ctx.opts.workingMemoryTtlSeconds })
        .catch((err: unknown) => { ctx.log.debug({ err: (err as Error).message }, 'memory: working memory not updated') })
    }
    await ctx.stored('turn', stored)
    return stored
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
    await store.audit({ action: 'conversation.delete', target: conversationId, details: { ...res, redis_keys: redisKeys } }).catch(() => {})
    return { ...res, redis_keys: redisKeys }
  }
}
