// The memory service's copies of turns, goals and strategies in a graph store that keeps
// them (GraphStore.upsertTurn/upsertGoal/upsertStrategy/removeCopy: Neo4j), against store
// doubles: what is copied when, and the failure rules (a copy never fails the write it
// follows; while the graph store is down it waits in the copy outbox and lands, in order,
// once it is back).
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { createRegistry, Hooks, type Registry } from '@agentd/sdk'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { CopyKind, EmbeddingRef, Goal, GraphStore, LearnedStrategy, RelationalStore, Turn } from '@agentd/sdk/contracts/memory-stores'
import { MemoryServiceImpl } from './service.ts'
import { Outbox } from './outbox/outbox.ts'
import { copying } from './graph-copy.ts'
import { memoryHealth } from './health.ts'

const log = pino({ level: 'silent' })
const opts = { tokenBudget: 1000, topK: 10, workingMemoryTurns: 20, recencyWeight: 0.2, recencyHalfLifeHours: 24 }

/** The relational store's part the service uses here: turns, goals, strategies, conversation deletion, audit. */
function relational (): RelationalStore {
  const turns: Turn[] = []
  const goals = new Map<string, Goal>()
  const strategies = new Map<string, LearnedStrategy>()
  let n = 0
  const s: Partial<RelationalStore> = {
    backend: 'fake',
    addTurn: async x => {
      const had = turns.find(y => y.id === x.id)
      if (had !== undefined) return had
      const turn: Turn = { id: x.id ?? `t${++n}`, conversation_id: x.conversation_id, index: turns.filter(y => y.conversation_id === x.conversation_id).length, timestamp: x.timestamp ?? new Date().toISOString(), role: x.role, content: x.content, token_count: x.token_count ?? null, metadata: x.metadata ?? {}, channel: x.channel, embedder: null }
      turns.push(turn)
      return turn
    },
    conversationTurns: async id => turns.filter(y => y.conversation_id === id),
    deleteConversation: async id => {
      const k = turns.filter(y => y.conversation_id === id).length
      if (k === 0) return null
      for (let i = turns.length - 1; i >= 0; i--) if (turns[i].conversation_id === id) turns.splice(i, 1)
      return { turns: k, conversations: 1 }
    },
    addGoal: async g => {
      const goal: Goal = { id: `g${++n}`, description: g.description, status: g.status ?? 'active', priority: g.priority ?? 0, parent_goal_id: g.parent_goal_id ?? null, created_at: '2026-03-01T10:00:00.000Z', deadline: g.deadline ?? null, channel: g.channel }
      goals.set(goal.id, goal)
      return goal
    },
    goal: async id => goals.get(id),
    updateGoal: async (id, p) => {
      const g = goals.get(id)
      if (g === undefined) return undefined
      const next: Goal = { ...g, ...(p.description === undefined ? {} : { description: p.description }), ...(p.status === undefined ? {} : { status: p.status }) }
      goals.set(id, next)
      return next
    },
    deleteGoal: async id => goals.delete(id),
    addStrategy: async x => {
      const st: LearnedStrategy = { id: `s${++n}`, description: x.description, context_pattern: x.context_pattern, tool_sequence: x.tool_sequence ?? [], success_count: 0, failure_count: 0, last_used: null, channel: x.channel }
      strategies.set(st.id, st)
      return st
    },
    strategy: async id => strategies.get(id),
    deleteStrategy: async id => strategies.delete(id),
    audit: async () => {},
    health: async () => ({ status: 'healthy', backend: 'fake' }),
    channels: async () => [{ name: 'work', created_at: '2026-03-01T10:00:00.000Z' }],
    countByChannel: async () => ({ work: { turns: turns.filter(x => x.channel === 'work').length } }),
    deleteChannel: async name => {
      const k = turns.filter(x => x.channel === name).length
      for (let i = turns.length - 1; i >= 0; i--) if (turns[i].channel === name) turns.splice(i, 1)
      return { turns: k, conversations: 1 }
    },
  }
  return s as RelationalStore
}

type Copied = { op: 'turn', item: Turn } | { op: 'goal', item: Goal } | { op: 'strategy', item: LearnedStrategy } | { op: 'remove', kind: CopyKind, id: string } | { op: 'deleteChannel', id: string }

/** A graph store that keeps copies, and can be down or broken. */
function graph (): { store: GraphStore, copied: Copied[], state: { down: boolean, broken: boolean } } {
  const copied: Copied[] = []
  const state = { down: false, broken: false }
  const check = (): void => {
    if (state.down) throw new StoreUnavailableError('graph', 'neo4j', new Error('connection refused'))
    if (state.broken) throw new Error('a bad statement')
  }
  const s: Partial<GraphStore> = {
    backend: 'neo4j',
    health: async () => ({ status: state.down ? 'unhealthy' : 'healthy', backend: 'neo4j' }),
    upsertTurn: async (item: Turn, _e?: EmbeddingRef) => { check(); copied.push({ op: 'turn', item }) },
    upsertGoal: async (item: Goal) => { check(); copied.push({ op: 'goal', item }) },
    upsertStrategy: async (item: LearnedStrategy) => { check(); copied.push({ op: 'strategy', item }) },
    removeCopy: async (kind: CopyKind, id: string) => { check(); copied.push({ op: 'remove', kind, id }); return 1 },
    countByChannel: async () => ({}),
    deleteChannel: async (name: string) => {
      check()
      const turns = copied.filter(c => c.op === 'turn' && c.item.channel === name).length
      copied.push({ op: 'deleteChannel', id: name })
      return { entities: 1, facts: 0, relationships: 0, turns, conversations: 1, goals: 0, strategies: 0 }
    },
  }
  return { store: s as GraphStore, copied, state }
}

function setup (withGraph: GraphStore | undefined): { svc: MemoryServiceImpl, reg: Registry } {
  const reg = createRegistry()
  reg.relationalStores.add('sql', relational())
  if (withGraph !== undefined) reg.graphStores.add('graph', withGraph)
  return { svc: new MemoryServiceImpl(() => reg, () => new Hooks(), log, opts), reg }
}

function outbox (t: Test): Outbox {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-copy-outbox-'))
  const o = new Outbox({ dir, maxEntries: 100, maxBytes: 1024 * 1024, writeTimeoutMs: 2000, maxRetryMs: 50, maxAttempts: 3 }, log)
  t.teardown(async () => { await o.close(); rmSync(dir, { recursive: true, force: true }) })
  return o
}

t.test('copying(): a graph store with all four copy members, not one without them', async t => {
  t.ok(copying(graph().store))
  const { upsertTurn: _drop, ...partial } = graph().store
  t.equal(copying(partial as GraphStore), undefined)
  t.equal(copying(undefined), undefined)
})

t.test('turns, goals (new, edited, deleted), strategies and a deleted conversation are copied after the relational write', async t => {
  const g = graph()
  const { svc } = setup(g.store)
  const r1 = await svc.storeTurn({ conversation_id: 'c1', role: 'user', content: 'hello', channel: 'work' })
  const r2 = await svc.storeTurn({ conversation_id: 'c1', role: 'assistant', content: 'hi', channel: 'work' })
  t.equal(r1.stored, true)
  const goal = await svc.procedural.addGoal({ description: 'ship', channel: 'work' })
  await svc.procedural.editGoal(goal.id, { status: 'blocked' })
  const strategy = await svc.procedural.addStrategy({ description: 'search first', context_pattern: 'find', tool_sequence: ['search'], channel: 'work' })
  await svc.procedural.deleteStrategy(strategy.id)
  await svc.procedural.deleteGoal(goal.id)
  await svc.episodic.deleteConversation('c1')
  t.same(g.copied.map(c => c.op === 'remove' ? `remove ${c.kind} ${c.id}` : c.op === 'deleteChannel' ? c.id : `${c.op} ${c.item.id}`), [
    `turn ${r1.turn?.id ?? ''}`, `turn ${r2.turn?.id ?? ''}`, `goal ${goal.id}`, `goal ${goal.id}`, `strategy ${strategy.id}`,
    `remove strategy ${strategy.id}`, `remove goal ${goal.id}`, 'remove conversation c1',
  ])
  const turn = g.copied[1]
  t.same(turn.op === 'turn' ? [turn.item.index, turn.item.channel, turn.item.conversation_id] : [], [1, 'work', 'c1'], 'the turn as stored, with its index')
  const edited = g.copied[3]
  t.equal(edited.op === 'goal' ? edited.item.status : '', 'blocked', 'the goal as stored after the edit')
})

t.test('a graph store without copies (the SQL one) gets no copy calls, and the writes go on', async t => {
  const g = graph()
  const { upsertTurn: _a, upsertGoal: _b, upsertStrategy: _c, removeCopy: _d, ...sqlLike } = g.store
  const { svc } = setup(sqlLike as GraphStore)
  t.equal((await svc.storeTurn({ conversation_id: 'c', role: 'user', content: 'x' })).stored, true)
  await svc.procedural.addGoal({ description: 'g' })
  t.same(g.copied, [])
})

t.test('a graph store that is down: the chat\'s turn is stored, the copy waits in the copy outbox and lands in order once it is back', async t => {
  const g = graph()
  const { svc } = setup(g.store)
  const o = outbox(t)
  svc.copies.outbox = o
  g.state.down = true
  const a = await svc.storeTurn({ conversation_id: 'c1', role: 'user', content: 'one', channel: 'work' })
  const b = await svc.storeTurn({ conversation_id: 'c1', role: 'assistant', content: 'two', channel: 'work' })
  const goal = await svc.procedural.addGoal({ description: 'ship', channel: 'work' })
  t.equal(a.stored, true, 'the turn is stored: the graph copy does not fail the chat')
  t.equal(b.stored, true)
  t.equal(goal.description, 'ship', 'the goal route answers')
  t.equal(o.pending, 3, 'three copies queued')
  t.same(g.copied, [])
  t.match(await memoryHealth(svc).check(), { graph_copy_outbox: { status: 'waiting', pending: 3 } }, 'health shows the copies waiting')
  g.state.down = false
  o.attach(svc.copies.applyQueued, log)
  await o.flush()
  t.equal(o.pending, 0)
  t.same(g.copied.map(c => c.op === 'remove' || c.op === 'deleteChannel' ? c.id : c.item.id), [a.turn?.id, b.turn?.id, goal.id], 'in the order they were made')
  t.equal((await memoryHealth(svc).check()).graph_copy_outbox, undefined, 'none waiting: not shown')
})

t.test('a copy that fails for another reason is logged, never thrown at the write', async t => {
  const g = graph()
  const { svc } = setup(g.store)
  g.state.broken = true
  t.equal((await svc.storeTurn({ conversation_id: 'c', role: 'user', content: 'x' })).stored, true)
  const goal = await svc.procedural.addGoal({ description: 'g' })
  t.equal(goal.description, 'g')
  t.same(g.copied, [])
})

t.test('deleting a channel: copies still queued land first, then the graph store empties it and its items are counted', async t => {
  const g = graph()
  const { svc } = setup(g.store)
  const o = outbox(t)
  svc.copies.outbox = o
  o.attach(svc.copies.applyQueued, log)
  g.state.down = true
  await svc.storeTurn({ conversation_id: 'c1', role: 'user', content: 'one', channel: 'work' })
  await svc.storeTurn({ conversation_id: 'c1', role: 'assistant', content: 'two', channel: 'work' })
  t.equal(o.pending, 2, 'queued while the graph store is down')
  g.state.down = false
  const deleted = await svc.channels.deleteChannel('work')
  t.same(g.copied.map(c => c.op), ['turn', 'turn', 'deleteChannel'], 'the queued copies first: none lands after the deletion')
  t.equal(o.pending, 0)
  t.match(deleted, { turns: 2, conversations: 1, entities: 1, graph_items: 1 + 2 + 1, redis_keys: 0 })
})
