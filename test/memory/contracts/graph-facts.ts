// The graph store contract, facts slice (FactStore; entities only to link facts to): dedupe,
// supersession, lists, vectors, keyword search.
import type { Test } from 'tap'
import type { EntityStore, FactStore, StoreBasics } from '@agentd/sdk/contracts/memory-stores'
import { E, fact, NO_ID } from './graph-support.ts'
import { axis } from '../vectors.ts'

export function factSlice (t: Test, store: FactStore & EntityStore & Pick<StoreBasics, 'backend'>): void {
  t.test('facts dedupe on claim_hash within a channel', async t => {
    const one = await store.addFact(fact('The sky is blue', 'f1'))
    const two = await store.addFact(fact('The sky is blue', 'f1', { confidence: 0.1 }))
    const other = await store.addFact(fact('The sky is blue', 'f2'))
    t.equal(one.created, true)
    t.equal(two.created, false)
    t.equal(two.fact.id, one.fact.id)
    t.equal(two.fact.confidence, one.fact.confidence, 'the first one stays')
    t.equal(other.created, true)
    t.equal(one.fact.confidence, 0.8, 'default confidence')
  })

  t.test('supersession links both facts and hides the old one from lists', async t => {
    const old = await store.addFact(fact('Bob lives in Paris', 's', { temporal_context: 'current' }))
    const res = await store.supersedeFact(old.fact.id, fact('Bob lives in Rome', 's', { temporal_context: 'current' }))
    t.equal(res.old.superseded_by_id, res.fact.id)
    t.ok(res.old.superseded_at)
    t.equal(res.fact.supersedes_id, old.fact.id)
    t.equal(res.fact.temporal_context, 'current')
    const list = await store.facts({ channel: 's', offset: 0, limit: 10 })
    t.same(list.items.map(f => f.claim), ['Bob lives in Rome'])
    const all = await store.facts({ channel: 's', include_superseded: true, offset: 0, limit: 10 })
    t.equal(all.total, 2)
    const err = await store.supersedeFact(NO_ID, fact('x', 's')).then(() => undefined, (e: unknown) => e as { statusCode?: number })
    t.equal(err?.statusCode, 404, 'an unknown fact is a 404')
    const same = await store.supersedeFact(res.fact.id, fact('Bob lives in Rome', 's')).then(() => undefined, (e: unknown) => e as { statusCode?: number })
    t.equal(same?.statusCode, 400, 'a fact cannot supersede itself')
    t.equal((await store.fact(res.fact.id))?.superseded_at, null, 'and nothing changed')
  })

  t.test('fact lists filter by search (literal), min_confidence and channel, with totals', async t => {
    for (const [c, conf] of [['50% off_sale', 0.9], ['back\\slash', 0.5], ["O'Brien said", 0.3], ['Zürich 東京', 0.95]] as const) await store.addFact(fact(c, 'fl', { confidence: conf }))
    const claims = async (q: { search?: string, min_confidence?: number }): Promise<string[]> => (await store.facts({ channel: 'fl', offset: 0, limit: 50, ...q })).items.map(f => f.claim).sort()
    t.same(await claims({ search: '%' }), ['50% off_sale'])
    t.same(await claims({ search: '_' }), ['50% off_sale'])
    t.same(await claims({ search: '\\' }), ['back\\slash'])
    t.same(await claims({ search: "o'brien" }), ["O'Brien said"])
    t.same(await claims({ search: 'zürich' }), ['Zürich 東京'])
    t.same(await claims({ min_confidence: 0.9 }), ['50% off_sale', 'Zürich 東京'])
    const page = await store.facts({ channel: 'fl', offset: 1, limit: 2 })
    t.equal(page.total, 4)
    t.equal(page.items.length, 2)
  })

  t.test('facts link to entities', async t => {
    const e = await store.upsertEntity({ name: 'Grace', type: 'Person', channel: 'fe' })
    const f = await store.addFact(fact('Grace wrote COBOL', 'fe', { entity_ids: [e.entity.id, 'junk'] }))
    t.same(f.fact.entity_ids, [e.entity.id])
  })

  t.test('similar facts: nearest current facts in the asked channels; access is counted', async t => {
    await store.addFact(fact('near', 'sf', { embedding: { vector: axis(8, 1, 0.1), embedder: E } }))
    await store.addFact(fact('far', 'sf', { embedding: { vector: axis(8, 4), embedder: E } }))
    await store.addFact(fact('elsewhere', 'sf2', { embedding: { vector: axis(8, 1), embedder: E } }))
    const res = await store.similarFacts({ embedding: { vector: axis(8, 1), embedder: E }, channels: ['sf'], limit: 5 })
    t.same(res.map(f => f.claim), ['near', 'far'])
    const again = await store.fact(res[0].id)
    t.equal(again?.access_count, 1)
  })

  const noSearch = store.searchFacts === undefined || store.searchEntities === undefined
  t.test('keyword search over facts and entities (optional members)', { skip: noSearch ? `the ${store.backend} graph store has no keyword search` : false }, async t => {
    const { searchFacts, searchEntities } = store
    if (searchFacts === undefined || searchEntities === undefined) return
    await store.addFact(fact('Marie Curie discovered polonium', 'ks'))
    await store.addFact(fact('Polonium is radioactive', 'ks'))
    await store.addFact(fact('Polonium elsewhere', 'ks-other'))
    const gone = await store.addFact(fact('Curie lived in Warsaw', 'ks'))
    await store.supersedeFact(gone.fact.id, fact('Curie lived in Paris', 'ks'))
    await store.upsertEntity({ name: 'Marie Curie', type: 'Person', aliases: ['Madame Curie'], channel: 'ks' })
    await store.upsertEntity({ name: 'Pierre', type: 'Person', description: 'physicist, married to Marie', channel: 'ks' })
    const claims = async (text: string): Promise<string[]> => (await searchFacts.call(store, { text, channels: ['ks'], limit: 10 })).map(f => f.claim).sort()
    t.same(await claims('POLONIUM?!'), ['Marie Curie discovered polonium', 'Polonium is radioactive'], 'any case, punctuation ignored, channels kept apart')
    t.same(await claims('warsaw paris'), ['Curie lived in Paris'], 'superseded facts are not found')
    t.same(await claims('"unbalanced (( AND OR *'), [], 'operators are not interpreted')
    const best = await searchFacts.call(store, { text: 'marie polonium', channels: ['ks'], limit: 1 })
    t.equal(best[0]?.claim, 'Marie Curie discovered polonium', 'more words matched ranks first')
    t.ok(best[0].score > 0)
    const names = async (text: string): Promise<string[]> => (await searchEntities.call(store, { text, channels: ['ks'], limit: 10 })).map(e => e.name).sort()
    t.same(await names('madame'), ['Marie Curie'], 'aliases are searched')
    t.same(await names('physicist'), ['Pierre'], 'descriptions are searched')
    t.same(await names('marie'), ['Marie Curie', 'Pierre'])
  })
}
