// Procedural memory (learned strategies, tool invocations) and goals, in the relational store.
import { randomUUID } from 'node:crypto'
import type { Goal, GoalPatch, LearnedStrategy, NewGoal, NewLearnedStrategy, NewToolInvocation, ToolInvocation } from '@agentd/sdk/contracts/memory-stores'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import type { GraphCopy } from './graph-copy.ts'
import { DEFAULT, checkChannel } from './channels.ts'
import { conversationKey } from './episodic.ts'
import { MemoryErrors } from './errors.ts'
import { record, type Actor } from './history.ts'

/**
 * Where a goal's status may go. Finished goals (completed, abandoned) can be reopened;
 * a blocked goal is unblocked (active) or finished.
 */
export const GOAL_TRANSITIONS: Record<Goal['status'], Array<Goal['status']>> = {
  active: ['completed', 'abandoned', 'blocked'],
  blocked: ['active', 'completed', 'abandoned'],
  completed: ['active'],
  abandoned: ['active'],
}

export class Procedural {
  readonly #ctx: ServiceContext
  readonly #embedding: Embedding
  readonly #copy: GraphCopy

  constructor (ctx: ServiceContext, embedding: Embedding, copy: GraphCopy) { this.#ctx = ctx; this.#embedding = embedding; this.#copy = copy }

  async addStrategy (s: Omit<NewLearnedStrategy, 'embedding' | 'channel'> & { channel?: string }, actor: Actor = 'system'): Promise<LearnedStrategy> {
    const embedding = await this.#embedding.embed(`${s.description} ${s.context_pattern}`)
    const res = await this.#ctx.need('relational').addStrategy({ ...s, channel: checkChannel(s.channel ?? DEFAULT), embedding })
    await this.#copy.strategy(res, embedding)
    await record(this.#ctx, { kind: 'strategy', action: 'create', id: res.id, channel: res.channel, actor, details: { description: res.description } })
    await this.#ctx.stored('strategy', res)
    return res
  }

  async deleteStrategy (id: string, actor: Actor = 'user'): Promise<LearnedStrategy> {
    const rel = this.#ctx.need('relational')
    const s = await rel.strategy(id)
    if (s === undefined || !await rel.deleteStrategy(id)) throw new MemoryErrors.NOT_FOUND(`No strategy with id "${id}". GET /api/memory/strategies lists them.`)
    await this.#copy.remove('strategy', id)
    await record(this.#ctx, { kind: 'strategy', action: 'delete', id, channel: s.channel, actor, details: { description: s.description } })
    return s
  }

  async addGoal (g: Omit<NewGoal, 'embedding' | 'channel'> & { channel?: string }, actor: Actor = 'system'): Promise<Goal> {
    const rel = this.#ctx.need('relational')
    if (g.parent_goal_id !== undefined && g.parent_goal_id !== null && await rel.goal(g.parent_goal_id) === undefined) throw new MemoryErrors.NOT_FOUND(`No goal with id "${g.parent_goal_id}" (parent_goal_id).`)
    const embedding = await this.#embedding.embed(g.description)
    const res = await rel.addGoal({ ...g, channel: checkChannel(g.channel ?? DEFAULT), embedding })
    await this.#copy.goal(res, embedding)
    await record(this.#ctx, { kind: 'goal', action: 'create', id: res.id, channel: res.channel, actor, details: { description: res.description, status: res.status } })
    await this.#ctx.stored('goal', res)
    return res
  }

  /** Changes a goal; a status change must be one of GOAL_TRANSITIONS (409 otherwise, naming the allowed ones). */
  async editGoal (id: string, patch: Omit<GoalPatch, 'embedding'>, actor: Actor = 'user'): Promise<Goal> {
    const rel = this.#ctx.need('relational')
    const old = await rel.goal(id)
    if (old === undefined) throw new MemoryErrors.NOT_FOUND(`No goal with id "${id}". GET /api/memory/goals lists them.`)
    if (patch.status !== undefined && patch.status !== old.status && !GOAL_TRANSITIONS[old.status].includes(patch.status)) {
      throw new MemoryErrors.CONFLICT(`A goal that is ${old.status} cannot become ${patch.status}; from ${old.status} it can become ${GOAL_TRANSITIONS[old.status].join(' or ')}.`)
    }
    const embedding = patch.description !== undefined && patch.description !== old.description ? await this.#embedding.embed(patch.description) : undefined
    const goal = await rel.updateGoal(id, { ...patch, ...(embedding === undefined ? {} : { embedding }) })
    if (goal === undefined) throw new MemoryErrors.NOT_FOUND(`No goal with id "${id}".`)
    await this.#copy.goal(goal, embedding)
    const changes = Object.fromEntries(Object.keys(patch).map(k => [k, { from: old[k as keyof Goal], to: goal[k as keyof Goal] }]))
    await record(this.#ctx, { kind: 'goal', action: patch.status !== undefined && patch.status !== old.status ? 'status' : 'update', id, channel: goal.channel, actor, details: { changes } })
    return goal
  }

  async goals (q: { channel?: string, status?: Goal['status'], limit: number }): Promise<Goal[]> {
    return await this.#ctx.need('relational').goals({ channels: q.channel === undefined ? undefined : [q.channel], status: q.status, limit: q.limit })
  }

  async deleteGoal (id: string, actor: Actor = 'user'): Promise<Goal> {
    const rel = this.#ctx.need('relational')
    const g = await rel.goal(id)
    if (g === undefined || !await rel.deleteGoal(id)) throw new MemoryErrors.NOT_FOUND(`No goal with id "${id}". GET /api/memory/goals lists them.`)
    await this.#copy.remove('goal', id)
    await record(this.#ctx, { kind: 'goal', action: 'delete', id, channel: g.channel, actor, details: { description: g.description } })
    return g
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
