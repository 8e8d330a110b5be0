// The graph store contract on every SQL backend: embedded PGlite and the real PostgreSQL 15.
import t from 'tap'
import { claimHash as hash } from '@agentd/sdk/kits/memory'
import { SQL_BACKENDS } from '../../test/memory/sql-targets.ts'
import { axis } from '../../test/memory/vectors.ts'
import { SqlGraphStore } from './graph-store.ts'
import type { NewFact } from '@agentd/sdk/contracts/memory-stores'

const E = 'test-embedder'
const fact = (claim: string, channel: string, extra: Partial<NewFact> = {}): NewFact => ({ claim, claim_hash: hash(claim), source: 'user_stated', channel, ...extra })

for (const backend of SQL_BACKENDS) {
  t.test(`graph store on ${backend.name}`, async t => {
    const h = await backend.open(t)
    const store = new SqlGraphStore(h)
    await store.init()

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
      t.equal(await store.entity('00000000-0000-0000-0000-000000000000'), undefined)
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
      const err = await store.supersedeFact('00000000-0000-0000-0000-000000000000', fact('x', 's')).then(() => undefined, (e: unknown) => e as { statusCode?: number })
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
      t.equal(await store.graph('00000000-0000-0000-0000-000000000000', 2), undefined)
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

    t.test('deleting a channel removes its entities, facts and relationships only', async t => {
      const e1 = await store.upsertEntity({ name: 'P', type: 'T', channel: 'dc-a' })
      const e2 = await store.upsertEntity({ name: 'Q', type: 'T', channel: 'dc-a' })
      await store.relate({ source_id: e1.entity.id, target_id: e2.entity.id, type: 'r', channel: 'dc-a' })
      await store.addFact(fact('in a', 'dc-a'))
      await store.addFact(fact('in b', 'dc-b'))
      t.same(await store.deleteChannel('dc-a'), { entities: 2, facts: 1, relationships: 1 })
      const counts = await store.countByChannel()
      t.equal(counts['dc-a'], undefined)
      t.equal(counts['dc-b'].facts, 1)
    })

    t.test('embedder usage and delete all', async t => {
      t.ok((await store.embedderUsage()).some(u => u.embedder === E && u.dimensions === 8))
      t.ok(await store.deleteAll() > 0)
      t.equal((await store.facts({ offset: 0, limit: 10, include_superseded: true })).total, 0)
    })
  })
}
