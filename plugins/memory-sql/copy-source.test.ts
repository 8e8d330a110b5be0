// The relational store's items for a graph store's back-fill (RelationalStore.copySource):
// every kind in id order past a position, with the stored vector read back as stored, on
// PGlite (pgvector) and PostgreSQL (real[] here: no pgvector on this machine's server).
import t from 'tap'
import { SQL_BACKENDS } from '../../test/memory/sql-targets.ts'
import { axis } from '../../test/memory/vectors.ts'
import { SqlRelationalStore } from './relational-store.ts'
import type { Turn } from '@agentd/sdk/contracts/memory-stores'

for (const backend of SQL_BACKENDS) {
  t.test(`copySource on ${backend.name}`, async t => {
    const rel = new SqlRelationalStore(await backend.open(t))
    await rel.init()
    const v = axis(8, 2, 0.5)
    const turns: Turn[] = []
    for (let i = 0; i < 3; i++) turns.push(await rel.addTurn({ conversation_id: 'cs', role: 'user', content: `turn ${i}`, channel: 'cs', ...(i === 0 ? { embedding: { vector: v, embedder: 'e8' } } : {}) }))
    const goal = await rel.addGoal({ description: 'g', priority: 1, channel: 'cs' })
    t.same(await rel.copySourceCount(), { turn: 3, goal: 1, strategy: 0 })
    const ids = turns.map(x => x.id).sort()
    const first = await rel.copySource({ kind: 'turn', limit: 2 })
    t.same(first.map(x => x.item.id), ids.slice(0, 2), 'in id order')
    const rest = await rel.copySource({ kind: 'turn', after: first[1].item.id, limit: 2 })
    t.same(rest.map(x => x.item.id), ids.slice(2), 'past the position given')
    const withVector = [...first, ...rest].find(x => x.item.id === turns[0].id)
    t.same(withVector?.item, turns[0], 'the turn as stored')
    t.equal(withVector?.embedding?.embedder, 'e8')
    t.ok(withVector?.embedding?.vector.every((x, i) => Math.abs(x - v[i]) < 1e-6), 'its vector as stored')
    t.equal([...first, ...rest].filter(x => x.embedding === undefined).length, 2, 'turns without a vector have none')
    t.same((await rel.copySource({ kind: 'goal', limit: 5 })).map(x => x.item), [goal])
    t.same(await rel.copySource({ kind: 'strategy', limit: 5 }), [])
  })
}
