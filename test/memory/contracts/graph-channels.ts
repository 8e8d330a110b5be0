// The graph store contract, channels slice (GraphChannelStore, StoreBasics): deleting a
// channel removes only its items; embedder usage; delete all.
import type { Test } from 'tap'
import type { EntityStore, FactStore, GraphChannelStore, RelationStore, StoreBasics } from '@agentd/sdk/contracts/memory-stores'
import { E, fact } from './graph-support.ts'

export function graphChannelSlice (t: Test, store: GraphChannelStore & StoreBasics & EntityStore & FactStore & RelationStore): void {
  t.test('deleting a channel removes its entities, facts and relationships only', async t => {
    const e1 = await store.upsertEntity({ name: 'P', type: 'T', channel: 'dc-a' })
    const e2 = await store.upsertEntity({ name: 'Q', type: 'T', channel: 'dc-a' })
    await store.relate({ source_id: e1.entity.id, target_id: e2.entity.id, type: 'r', channel: 'dc-a' })
    await store.addFact(fact('in a', 'dc-a'))
    await store.addFact(fact('in b', 'dc-b'))
    const deleted = await store.deleteChannel('dc-a')
    t.match(deleted, { entities: 2, facts: 1, relationships: 1 })
    // A store that keeps copies of turns, goals... (Neo4j) counts them too: none here.
    t.same(Object.entries(deleted).filter(([k, n]) => !['entities', 'facts', 'relationships'].includes(k) && n !== 0), [], 'nothing else was counted')
    const counts = await store.countByChannel()
    t.equal(counts['dc-a'], undefined)
    t.equal(counts['dc-b'].facts, 1)
  })

  t.test('embedder usage and delete all', async t => {
    t.ok((await store.embedderUsage()).some(u => u.embedder === E && u.dimensions === 8))
    t.ok(await store.deleteAll() > 0)
    t.equal((await store.facts({ offset: 0, limit: 10, include_superseded: true })).total, 0)
  })
}
