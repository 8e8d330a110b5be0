// The relational store contract, turns slice (TurnStore, StoreBasics): indexes per
// conversation, what a turn keeps, vectors (exact cosine, small channels), recent turns.
import type { Test } from 'tap'
import type { StoreBasics, TurnStore } from '@agentd/sdk/contracts/memory-stores'
import { axis, unit } from '../vectors.ts'

const E = 'test-embedder'
const emb = (a: number, nudge = 0): { vector: number[], embedder: string } => ({ vector: axis(8, a, nudge), embedder: E })

export function turnSlice (t: Test, store: TurnStore & StoreBasics): void {
  t.test('turns get consecutive indexes per conversation, also when written at once', async t => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => store.addTurn({ conversation_id: 'c-par', role: 'user', content: `m${i}`, channel: 'a' })))
    const turns = await store.conversationTurns('c-par', 100)
    t.same(turns.map(x => x.index), [0, 1, 2, 3, 4, 5, 6, 7])
    const last = await store.conversationTurns('c-par', 3)
    t.same(last.map(x => x.index), [5, 6, 7], 'the last N, oldest first')
    t.equal(turns[0].conversation_id, 'c-par')
    t.match(turns[0].timestamp, /^\d{4}-\d\d-\d\dT/)
  })

  t.test('a turn keeps its metadata, token count and embedder', async t => {
    const turn = await store.addTurn({ conversation_id: 'c-meta', role: 'assistant', content: 'hi', channel: 'a', token_count: 3, metadata: { model: 'm', latency_ms: 12.5 }, embedding: emb(1) })
    t.same(turn.metadata, { model: 'm', latency_ms: 12.5 })
    t.equal(turn.token_count, 3)
    t.equal(turn.embedder, E)
  })

  t.test('similar turns: nearest first, only the asked channels and this embedder', async t => {
    await store.addTurn({ conversation_id: 's1', role: 'user', content: 'near', channel: 'sim-a', embedding: emb(2, 0.1) })
    await store.addTurn({ conversation_id: 's1', role: 'user', content: 'far', channel: 'sim-a', embedding: emb(5) })
    await store.addTurn({ conversation_id: 's2', role: 'user', content: 'other channel', channel: 'sim-b', embedding: emb(2) })
    await store.addTurn({ conversation_id: 's1', role: 'user', content: 'other embedder', channel: 'sim-a', embedding: { vector: axis(8, 2), embedder: 'other' } })
    await store.addTurn({ conversation_id: 's1', role: 'user', content: 'other size', channel: 'sim-a', embedding: { vector: axis(4, 2), embedder: E } })
    const res = await store.similarTurns({ embedding: emb(2), channels: ['sim-a'], limit: 10 })
    t.same(res.map(r => r.content), ['near', 'far'])
    t.ok(res[0].score > 0.99 && res[0].score <= 1.0001, `cosine ${res[0].score}`)
    t.ok(Math.abs(res[1].score) < 1e-6)
    const both = await store.similarTurns({ embedding: emb(2), channels: ['sim-a', 'sim-b'], limit: 1 })
    t.same(both.map(r => r.content), ['other channel'])
  })

  t.test('scores are the exact cosine, best first, for any dimension', async t => {
    // 21: both loops of agentd_dot (16 unrolled + 5 single); 384: unrolled only (the real[] fallback).
    let seed = 7
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff - 0.5 }
    for (const dims of [21, 384]) {
      const channel = `exact-${dims}`
      const vecs = Array.from({ length: 25 }, () => unit(Array.from({ length: dims }, rnd)))
      for (const [i, v] of vecs.entries()) await store.addTurn({ conversation_id: channel, role: 'user', content: String(i), channel, embedding: { vector: v, embedder: E } })
      const q = unit(Array.from({ length: dims }, rnd))
      const want = vecs.map((v, i) => ({ i: String(i), score: v.reduce((s, x, k) => s + x * q[k], 0) })).sort((a, b) => b.score - a.score).slice(0, 10)
      const got = await store.similarTurns({ embedding: { vector: q, embedder: E }, channels: [channel], limit: 10 })
      t.same(got.map(r => r.content), want.map(w => w.i), `${dims} dims: the order of the exact cosine`)
      t.ok(got.every((r, k) => Math.abs(r.score - want[k].score) < 1e-5), `${dims} dims: scores match`)
    }
  })

  t.test('a small channel in a crowded table still gets its nearest turns', async t => {
    for (let i = 0; i < 400; i++) await store.addTurn({ conversation_id: `crowd-${i % 20}`, role: 'user', content: `crowd ${i}`, channel: 'crowd', embedding: emb(7, i / 4000) })
    for (const c of ['s1', 's2', 's3']) await store.addTurn({ conversation_id: 'small', role: 'user', content: c, channel: 'small', embedding: emb(3) })
    const res = await store.similarTurns({ embedding: emb(7), channels: ['small'], limit: 3 })
    t.same(res.map(r => r.content).sort(), ['s1', 's2', 's3'])
  })

  t.test('recent turns: newest first, channel filtered', async t => {
    await store.addTurn({ conversation_id: 'r1', role: 'user', content: 'old', channel: 'rec' })
    await store.addTurn({ conversation_id: 'r1', role: 'user', content: 'new', channel: 'rec' })
    const res = await store.recentTurns(['rec'], 5)
    t.same(res.map(r => r.content), ['new', 'old'])
  })

  t.test('recent turns of several channels: merged newest first, cut to the limit, a channel named twice counted once', async t => {
    // Explicit times a second apart: two writes in the same millisecond would tie.
    const order = [['ra', 'a1'], ['rb', 'b1'], ['ra', 'a2'], ['rc', 'c1'], ['rb', 'b2'], ['ra', 'a3']]
    for (const [i, [channel, content]] of order.entries()) {
      await store.addTurn({ conversation_id: `m-${channel}`, role: 'user', content, channel, timestamp: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString() })
    }
    t.same((await store.recentTurns(['ra', 'rb', 'ra'], 4)).map(r => r.content), ['a3', 'b2', 'a2', 'b1'])
    t.same((await store.recentTurns(['rb', 'rc'], 10)).map(r => r.content), ['b2', 'c1', 'b1'])
  })

  t.test('embedder usage counts the vectors each embedder made', async t => {
    const usage = await store.embedderUsage()
    const mine = usage.find(u => u.embedder === E && u.dimensions === 8)
    t.ok(mine !== undefined && mine.count > 0)
    t.ok(usage.some(u => u.embedder === 'other'))
  })
}
