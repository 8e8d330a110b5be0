// The graph store contract, entities slice (EntityStore): unique per channel, name and type; vectors; lists.
import type { Test } from 'tap'
import type { EntityStore } from '@agentd/sdk/contracts/memory-stores'
import { E, NO_ID } from './graph-support.ts'
import { axis } from '../vectors.ts'

export function entitySlice (t: Test, store: EntityStore): void {
  t.test('an entity is unique per channel, name (any case) and type; aliases merge', async t => {
    const a = await store.upsertEntity({ name: 'Ada Lovelace', type: 'Person', aliases: ['Ada'], channel: 'g' })
    const b = await store.upsertEntity({ name: 'ada lovelace', type: 'Person', aliases: ['Countess'], channel: 'g' })
    const c = await store.upsertEntity({ name: 'Ada Lovelace', type: 'Person', channel: 'other' })
    t.equal(a.created, true)
    t.equal(b.created, false)
    t.equal(b.entity.id, a.entity.id)
    t.same(b.entity.aliases.sort(), ['Ada', 'Countess'])
    t.not(c.entity.id, a.entity.id, 'another channel, another entity')
    t.same(await store.entity(a.entity.id), b.entity)
    t.equal(await store.entity('not-a-uuid'), undefined)
    t.equal(await store.entity(NO_ID), undefined)
  })

  t.test('similar entities by vector', async t => {
    await store.upsertEntity({ name: 'Near Co', type: 'Organization', channel: 'se', embedding: { vector: axis(8, 2), embedder: E } })
    await store.upsertEntity({ name: 'Far Co', type: 'Organization', channel: 'se', embedding: { vector: axis(8, 6), embedder: E } })
    const res = await store.similarEntities({ embedding: { vector: axis(8, 2, 0.3), embedder: E }, channels: ['se'], limit: 1 })
    t.same(res.map(e => e.name), ['Near Co'])
  })

  t.test('entity lists: search by name, filter by type, page', async t => {
    await store.upsertEntity({ name: 'under_score Inc', type: 'Organization', channel: 'el' })
    await store.upsertEntity({ name: 'underscore Ltd', type: 'Organization', channel: 'el' })
    await store.upsertEntity({ name: 'Linus', type: 'Person', channel: 'el' })
    const names = async (q: { search?: string, type?: string }): Promise<string[]> => (await store.entities({ channel: 'el', offset: 0, limit: 10, ...q })).items.map(e => e.name).sort()
    t.same(await names({ search: '_' }), ['under_score Inc'])
    t.same(await names({ type: 'Person' }), ['Linus'])
    t.equal((await store.entities({ channel: 'el', offset: 0, limit: 1 })).total, 3)
  })
}
