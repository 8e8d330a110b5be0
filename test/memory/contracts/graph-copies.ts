// The graph store contract, copies slice (CopyStore: turns, goals and strategies kept by a
// store that serves them itself, Neo4j).
import type { Test } from 'tap'
import type { CopyStore, Goal, GraphChannelStore, LearnedStrategy, ReembedSupport, StoreBasics, Turn } from '@agentd/sdk/contracts/memory-stores'
import { E } from './graph-support.ts'
import { axis } from '../vectors.ts'


/**
 * The optional copies of turns, goals and strategies (GraphStore.upsertTurn, upsertGoal,
 * upsertStrategy, removeCopy, searchTurns). A store keeps all four writers or none; one
 * without them (the SQL graph store: the relational store's own database) passes on that
 * alone. With them: a replayed write changes nothing, copies are searchable, counted and
 * removed with their channel, and re-embedded like the rest.
 */
export function graphCopiesContract (t: Test, open: (t: Test) => Promise<CopyStore & GraphChannelStore & ReembedSupport & StoreBasics>): void {
  t.test('graph store copies contract', async t => {
    const store = await open(t)
    const members = (['upsertTurn', 'upsertGoal', 'upsertStrategy', 'removeCopy'] as const).filter(m => typeof store[m] === 'function')
    if (members.length === 0) {
      t.equal(store.searchTurns, undefined, 'no copies: no search over them either')
      return
    }
    t.equal(members.length, 4, 'all four copy writers or none')
    const { upsertTurn, upsertGoal, upsertStrategy, removeCopy, searchTurns } = store as Required<CopyStore>
    const turn = (i: number, content: string, channel = 'cp', conversation = 'conv-cp'): Turn => ({
      id: `00000000-0000-4000-8000-00000000000${i}`, conversation_id: conversation, index: i, timestamp: `2026-03-01T10:00:0${i}.000Z`, role: i % 2 === 0 ? 'user' : 'assistant',
      content, token_count: 3, metadata: { source: 'api' }, channel, embedder: E,
    })
    const goal: Goal = { id: '00000000-0000-4000-8000-0000000000a1', description: 'Ship the Paystream integration', status: 'active', priority: 2, parent_goal_id: null, created_at: '2026-03-01T10:00:00.000Z', deadline: null, channel: 'cp' }
    const strategy: LearnedStrategy = { id: '00000000-0000-4000-8000-0000000000b1', description: 'search then fetch', context_pattern: 'look up', tool_sequence: ['search', 'fetch'], success_count: 1, failure_count: 0, last_used: null, channel: 'cp' }

    t.test('turns: copied once whatever the replays, found by keyword in their channels', async t => {
      const t0 = turn(0, 'Dr Okafor signed the Paystream contract')
      await upsertTurn.call(store, t0, { vector: axis(8, 0), embedder: E })
      await upsertTurn.call(store, turn(1, 'Noted, the contract is signed'))
      await upsertTurn.call(store, t0)
      await upsertTurn.call(store, turn(2, 'Okafor again', 'cp-other', 'conv-other'))
      const found = await searchTurns.call(store, { text: 'okafor?', channels: ['cp'], limit: 5 })
      t.same(found.map(x => x.id), [t0.id], 'once, in the channels asked')
      const { score, ...mapped } = found[0]
      t.same(mapped, t0, 'every field as stored')
      t.ok(score > 0)
      t.same(await searchTurns.call(store, { text: '"*" OR', channels: ['cp'], limit: 5 }), [], 'operators are not interpreted')
      t.ok((await store.embedderUsage()).some(u => u.embedder === E && u.dimensions === 8), 'its vector is counted')
    })

    t.test('turns: the nearest by vector in their channels and embedder, scored by cosine (optional member)', { skip: store.similarTurns === undefined ? `the ${store.backend} graph store has no vector search over turns` : false }, async t => {
      const { similarTurns } = store
      if (similarTurns === undefined) return
      const t0 = turn(0, 'Dr Okafor signed the Paystream contract')
      // In a conversation of their own, removed at the end: the tests below count the channel's turns.
      await upsertTurn.call(store, turn(3, 'near the third axis', 'cp', 'conv-vec'), { vector: axis(8, 3, 0.2), embedder: E })
      await upsertTurn.call(store, turn(4, 'on the fourth axis', 'cp', 'conv-vec'), { vector: axis(8, 4), embedder: E })
      await upsertTurn.call(store, turn(5, 'another embedder', 'cp', 'conv-vec'), { vector: axis(8, 3), embedder: 'other' })
      await upsertTurn.call(store, turn(6, 'another channel', 'cp-far', 'conv-far'), { vector: axis(8, 3), embedder: E })
      const near = await similarTurns.call(store, { embedding: { vector: axis(8, 3), embedder: E }, channels: ['cp'], limit: 2 })
      t.same(near.map(x => x.content), ['near the third axis', 'on the fourth axis'], 'its channels and embedder only, nearest first')
      t.ok(Math.abs(near[0].score - axis(8, 3, 0.2)[3]) < 1e-5, 'the score is the cosine')
      t.ok(Math.abs(near[1].score) < 1e-5, 'at right angles: 0')
      t.same((await similarTurns.call(store, { embedding: { vector: axis(8, 0), embedder: E }, channels: ['cp'], limit: 1 })).map(x => x.id), [t0.id])
      t.equal(await removeCopy.call(store, 'conversation', 'conv-vec'), 4)
      t.equal(await removeCopy.call(store, 'conversation', 'conv-far'), 2)
    })

    t.test('goals and strategies: replaced by id, removed once', async t => {
      await upsertGoal.call(store, goal, { vector: axis(8, 1), embedder: E })
      await upsertGoal.call(store, { ...goal, status: 'blocked' })
      await upsertGoal.call(store, { ...goal, id: '00000000-0000-4000-8000-0000000000a2', parent_goal_id: goal.id, description: 'Sub goal' })
      await upsertStrategy.call(store, strategy)
      await upsertStrategy.call(store, { ...strategy, success_count: 2, last_used: '2026-03-02T00:00:00.000Z' })
      t.equal(await removeCopy.call(store, 'goal', '00000000-0000-4000-8000-0000000000a2'), 1)
      t.equal(await removeCopy.call(store, 'goal', '00000000-0000-4000-8000-0000000000a2'), 0, 'none left: 0')
    })

    t.test('a conversation goes with its turns', async t => {
      t.equal(await removeCopy.call(store, 'conversation', 'conv-other'), 2, 'one turn and its conversation')
      t.same(await searchTurns.call(store, { text: 'okafor', channels: ['cp-other'], limit: 5 }), [])
    })

    t.test('channel deletion removes and counts the copies', async t => {
      const counts = await store.deleteChannel('cp')
      t.match(counts, { turns: 2, conversations: 1, goals: 1, strategies: 1 })
      t.same(await searchTurns.call(store, { text: 'okafor', channels: ['cp'], limit: 5 }), [])
      t.equal(await removeCopy.call(store, 'strategy', strategy.id), 0, 'the strategy went with its channel')
    })
  })
}
