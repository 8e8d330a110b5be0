// The memory service's own recall technique on stores made for the test: what it reads
// (limits, thresholds), how it ranks turns (similarity; recency only as a tie-break unless
// the query asks what is recent, then blended), and how a store that is down degrades.
import t from 'tap'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { GraphStore, RelationalStore } from '@agentd/sdk/contracts/memory-stores'
import type { RecallInput } from '@agentd/sdk/contracts/recall'
import { vectorRecency, type VectorRecencyDeps } from './vector-recency.ts'

const HOUR = 3_600_000
const ago = (hours: number): string => new Date(Date.now() - hours * HOUR).toISOString()
const embedding = { vector: [1, 0], embedder: 'e' }

interface Calls { [method: string]: unknown[] }

/** Stores that answer from the given rows and record what they were asked. */
function stores (rows: { turns?: Array<Record<string, unknown>>, recent?: Array<Record<string, unknown>>, facts?: Array<{ score: number }>, entities?: Array<{ score: number }>, strategies?: Array<{ score: number }>, goals?: unknown[] }, fail: Partial<Record<'relational' | 'graph', Error>> = {}): { rel: RelationalStore, graph: GraphStore, calls: Calls } {
  const calls: Calls = {}
  const answer = (role: 'relational' | 'graph', method: string, value: unknown) => async (arg: unknown, arg2?: unknown) => {
    ;(calls[method] ??= []).push(arg2 === undefined ? arg : [arg, arg2])
    if (fail[role] !== undefined) throw fail[role]
    return value
  }
  const rel = {
    similarTurns: answer('relational', 'similarTurns', rows.turns ?? []),
    recentTurns: answer('relational', 'recentTurns', rows.recent ?? []),
    similarStrategies: answer('relational', 'similarStrategies', rows.strategies ?? []),
    goals: answer('relational', 'goals', rows.goals ?? []),
  } as unknown as RelationalStore
  const graph = {
    similarFacts: answer('graph', 'similarFacts', rows.facts ?? []),
    similarEntities: answer('graph', 'similarEntities', rows.entities ?? []),
  } as unknown as GraphStore
  return { rel, graph, calls }
}

const opts: VectorRecencyDeps['opts'] = { recencyWeight: 0.5, recencyHalfLifeHours: 24, workingMemoryTurns: 6 }
const input = (over: Partial<RecallInput> = {}): RecallInput => ({ query: 'tell me about dogs', channel: 'c', channels: ['c', '_global'], top_k: 4, embedding, strict: false, settings: {} as RecallInput['settings'], ...over })
const turn = (id: string, score: number, hoursAgo: number): Record<string, unknown> => ({ id, content: id, score, timestamp: ago(hoursAgo) })

t.test('what it asks the stores for: recall_candidate_depth turns or 3 x top_k when deeper (the depth hybrid shares), top_k facts, at most 5 entities, 3 strategies, 5 active goals', async t => {
  const { rel, graph, calls } = stores({})
  const out = await vectorRecency({ relational: rel, graph, opts }).run(input({ top_k: 7 }))
  t.same(calls.similarTurns, [{ embedding, channels: ['c', '_global'], limit: 100 }], 'the default depth')
  t.same(out.weights, { relevant_turns: 0.7 }, 'its turns weigh recall_hybrid_vector_weight in the fusion')
  const deep = stores({})
  await vectorRecency({ relational: deep.rel, graph: deep.graph, opts }).run(input({ top_k: 12, settings: { recall_candidate_depth: 30 } }))
  t.same(deep.calls.similarTurns, [{ embedding, channels: ['c', '_global'], limit: 36 }], 'three times top_k past the depth')
  t.same(calls.similarFacts, [{ embedding, channels: ['c', '_global'], limit: 7, include_superseded: false }], 'current facts only unless the query asks about the past')
  t.same(calls.similarEntities, [{ embedding, channels: ['c', '_global'], limit: 5 }])
  t.same(calls.similarStrategies, [{ embedding, channels: ['c', '_global'], limit: 3 }])
  t.same(calls.goals, [{ channels: ['c', '_global'], status: 'active', limit: 5 }])
  const few = stores({})
  await vectorRecency({ relational: few.rel, graph: few.graph, opts }).run(input({ top_k: 2 }))
  t.same(few.calls.similarEntities, [{ embedding, channels: ['c', '_global'], limit: 2 }], 'fewer entities when top_k is smaller')
})

t.test('weak matches are dropped: turns and facts at 0.05 or below, entities and strategies at 0.2 or below', async t => {
  const { rel, graph } = stores({
    turns: [turn('keep', 0.06, 1), turn('drop', 0.05, 1)],
    facts: [{ score: 0.06 }, { score: 0.05 }],
    entities: [{ score: 0.21 }, { score: 0.2 }],
    strategies: [{ score: 0.21 }, { score: 0.2 }],
    goals: [{ id: 'g' }],
  })
  const out = await vectorRecency({ relational: rel, graph, opts }).run(input())
  t.same(out.relevant_turns?.map(x => x.id), ['keep'])
  t.same(out.facts, [{ score: 0.06 }])
  t.same(out.entities, [{ score: 0.21 }])
  t.same(out.strategies, [{ score: 0.21 }])
  t.same(out.active_goals, [{ id: 'g' }])
  t.same(out.degraded, [])
  t.same(Object.keys(out.timings_ms ?? {}).sort(), ['entities', 'facts', 'goals', 'strategies', 'turns'])
})

t.test('turns rank by similarity, the higher first; recency only breaks a tie', async t => {
  const { rel, graph } = stores({ turns: [turn('old-close', 0.9, 500), turn('new-far', 0.3, 0), turn('tie-old', 0.5, 100), turn('tie-new', 0.5, 1)] })
  const out = await vectorRecency({ relational: rel, graph, opts }).run(input())
  t.same(out.relevant_turns?.map(x => x.id), ['old-close', 'tie-new', 'tie-old', 'new-far'])
  t.same(out.relevant_turns?.map(x => x.score), [0.9, 0.5, 0.5, 0.3], 'the score is the similarity')
  t.same(out.relevant_turns?.map(x => x.similarity), [0.9, 0.5, 0.5, 0.3])
})

t.test('a query about what is recent blends: (1 - w) * similarity + w * 2^(-age / half-life), to 4 decimals', async t => {
  const { rel, graph } = stores({ turns: [turn('old-close', 0.9, 48), turn('new-far', 0.5, 0)] })
  const out = await vectorRecency({ relational: rel, graph, opts }).run(input({ query: 'what did we talk about recently?' }))
  t.same(out.relevant_turns?.map(x => x.id), ['new-far', 'old-close'], 'the newer turn overtakes')
  const [fresh, old] = out.relevant_turns as Array<{ score: number }>
  t.ok(Math.abs(fresh.score - (0.5 * 0.5 + 0.5 * 1)) < 1e-3, `fresh: ${fresh.score}`)
  t.ok(Math.abs(old.score - (0.5 * 0.9 + 0.5 * 0.25)) < 1e-3, `two half-lives old: ${old.score}`)
  t.equal(old.score, Math.round(old.score * 10_000) / 10_000, 'rounded to 4 decimals')
})

t.test('without a query vector: the newest turns, and no fact, entity or strategy search', async t => {
  const { rel, graph, calls } = stores({ recent: [turn('b', 0, 2), turn('a', 0, 1)], facts: [{ score: 1 }] })
  const out = await vectorRecency({ relational: rel, graph, opts }).run(input({ embedding: undefined, top_k: 3 }))
  t.same(calls.recentTurns, [[['c', '_global'], 100]])
  t.equal(calls.similarTurns, undefined)
  t.same(out.relevant_turns?.map(x => x.id), ['a', 'b'], 'newest first')
  t.same(out.weights, { relevant_turns: 0.3 }, 'standing in for the vector list, they weigh no more than the keyword list')
  t.same(out.relevant_turns?.map(x => x.similarity), [null, null])
  t.same([out.facts, out.entities, out.strategies], [[], [], []])
  t.equal(calls.similarFacts, undefined)
})

t.test('missing stores give empty parts', async t => {
  const out = await vectorRecency({ relational: undefined, graph: undefined, opts }).run(input())
  t.same([out.relevant_turns, out.facts, out.entities, out.strategies, out.active_goals, out.degraded], [[], [], [], [], [], []])
})

t.test('a store that is down: its parts are empty and its role named (a chat); strict lets the error out (the endpoint)', async t => {
  const down = new StoreUnavailableError('relational', 'pglite', new Error('connection refused'))
  const { rel, graph } = stores({ facts: [{ score: 0.9 }] }, { relational: down })
  const out = await vectorRecency({ relational: rel, graph, opts }).run(input())
  t.same(out.relevant_turns, [])
  t.same(out.facts, [{ score: 0.9 }], 'the other store still answers')
  t.same(out.degraded, ['relational', 'relational', 'relational'], 'one entry per part that failed')
  await t.rejects(vectorRecency({ relational: rel, graph, opts }).run(input({ strict: true })), down)
  const broken = stores({}, { graph: new Error('a bug, not an outage') })
  await t.rejects(vectorRecency({ relational: broken.rel, graph: broken.graph, opts }).run(input()), /a bug/, 'other errors are not swallowed')
})

t.test('an aborted recall reads nothing', async t => {
  const { rel, graph, calls } = stores({})
  const ac = new AbortController()
  ac.abort(new Error('chat gone'))
  await t.rejects(vectorRecency({ relational: rel, graph, opts }).run(input({ signal: ac.signal })), /chat gone/)
  t.same(calls, {})
})
