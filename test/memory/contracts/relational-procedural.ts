// The relational store contract, goals, strategies and tool-log slices (GoalStore,
// StrategyStore, ToolLogStore).
import type { Test } from 'tap'
import type { GoalStore, StrategyStore, ToolLogStore } from '@agentd/sdk/contracts/memory-stores'
import { axis } from '../vectors.ts'

const E = 'test-embedder'
const emb = (a: number, nudge = 0): { vector: number[], embedder: string } => ({ vector: axis(8, a, nudge), embedder: E })

export function proceduralSlice (t: Test, store: GoalStore & StrategyStore & ToolLogStore): void {
  t.test('goals: stored with defaults, filtered by channel and status', async t => {
    const g = await store.addGoal({ description: 'ship it', channel: 'g1' })
    t.equal(g.status, 'active')
    t.equal(g.priority, 3)
    await store.addGoal({ description: 'done one', channel: 'g1', status: 'completed', priority: 5 })
    await store.addGoal({ description: 'elsewhere', channel: 'g2' })
    const active = await store.goals({ channels: ['g1'], status: 'active', limit: 10 })
    t.same(active.map(x => x.description), ['ship it'])
  })

  t.test('strategies: search is literal for quotes, %, _, backslashes and Unicode', async t => {
    const texts = ['100% sure', 'snake_case', 'back\\slash', "it's quoted", 'naïve café 日本', 'plain']
    for (const d of texts) await store.addStrategy({ description: d, context_pattern: 'p', channel: 'st', tool_sequence: ['a', 'b'] })
    const find = async (s: string): Promise<string[]> => (await store.strategies({ channel: 'st', search: s, offset: 0, limit: 50 })).items.map(x => x.description).sort()
    t.same(await find('%'), ['100% sure'])
    t.same(await find('_'), ['snake_case'])
    t.same(await find('\\'), ['back\\slash'])
    t.same(await find("'"), ["it's quoted"])
    t.same(await find('CAFÉ'), ['naïve café 日本'])
    t.same(await find('日本'), ['naïve café 日本'])
    t.same(await find("'; DROP TABLE strategies; --"), [])
    const page = await store.strategies({ channel: 'st', offset: 2, limit: 2 })
    t.equal(page.total, 6)
    t.equal(page.items.length, 2)
    t.same(page.items[0].tool_sequence, ['a', 'b'])
  })

  t.test('similar strategies by vector', async t => {
    await store.addStrategy({ description: 'v-near', context_pattern: 'x', channel: 'sv', embedding: emb(3) })
    await store.addStrategy({ description: 'v-far', context_pattern: 'x', channel: 'sv', embedding: emb(6) })
    const res = await store.similarStrategies({ embedding: emb(3, 0.2), channels: ['sv'], limit: 1 })
    t.same(res.map(s => s.description), ['v-near'])
  })

  t.test('tool invocations are listed per conversation in order', async t => {
    await store.addToolInvocation({ conversation_id: 'ti', tool: 'a', arguments: { x: 1 }, result: '1', is_error: false, duration_ms: 2, channel: 'a' })
    await store.addToolInvocation({ conversation_id: 'ti', tool: 'b', arguments: {}, result: 'boom', is_error: true, duration_ms: null, channel: 'a' })
    // Inserted within the same millisecond: order must come from insertion, not the clock.
    for (const tool of ['c', 'd', 'e', 'f']) await store.addToolInvocation({ conversation_id: 'ti', tool, arguments: {}, result: '', is_error: false, duration_ms: 0, channel: 'a' })
    const list = await store.toolInvocations({ conversation_id: 'ti', limit: 10 })
    t.same(list.map(x => [x.tool, x.is_error]), [['a', false], ['b', true], ['c', false], ['d', false], ['e', false], ['f', false]])
    t.same(list[0].arguments, { x: 1 })
  })
}
