// The graph store contract, the write API over the entity, fact and relation slices: edited
// in place, deleted, links cleared.
import type { Test } from 'tap'
import type { EntityStore, FactStore, RelationStore } from '@agentd/sdk/contracts/memory-stores'
import { fact, NO_ID } from './graph-support.ts'

export function editSlice (t: Test, store: EntityStore & FactStore & RelationStore): void {
  t.test('the write API: entities and facts edited in place and deleted', async t => {
    const a = await store.upsertEntity({ name: 'Ada', type: 'Person', aliases: ['Countess'], description: 'mathematician', channel: 'wr' })
    const b = await store.upsertEntity({ name: 'Charles', type: 'Person', channel: 'wr' })
    await store.relate({ source_id: a.entity.id, target_id: b.entity.id, type: 'worked_with', channel: 'wr' })
    const f = await store.addFact(fact('Ada wrote notes', 'wr', { entity_ids: [a.entity.id], temporal_context: 'past' }))

    const renamed = await store.updateEntity(a.entity.id, { name: 'Ada Lovelace', aliases: ['Ada'], description: null, salience: 0.9 })
    t.match(renamed, { id: a.entity.id, name: 'Ada Lovelace', aliases: ['Ada'], description: null, type: 'Person' })
    t.equal(renamed?.salience.toFixed(2), '0.90')
    t.equal((await store.upsertEntity({ name: 'ada lovelace', type: 'Person', channel: 'wr' })).entity.id, a.entity.id, 'found by its new name')
    const clash = await store.updateEntity(b.entity.id, { name: 'ADA LOVELACE' }).then(() => undefined, (e: unknown) => e as { name?: string, existingId?: string })
    t.match(clash, { name: 'EntityConflictError', existingId: a.entity.id })
    t.equal((await store.entity(b.entity.id))?.name, 'Charles', 'nothing changed')
    t.equal(await store.updateEntity(NO_ID, { name: 'x' }), undefined)

    const edited = await store.updateFact(f.fact.id, { confidence: 0.3, temporal_context: null, flagged_for_review: true })
    t.match(edited, { id: f.fact.id, temporal_context: null, flagged_for_review: true, claim: 'Ada wrote notes' })
    t.equal(edited?.confidence.toFixed(2), '0.30')
    t.equal((await store.updateFact(f.fact.id, { salience: 0.1 }))?.confidence.toFixed(2), '0.30', 'fields not in the patch stay')
    t.equal(await store.updateFact(NO_ID, { salience: 0.1 }), undefined)

    const next = await store.supersedeFact(f.fact.id, fact('Ada wrote the first program', 'wr'))
    t.equal(await store.deleteFact(next.fact.id), true)
    const old = await store.fact(f.fact.id)
    t.equal(old?.superseded_by_id, null, 'the link to the deleted fact is cleared')
    t.ok(old?.superseded_at, 'and the old fact stays superseded')
    t.equal(await store.deleteFact(next.fact.id), false)

    t.equal(await store.deleteEntity(a.entity.id), true)
    t.equal(await store.entity(a.entity.id), undefined)
    t.same((await store.fact(f.fact.id))?.entity_ids, [], 'its fact links went; the fact stays')
    t.same((await store.graph(b.entity.id, 1))?.relationships, [], 'its relationships went')
    t.equal(await store.deleteEntity(a.entity.id), false)
  })
}
