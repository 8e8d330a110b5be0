// Procedural memory (learned strategies, tool invocations) and goals, in the relational store.
import type { Goal, LearnedStrategy, NewGoal, NewLearnedStrategy, NewToolInvocation, ToolInvocation } from '@agentd/sdk/contracts/memory-stores'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import { DEFAULT, checkChannel } from './channels.ts'

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

  async recordToolInvocation (t: Omit<NewToolInvocation, 'channel'> & { channel?: string }): Promise<ToolInvocation> {
    return await this.#ctx.need('relational').addToolInvocation({ ...t, channel: checkChannel(t.channel ?? DEFAULT) })
  }
}
