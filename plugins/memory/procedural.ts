// Procedural memory (learned strategies, tool invocations) and goals, in the relational store.
import { randomUUID } from 'node:crypto'
import type { Goal, LearnedStrategy, NewGoal, NewLearnedStrategy, NewToolInvocation, ToolInvocation } from '@agentd/sdk/contracts/memory-stores'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import { DEFAULT, checkChannel } from './channels.ts'
import { conversationKey } from './episodic.ts'

export class Procedural {
  readonly #ctx: ServiceContext
  readonly #embedding: Embedding

  constructor (ctx: ServiceContext, embedding: Embedding) { this.#ctx = ctx; this.#embedding = embedding }

  async addStrategy (s: Omit<NewLearnedStrategy, 'embedding' | 'channel'> & { channel?: string }): Promise<LearnedStrategy> {
    const res = await this.#ctx.need('relational').addStrategy({ ...s, channel: checkChannel(s.channel ?? DEFAULT), embedding: await this.#embedding.embed(`${s.description} ${s.context_pattern}`) })
    await this.#ctx.stored('strategy', res)
    return res
  }

  async addGoal (g: Omit<NewGoal, 'embedding' | 'channel'> & { channel?: string }): Promise<Goal> {
    const res = await this.#ctx.need('relational').addGoal({ ...g, channel: checkChannel(g.channel ?? DEFAULT), embedding: await this.#embedding.embed(g.description) })
    await this.#ctx.stored('goal', res)
    return res
  }

  /**
   * Chat-facing (from the tool:after hook): ordered with the conversation's turns, and queued
   * in the outbox while the store is down. Resolves undefined when it was queued.
   */
  async recordToolInvocation (t: Omit<NewToolInvocation, 'channel'> & { channel?: string }): Promise<ToolInvocation | undefined> {
    const call: NewToolInvocation = { ...t, id: t.id ?? randomUUID(), created_at: t.created_at ?? new Date().toISOString(), channel: checkChannel(t.channel ?? DEFAULT) }
    const outbox = this.#ctx.outbox
    if (outbox === undefined) return await this.addToolInvocation(call)
    const r = await outbox.write({ at: call.created_at ?? '', kind: 'tool_invocation', key: conversationKey(call.conversation_id ?? `tool:${call.id ?? ''}`), data: call }, async () => await this.addToolInvocation(call))
    if (r.status === 'failed') throw r.error
    return r.status === 'stored' ? r.value : undefined
  }

  async addToolInvocation (call: NewToolInvocation): Promise<ToolInvocation> {
    return await this.#ctx.need('relational').addToolInvocation({ ...call, channel: checkChannel(call.channel) })
  }
}
