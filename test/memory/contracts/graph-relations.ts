// The graph store contract, relations slice (RelationStore over EntityStore): traversal by
// depth and direction, cycles, a hub cut to the limit.
import type { Test } from 'tap'
import type { EntityStore, FactStore, RelationStore } from '@agentd/sdk/contracts/memory-stores'
import { fact, NO_ID } from './graph-support.ts'

export function relationSlice (t: Test, store: RelationStore & EntityStore & FactStore): void {
  t.test('graph traversal respects depth 1-3, both directions, and cycles', async t => {
    const mk = async (n: string): Promise<string> => (await store.upsertEntity({ name: n, type: 'Node', channel: 'tr' })).entity.id
    const [a, b, c, d, x] = [await mk('A'), await mk('B'), await mk('C'), await mk('D'), await mk('X')]
    await store.relate({ source_id: a, target_id: b, type: 'knows', channel: 'tr' })
    await store.relate({ source_id: b, target_id: c, type: 'knows', channel: 'tr' })
    await store.relate({ source_id: c, target_id: d, type: 'knows', channel: 'tr' })
    await store.relate({ source_id: d, target_id: a, type: 'knows', channel: 'tr' }) // a cycle
    await store.relate({ source_id: x, target_id: a, type: 'admires', channel: 'tr' })
    await store.addFact(fact('A is first', 'tr', { entity_ids: [a] }))
    const g1 = await store.graph(a, 1)
    t.equal(g1?.depth, 1)
    t.same(g1?.relationships.map(r => `${r.source.name}-${r.type}->${r.target.name}:${r.direction}`).sort(),
      ['A-knows->B:outgoing', 'D-knows->A:incoming', 'X-admires->A:incoming'])
    t.same(g1?.facts.map(f => f.claim), ['A is first'])
    const g2 = await store.graph(a, 2)
    t.equal(g2?.relationships.length, 5, 'B-C and C-D reached at depth 2')
    const g3 = await store.graph(a, 3)
    t.equal(g3?.relationships.length, 5, 'the cycle adds nothing and ends')
    t.equal(await store.graph(NO_ID, 2), undefined)
  })

  t.test('a chain A-B-C-D: C-D is reached at depth 3, not at depth 2; direction follows the walk', async t => {
    const mk = async (n: string): Promise<string> => (await store.upsertEntity({ name: n, type: 'Node', channel: 'chain' })).entity.id
    const [a, b, c, d] = [await mk('A'), await mk('B'), await mk('C'), await mk('D')]
    await store.relate({ source_id: a, target_id: b, type: 'next', channel: 'chain' })
    await store.relate({ source_id: b, target_id: c, type: 'next', channel: 'chain' })
    await store.relate({ source_id: c, target_id: d, type: 'next', channel: 'chain' })
    const edges = async (root: string, depth: number): Promise<string[]> =>
      (await store.graph(root, depth))?.relationships.map(r => `${r.source.name}-${r.target.name}:${r.depth}:${r.direction}`) ?? []
    t.same(await edges(a, 2), ['A-B:1:outgoing', 'B-C:2:outgoing'], 'depth 2 stops at C')
    t.same(await edges(a, 3), ['A-B:1:outgoing', 'B-C:2:outgoing', 'C-D:3:outgoing'], 'depth 3 reaches D')
    t.same(await edges(d, 3), ['C-D:1:incoming', 'B-C:2:incoming', 'A-B:3:incoming'], 'walking against the edges: incoming all the way')
    t.same(await edges(b, 2), ['A-B:1:incoming', 'B-C:1:outgoing', 'C-D:2:outgoing'], 'an edge away from the root is labelled by the walk, not by the root')
  })

  t.test('a hub: the walk returns at most `limit` relationships, the nearest first, and says it was cut', async t => {
    const mk = async (n: string): Promise<string> => (await store.upsertEntity({ name: n, type: 'Node', channel: 'hub' })).entity.id
    const hub = await mk('Hub')
    for (let i = 0; i < 6; i++) {
      const spoke = await mk(`S${i}`)
      await store.relate({ source_id: hub, target_id: spoke, type: 'has', channel: 'hub' })
      await store.relate({ source_id: spoke, target_id: await mk(`L${i}`), type: 'has', channel: 'hub' })
    }
    const whole = await store.graph(hub, 2)
    t.match(whole, { limit: 500, truncated: false }, 'the default limit')
    t.equal(whole?.relationships.length, 12)
    const cut = await store.graph(hub, 2, 5)
    t.match(cut, { limit: 5, truncated: true })
    t.same(cut?.relationships.map(r => `${r.target.name}:${r.depth}`), ['S0:1', 'S1:1', 'S2:1', 'S3:1', 'S4:1'], 'the nearest edges are kept')
    t.match(await store.graph(hub, 2, 12), { limit: 12, truncated: false }, 'exactly the limit is not cut')
    t.match(await store.graph(hub, 2, 1e9), { limit: 2000 }, 'a limit above the maximum is the maximum')
  })
}
