// The relational store contract, channels and audit slices (ChannelStore, AuditStore).
// `ageAudit` makes the named entries older by `days` (how a backend does that is its own).
import type { Test } from 'tap'
import type { AuditStore, ChannelStore, StrategyStore, TurnStore } from '@agentd/sdk/contracts/memory-stores'

export function channelAuditSlice (t: Test, store: ChannelStore & AuditStore & TurnStore & StrategyStore, ageAudit: (action: string, days: number) => Promise<void>): void {
  t.test('channels: _global and _default exist, create is idempotent, delete removes only that channel', async t => {
    const names = (await store.channels()).map(c => c.name)
    t.ok(names.includes('_global') && names.includes('_default'))
    t.equal((await store.createChannel('chan-a')).created, true)
    t.equal((await store.createChannel('chan-a')).created, false)
    await store.addTurn({ conversation_id: 'ca', role: 'user', content: 'in a', channel: 'chan-a' })
    await store.addStrategy({ description: 's', context_pattern: 'p', channel: 'chan-a' })
    await store.addTurn({ conversation_id: 'cb', role: 'user', content: 'in b', channel: 'chan-b' })
    const counts = await store.countByChannel()
    t.equal(counts['chan-a'].turns, 1)
    t.equal(counts['chan-a'].strategies, 1)
    const del = await store.deleteChannel('chan-a')
    t.same(del, { turns: 1, conversations: 1, strategies: 1, goals: 0, tool_invocations: 0, channels: 1 })
    const after = await store.countByChannel()
    t.equal(after['chan-a'], undefined)
    t.equal(after['chan-b'].turns, 1)
    t.notOk((await store.channels()).some(c => c.name === 'chan-a'))
  })

  t.test('audit log keeps 30 days', async t => {
    await store.audit({ action: 'old', channel: 'a' })
    await store.audit({ action: 'new', details: { n: 1 } })
    await ageAudit('old', 31)
    t.equal(await store.pruneAudit(30), 1)
    const log = await store.auditLog(10)
    t.same(log.map(e => e.action), ['new'])
    t.same(log[0].details, { n: 1 })
  })
}
