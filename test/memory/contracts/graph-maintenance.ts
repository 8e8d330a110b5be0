// The graph store contract, maintenance slices (RelationStore.setSalience and moveToChannel,
// ReembedSupport): what the consolidation jobs and re-embedding ask of it.
import type { Test } from 'tap'
import type { EntityStore, FactStore, ReembedSupport, RelationStore } from '@agentd/sdk/contracts/memory-stores'
import { fact, NO_ID } from './graph-support.ts'
import { axis } from '../vectors.ts'

/** Consolidation support and re-embedding: salience, promotion with merging, stale vectors. */
export function graphJobsContract (t: Test, open: (t: Test) => Promise<RelationStore & EntityStore & FactStore & ReembedSupport>): void {
  t.test('graph store jobs contract', async t => {
    const store = await open(t)

    t.test('salience is set and clamped; unknown ids say false', async t => {
      const e = await store.upsertEntity({ name: 'Sal', type: 'T', channel: 'sal' })
      const f = await store.addFact(fact('salient', 'sal'))
      t.equal(await store.setSalience('entity', e.entity.id, 0.9), true)
      t.equal(await store.setSalience('fact', f.fact.id, 7), true)
      t.equal((await store.entity(e.entity.id))?.salience.toFixed(2), '0.90')
      t.equal((await store.fact(f.fact.id))?.salience, 1, 'clamped to 1')
      t.equal(await store.setSalience('fact', NO_ID, 0.5), false)
      t.equal(await store.setSalience('fact', 'junk', 0.5), false)
      await t.rejects(store.setSalience('fact', f.fact.id, Number.NaN), /salience must be a number/)
    })

    t.test('a fact moves to _global; the same claim already there merges into it', async t => {
      const e = await store.upsertEntity({ name: 'Paris', type: 'Place', channel: 'pf' })
      const alone = await store.addFact(fact('Paris is in France', 'pf', { entity_ids: [e.entity.id] }))
      t.same(await store.moveToChannel('fact', alone.fact.id, '_global'), { id: alone.fact.id, merged: false })
      t.equal((await store.fact(alone.fact.id))?.channel, '_global')
      t.same((await store.fact(alone.fact.id))?.entity_ids, [e.entity.id], 'links kept')

      const local = await store.addFact(fact('Water boils at 100 C', 'pf', { confidence: 0.95 }))
      const global = await store.addFact(fact('Water boils at 100 C', '_global', { confidence: 0.6 }))
      await store.similarFacts({ embedding: { vector: axis(4, 0), embedder: 'none' }, channels: ['pf'], limit: 1 })
      const moved = await store.moveToChannel('fact', local.fact.id, '_global')
      t.same(moved, { id: global.fact.id, merged: true })
      t.equal(await store.fact(local.fact.id), undefined, 'the moved duplicate is gone')
      t.equal((await store.fact(global.fact.id))?.confidence.toFixed(2), '0.95', 'the higher confidence is kept')
      t.equal(await store.moveToChannel('fact', NO_ID, '_global'), undefined)
    })

    t.test('an entity moves to _global; a namesake there absorbs its facts and relationships', async t => {
      const local = await store.upsertEntity({ name: 'Ada', type: 'Person', aliases: ['Countess'], channel: 'pe' })
      const other = await store.upsertEntity({ name: 'Babbage', type: 'Person', channel: 'pe' })
      await store.relate({ source_id: local.entity.id, target_id: other.entity.id, type: 'worked_with', channel: 'pe' })
      const f = await store.addFact(fact('Ada wrote the first program', 'pe', { entity_ids: [local.entity.id] }))
      const global = await store.upsertEntity({ name: 'ada', type: 'Person', aliases: ['Lovelace'], channel: '_global' })
      const moved = await store.moveToChannel('entity', local.entity.id, '_global')
      t.same(moved, { id: global.entity.id, merged: true })
      t.equal(await store.entity(local.entity.id), undefined)
      const g = await store.graph(global.entity.id, 1)
      t.same(g?.relationships.map(r => `${r.source.name}-${r.type}->${r.target.name}`), ['ada-worked_with->Babbage'])
      t.same(g?.facts.map(x => x.id), [f.fact.id])
      t.same((await store.entity(global.entity.id))?.aliases.sort(), ['Countess', 'Lovelace'])
    })

    t.test('stale vectors are listed with their text and replaced', async t => {
      await store.upsertEntity({ name: 'Old Co', type: 'Org', description: 'makes things', channel: 're', embedding: { vector: axis(8, 1), embedder: 'old' } })
      await store.addFact(fact('old fact', 're', { embedding: { vector: axis(8, 2), embedder: 'old' } }))
      await store.addFact(fact('new fact', 're', { embedding: { vector: axis(4, 2), embedder: 'new' } }))
      const stale = await store.staleEmbeddings({ embedder: 'new', dimensions: 4, limit: 10 })
      t.same(stale.map(x => [x.kind, x.text]).sort(), [['entity', 'Old Co makes things'], ['fact', 'old fact']])
      const n = await store.setEmbeddings(stale.map(x => ({ kind: x.kind, id: x.id, embedding: { vector: axis(4, 1), embedder: 'new' } })))
      t.equal(n, 2)
      t.same(await store.staleEmbeddings({ embedder: 'new', dimensions: 4, limit: 10 }), [])
      const near = await store.similarFacts({ embedding: { vector: axis(4, 1), embedder: 'new' }, channels: ['re'], limit: 1 })
      t.same(near.map(x => x.claim), ['old fact'], 'found with the new vector')
      // A kind the store keeps no vectors of (turns are one for the SQL store, not for Neo4j's copies).
      await t.rejects(store.setEmbeddings([{ kind: 'episode', id: stale[0].id, embedding: null }]), /no vectors of kind "episode"/)
    })
  })
}
