// The graph store contract, one suite for every GraphStore: the SQL store runs it on
// PGlite and PostgreSQL (plugins/memory-graph-sql), the Neo4j store on a live server
// when NEO4J_URI is set (plugins/memory-graph-neo4j). `open` gives a store on an empty
// backend for the duration of the test and closes it in teardown.
import type { Test } from 'tap'
import { claimHash as hash } from '@agentd/sdk/kits/memory'
import type { Goal, GraphStore, LearnedStrategy, NewFact, Turn } from '@agentd/sdk/contracts/memory-stores'
import { axis } from './vectors.ts'

export type OpenGraphStore = (t: Test) => Promise<GraphStore>

const E = 'test-embedder'
const fact = (claim: string, channel: string, extra: Partial<NewFact> = {}): NewFact => ({ claim, claim_hash: hash(claim), source: 'user_stated', channel, ...extra })
const NO_ID = '00000000-0000-0000-0000-000000000000'

/** Entities, facts, supersession, lists, vectors, traversal, channel deletion. */
export function graphStoreContract (t: Test, open: OpenGraphStore): void {
  t.test('graph store contract', async t => {
    const store = await open(t)

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

    t.test('embedder usage and delete all', async t => {
      t.ok((await store.embedderUsage()).some(u => u.embedder === E && u.dimensions === 8))
      t.ok(await store.deleteAll() > 0)
      t.equal((await store.facts({ offset: 0, limit: 10, include_superseded: true })).total, 0)
    })
  })
}

/** Consolidation support and re-embedding: salience, promotion with merging, stale vectors. */
export function graphJobsContract (t: Test, open: OpenGraphStore): void {
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

/**
 * Consolidation support: entity linking by name or alias, facts by claim hash, the current
 * facts about a subject's attribute, supersession making the old fact past, conversations
 * counted once, the promotion filters, superseded facts in similarity search only when asked.
 */
export function graphConsolidationContract (t: Test, open: OpenGraphStore): void {
  const fact = (claim: string, channel: string, extra: Partial<NewFact> = {}): NewFact => ({ claim, claim_hash: hash(claim), source: 'extraction', channel, ...extra })
  t.test('graph store consolidation contract', async t => {
    const store = await open(t)

    t.test('findEntities: by name or alias, any case, the channels in the order given', async t => {
      const local = await store.upsertEntity({ name: 'User', type: 'Person', aliases: ['Sarah Chen'], channel: 'fe' })
      const global = await store.upsertEntity({ name: 'user', type: 'Person', channel: '_global' })
      t.same((await store.findEntities({ channels: ['fe', '_global'], name: 'sarah chen', limit: 5 })).map(e => e.id), [local.entity.id])
      t.same((await store.findEntities({ channels: ['fe', '_global'], name: 'USER', limit: 5 })).map(e => e.id), [local.entity.id, global.entity.id])
      t.same((await store.findEntities({ channels: ['other'], name: 'User', limit: 5 })), [], 'other channels are not read')
      t.same((await store.findEntities({ channels: ['fe'], name: 'Sarah', limit: 5 })), [], 'a part of a name is not a match')
    })

    t.test('conversations are counted once per entity and per fact; a restated fact keeps one row and the higher confidence', async t => {
      const a = await store.upsertEntity({ name: 'Acme', type: 'Organization', channel: 'cc', conversation_id: 'c1' })
      const again = await store.upsertEntity({ name: 'acme', type: 'Organization', channel: 'cc', conversation_id: 'c1' })
      const other = await store.upsertEntity({ name: 'Acme', type: 'Organization', channel: 'cc', conversation_id: 'c2' })
      t.equal(a.entity.conversation_count, 1)
      t.equal(again.entity.conversation_count, 1, 'the same conversation again')
      t.equal(other.entity.conversation_count, 2)
      const f1 = await store.addFact(fact('The user works at Acme.', 'cc', { confidence: 0.6, conversation_id: 'c1' }))
      const f2 = await store.addFact(fact('The user works at Acme.', 'cc', { confidence: 0.9, conversation_id: 'c2', subject_id: a.entity.id, attribute: 'works_at', value: 'Acme' }))
      t.equal(f1.created, true)
      t.equal(f2.created, false)
      t.equal(f2.fact.id, f1.fact.id)
      t.equal(f2.fact.conversation_count, 2)
      t.equal(f2.fact.confidence.toFixed(2), '0.90')
      t.equal(f2.fact.subject_id, a.entity.id, 'subject and attribute filled in when the first statement had none')
      t.equal(f2.fact.attribute, 'works_at')
      t.same(await store.findFact({ channels: ['nope', 'cc'], claim_hash: hash('the user works at acme') }).then(f => f?.id), f1.fact.id)
      t.equal(await store.findFact({ channels: ['nope'], claim_hash: f1.fact.claim_hash }), undefined)
    })

    t.test('currentFacts: one subject\'s attribute, neither superseded nor flagged nor past; supersession makes the old one past', async t => {
      const user = await store.upsertEntity({ name: 'User', type: 'Person', channel: 'cf' })
      const anna = await store.upsertEntity({ name: 'Anna', type: 'Person', channel: 'cf' })
      const s = { subject_id: user.entity.id, attribute: 'lives_in' }
      const munich = await store.addFact(fact('The user lives in Munich.', 'cf', { ...s, value: 'Munich', temporal_context: 'current' }))
      await store.addFact(fact('The user used to live in Tokyo.', 'cf', { ...s, value: 'Tokyo', temporal_context: 'past' }))
      await store.addFact(fact('The user lives in Rome.', 'cf', { ...s, value: 'Rome', temporal_context: 'current', flagged_for_review: true }))
      await store.addFact(fact('Anna lives in Paris.', 'cf', { subject_id: anna.entity.id, attribute: 'lives_in', value: 'Paris', temporal_context: 'current' }))
      const q = { channels: ['cf'], ...s }
      t.same((await store.currentFacts(q)).map(f => f.value), ['Munich'])
      const res = await store.supersedeFact(munich.fact.id, fact('The user lives in Berlin.', 'cf', { ...s, value: 'Berlin', temporal_context: 'current' }))
      t.equal(res.old.temporal_context, 'past')
      t.ok(res.old.superseded_at)
      t.equal(res.old.superseded_by_id, res.fact.id)
      t.equal(res.fact.supersedes_id, munich.fact.id)
      t.same((await store.currentFacts(q)).map(f => f.value), ['Berlin'])
      t.same((await store.currentFacts({ ...q, subject_id: anna.entity.id })).map(f => f.value), ['Paris'], 'another person is untouched')
      const flagged = await store.facts({ channel: 'cf', flagged: true, offset: 0, limit: 10 })
      t.same(flagged.items.map(f => f.value), ['Rome'], 'flagged facts are listable')
      const all = await store.facts({ channel: 'cf', include_superseded: true, offset: 0, limit: 10 })
      t.equal(all.total, 5, 'the superseded fact stays listable')
    })

    t.test('similarFacts: superseded facts only with include_superseded', async t => {
      const v = { vector: axis(8, 1), embedder: 'test' }
      const old = await store.addFact(fact('The user works at Initech.', 'sf', { embedding: v }))
      await store.supersedeFact(old.fact.id, fact('The user works at Globex.', 'sf', { embedding: v }))
      const now = await store.similarFacts({ embedding: v, channels: ['sf'], limit: 5 })
      t.same(now.map(f => f.claim), ['The user works at Globex.'])
      const past = await store.similarFacts({ embedding: v, channels: ['sf'], limit: 5, include_superseded: true })
      t.same(past.map(f => f.claim).sort(), ['The user works at Globex.', 'The user works at Initech.'])
    })

    t.test('promotion filters: confidence, access count, conversations, salience, one channel left out; a merge keeps the counts', async t => {
      const hot = await store.addFact(fact('The user is allergic to peanuts.', 'pr', { confidence: 0.9, conversation_id: 'a' }))
      await store.addFact(fact('The user is allergic to peanuts.', 'pr', { conversation_id: 'b' }))
      await store.addFact(fact('The user likes tea.', 'pr', { confidence: 0.9, conversation_id: 'a' }))
      await store.addFact(fact('The user is allergic to peanuts.', '_global', { confidence: 0.9, conversation_id: 'z' }))
      const q = { min_confidence: 0.85, min_conversations: 2, exclude_channel: '_global', offset: 0, limit: 10 }
      const got = (await store.facts(q)).items
      t.ok(got.some(f => f.id === hot.fact.id), 'stated in two conversations, confident')
      t.notOk(got.some(f => f.channel === '_global' || f.claim === 'The user likes tea.'), 'not _global, not a fact stated once')
      t.same((await store.facts({ ...q, min_access_count: 1 })).items, [], 'never recalled yet')
      const e = await store.upsertEntity({ name: 'Peanut', type: 'Concept', channel: 'pr', salience: 0.9 })
      t.same((await store.entities({ min_salience: 0.85, exclude_channel: '_global', offset: 0, limit: 10 })).items.map(x => x.id), [e.entity.id])
      const moved = await store.moveToChannel('fact', hot.fact.id, '_global')
      t.equal(moved?.merged, true)
      t.equal((await store.fact(moved?.id ?? ''))?.conversation_count, 3, 'conversations a, b and z')
    })

    t.test('a merged entity hands its facts\' subject over', async t => {
      const local = await store.upsertEntity({ name: 'Zed', type: 'Person', channel: 'ms', conversation_id: 'q1' })
      const f = await store.addFact(fact('Zed lives in Oslo.', 'ms', { subject_id: local.entity.id, attribute: 'lives_in', value: 'Oslo' }))
      const global = await store.upsertEntity({ name: 'Zed', type: 'Person', channel: '_global', conversation_id: 'q2' })
      await store.moveToChannel('entity', local.entity.id, '_global')
      t.equal((await store.fact(f.fact.id))?.subject_id, global.entity.id)
      t.equal((await store.entity(global.entity.id))?.conversation_count, 2)
    })
  })
}

/**
 * The optional copies of turns, goals and strategies (GraphStore.upsertTurn, upsertGoal,
 * upsertStrategy, removeCopy, searchTurns). A store keeps all four writers or none; one
 * without them (the SQL graph store: the relational store's own database) passes on that
 * alone. With them: a replayed write changes nothing, copies are searchable, counted and
 * removed with their channel, and re-embedded like the rest.
 */
export function graphCopiesContract (t: Test, open: OpenGraphStore): void {
  t.test('graph store copies contract', async t => {
    const store = await open(t)
    const members = (['upsertTurn', 'upsertGoal', 'upsertStrategy', 'removeCopy'] as const).filter(m => typeof store[m] === 'function')
    if (members.length === 0) {
      t.equal(store.searchTurns, undefined, 'no copies: no search over them either')
      return
    }
    t.equal(members.length, 4, 'all four copy writers or none')
    const { upsertTurn, upsertGoal, upsertStrategy, removeCopy, searchTurns } = store as Required<GraphStore>
    const turn = (i: number, content: string, channel = 'cp', conversation = 'conv-cp'): Turn => ({
      id: `00000000-0000-4000-8000-00000000000${i}`, conversation_id: conversation, index: i, timestamp: `2026-03-01T10:00:0${i}.000Z`, role: i % 2 === 0 ? 'user' : 'assistant',
      content, token_count: 3, metadata: { source: 'api' }, channel, embedder: E,
    })
    const goal: Goal = { id: '00000000-0000-4000-8000-0000000000a1', description: 'Ship the Paystream integration', status: 'active', priority: 2, parent_goal_id: null, created_at: '2026-03-01T10:00:00.000Z', deadline: null, channel: 'cp' }
    const strategy: LearnedStrategy = { id: '00000000-0000-4000-8000-0000000000b1', description: 'search then fetch', context_pattern: 'look up', tool_sequence: ['search', 'fetch'], success_count: 1, failure_count: 0, last_used: null, channel: 'cp' }

    t.test('turns: copied once whatever the replays, found by keyword in their channels', async t => {
      const t0 = turn(0, 'Dr Okafor signed the Paystream contract')
      await upsertTurn.call(store, t0, { vector: axis(8, 0), embedder: E })
      await upsertTurn.call(store, turn(1, 'Noted, the contract is signed'))
      await upsertTurn.call(store, t0)
      await upsertTurn.call(store, turn(2, 'Okafor again', 'cp-other', 'conv-other'))
      const found = await searchTurns.call(store, { text: 'okafor?', channels: ['cp'], limit: 5 })
      t.same(found.map(x => x.id), [t0.id], 'once, in the channels asked')
      const { score, ...mapped } = found[0]
      t.same(mapped, t0, 'every field as stored')
      t.ok(score > 0)
      t.same(await searchTurns.call(store, { text: '"*" OR', channels: ['cp'], limit: 5 }), [], 'operators are not interpreted')
      t.ok((await store.embedderUsage()).some(u => u.embedder === E && u.dimensions === 8), 'its vector is counted')
    })

    t.test('turns: the nearest by vector in their channels and embedder, scored by cosine (optional member)', { skip: store.similarTurns === undefined ? `the ${store.backend} graph store has no vector search over turns` : false }, async t => {
      const { similarTurns } = store
      if (similarTurns === undefined) return
      const t0 = turn(0, 'Dr Okafor signed the Paystream contract')
      // In a conversation of their own, removed at the end: the tests below count the channel's turns.
      await upsertTurn.call(store, turn(3, 'near the third axis', 'cp', 'conv-vec'), { vector: axis(8, 3, 0.2), embedder: E })
      await upsertTurn.call(store, turn(4, 'on the fourth axis', 'cp', 'conv-vec'), { vector: axis(8, 4), embedder: E })
      await upsertTurn.call(store, turn(5, 'another embedder', 'cp', 'conv-vec'), { vector: axis(8, 3), embedder: 'other' })
      await upsertTurn.call(store, turn(6, 'another channel', 'cp-far', 'conv-far'), { vector: axis(8, 3), embedder: E })
      const near = await similarTurns.call(store, { embedding: { vector: axis(8, 3), embedder: E }, channels: ['cp'], limit: 2 })
      t.same(near.map(x => x.content), ['near the third axis', 'on the fourth axis'], 'its channels and embedder only, nearest first')
      t.ok(Math.abs(near[0].score - axis(8, 3, 0.2)[3]) < 1e-5, 'the score is the cosine')
      t.ok(Math.abs(near[1].score) < 1e-5, 'at right angles: 0')
      t.same((await similarTurns.call(store, { embedding: { vector: axis(8, 0), embedder: E }, channels: ['cp'], limit: 1 })).map(x => x.id), [t0.id])
      t.equal(await removeCopy.call(store, 'conversation', 'conv-vec'), 4)
      t.equal(await removeCopy.call(store, 'conversation', 'conv-far'), 2)
    })

    t.test('goals and strategies: replaced by id, removed once', async t => {
      await upsertGoal.call(store, goal, { vector: axis(8, 1), embedder: E })
      await upsertGoal.call(store, { ...goal, status: 'blocked' })
      await upsertGoal.call(store, { ...goal, id: '00000000-0000-4000-8000-0000000000a2', parent_goal_id: goal.id, description: 'Sub goal' })
      await upsertStrategy.call(store, strategy)
      await upsertStrategy.call(store, { ...strategy, success_count: 2, last_used: '2026-03-02T00:00:00.000Z' })
      t.equal(await removeCopy.call(store, 'goal', '00000000-0000-4000-8000-0000000000a2'), 1)
      t.equal(await removeCopy.call(store, 'goal', '00000000-0000-4000-8000-0000000000a2'), 0, 'none left: 0')
    })

    t.test('a conversation goes with its turns', async t => {
      t.equal(await removeCopy.call(store, 'conversation', 'conv-other'), 2, 'one turn and its conversation')
      t.same(await searchTurns.call(store, { text: 'okafor', channels: ['cp-other'], limit: 5 }), [])
    })

    t.test('channel deletion removes and counts the copies', async t => {
      const counts = await store.deleteChannel('cp')
      t.match(counts, { turns: 2, conversations: 1, goals: 1, strategies: 1 })
      t.same(await searchTurns.call(store, { text: 'okafor', channels: ['cp'], limit: 5 }), [])
      t.equal(await removeCopy.call(store, 'strategy', strategy.id), 0, 'the strategy went with its channel')
    })
  })
}
