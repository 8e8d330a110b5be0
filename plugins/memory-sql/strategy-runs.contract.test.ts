// RelationalStore.recordStrategyRun and toolInvocations' watermark on every SQL backend.
import t from 'tap'
import { SQL_BACKENDS } from '../../test/memory/sql-targets.ts'
import { SqlRelationalStore } from './relational-store.ts'
import type { StrategyRun } from '@agentd/sdk/contracts/memory-stores'

const run = (conversation: string, success: boolean, extra: Partial<StrategyRun> = {}): StrategyRun =>
  ({ description: 'Use search -> fetch', context_pattern: 'weather city', tool_sequence: ['search', 'fetch'], channel: 'st', conversation_id: conversation, success, ...extra })

for (const backend of SQL_BACKENDS) {
  t.test(`strategy runs on ${backend.name}`, async t => {
    const h = await backend.open(t)
    const store = new SqlRelationalStore(h)

    t.test('a failed run alone makes nothing; a successful one makes the strategy; each conversation counts once', async t => {
      t.same(await store.recordStrategyRun(run('c0', false)), { created: false, counted: false })
      const first = await store.recordStrategyRun(run('c1', true))
      t.equal(first.created, true)
      t.match(first.strategy, { tool_sequence: ['search', 'fetch'], success_count: 1, failure_count: 0 })
      t.ok(first.strategy?.last_used)
      const again = await store.recordStrategyRun(run('c1', true))
      t.match(again, { created: false, counted: false, strategy: { success_count: 1 } })
      t.match(await store.recordStrategyRun(run('c2', true)), { created: false, counted: true, strategy: { success_count: 2 } })
      t.match(await store.recordStrategyRun(run('c3', false)), { counted: true, strategy: { success_count: 2, failure_count: 1 } })
      t.equal((await store.strategies({ channel: 'st', offset: 0, limit: 10 })).total, 1, 'a repeated pattern updates its strategy')
      t.equal((await store.recordStrategyRun(run('c4', true, { tool_sequence: ['search'] }))).created, true, 'another sequence is another strategy')
      t.equal((await store.recordStrategyRun(run('c1', true, { channel: 'st2' }))).created, true, 'and so is another channel')
    })

    t.test('toolInvocations since: the calls recorded from then on, oldest first', async t => {
      const a = await store.addToolInvocation({ conversation_id: 'w1', tool: 'a', arguments: {}, result: '', is_error: false, duration_ms: 1, channel: 'st' })
      await new Promise(resolve => setTimeout(resolve, 5))
      const b = await store.addToolInvocation({ conversation_id: 'w1', tool: 'b', arguments: {}, result: '', is_error: false, duration_ms: 1, channel: 'st' })
      const later = await store.toolInvocations({ since: b.created_at, limit: 10 })
      t.same(later.map(x => x.id), [b.id])
      t.same((await store.toolInvocations({ since: a.created_at, limit: 10 })).map(x => x.tool), ['a', 'b'])
    })
  })
}
