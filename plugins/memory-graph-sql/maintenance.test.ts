// The SQL graph store's maintenance (decay, entity linking: GraphMaintenance, which the
// job-decay and job-entity-linking plugins run) on every SQL backend, each changing what it
// should and nothing else.
import t from 'tap'
import { sql } from 'kysely'
import { claimHash as hash } from '@agentd/sdk/kits/memory'
import type { EntityMerged } from '@agentd/sdk/contracts/memory-stores'
import { SQL_BACKENDS } from '../../test/memory/sql-targets.ts'
import { axis } from '../../test/memory/vectors.ts'
import { SqlGraphStore } from './graph-store.ts'

const signal = new AbortController().signal

for (const backend of SQL_BACKENDS) {
  t.test(`maintenance jobs on ${backend.name}`, async t => {
    const h = await backend.open(t)
    const store = new SqlGraphStore(h)
    await store.init()
    const merges: EntityMerged[] = []
    const onMerged = async (m: EntityMerged): Promise<void> => { merges.push(m) }
    const age = async (table: 'entities' | 'facts', id: string, days: number): Promise<void> => {
      await sql`UPDATE ${sql.table(table)} SET last_accessed = now() - make_interval(days => ${days}::int) WHERE id = ${id}::uuid`.execute(h.db)
    }

    t.test('decay halves salience per half-life unrecalled; recent, superseded and other rows untouched', async t => {
      const old = await store.upsertEntity({ name: 'Old', type: 'T', channel: 'dc', salience: 0.8 })
      const fresh = await store.upsertEntity({ name: 'Fresh', type: 'T', channel: 'dc', salience: 0.8 })
      const f = await store.addFact({ claim: 'old fact', claim_hash: hash('old fact'), source: 'user_stated', channel: 'dc', salience: 0.6 })
      const next = await store.supersedeFact(f.fact.id, { claim: 'newer fact', claim_hash: hash('newer fact'), source: 'user_stated', channel: 'dc', salience: 0.6 })
      await age('entities', old.entity.id, 20)
      await age('facts', f.fact.id, 20)
      await age('facts', next.fact.id, 10)
      const m = await store.decay({ halfLifeDays: 10, minIdleHours: 24 })
      t.same(m, { entities: 1, facts: 1 })
      t.equal((await store.entity(old.entity.id))?.salience.toFixed(3), '0.200', 'two half-lives: 0.8 -> 0.2')
      t.equal((await store.entity(fresh.entity.id))?.salience.toFixed(3), '0.800', 'recalled lately: untouched')
      t.equal((await store.fact(next.fact.id))?.salience.toFixed(3), '0.300', 'one half-life')
      t.equal((await store.fact(f.fact.id))?.salience.toFixed(3), '0.600', 'superseded: untouched')
      const again = await store.decay({ halfLifeDays: 10, minIdleHours: 24 })
      t.equal((await store.entity(old.entity.id))?.salience.toFixed(3), '0.200', 'running again right away decays (almost) nothing more')
      t.match(again, { entities: 1 })
      t.equal((await store.entity(old.entity.id))?.name, 'Old', 'nothing but salience changes')
    })

    t.test('entity_linking merges same-name and alias duplicates, keeping every fact, and records the merge', async t => {
      const a = await store.upsertEntity({ name: 'New York City', type: 'Place', channel: 'el', aliases: ['Big Apple'], properties: { pop: 8 } })
      const b = await store.upsertEntity({ name: 'new-york  city', type: 'Place', channel: 'el', description: 'a city' })
      const c = await store.upsertEntity({ name: 'NYC', type: 'Place', channel: 'el', aliases: ['New York City'] })
      const person = await store.upsertEntity({ name: 'New York City', type: 'Person', channel: 'el' })
      const other = await store.upsertEntity({ name: 'New York City', type: 'Place', channel: 'elsewhere' })
      const friend = await store.upsertEntity({ name: 'Ann', type: 'Person', channel: 'el' })
      const fa = await store.addFact({ claim: 'NYC has 8 million people', claim_hash: hash('NYC has 8 million people'), source: 'user_stated', channel: 'el', entity_ids: [a.entity.id] })
      const fb = await store.addFact({ claim: 'new-york city is big', claim_hash: hash('new-york city is big'), source: 'user_stated', channel: 'el', entity_ids: [b.entity.id] })
      const fc = await store.addFact({ claim: 'NYC never sleeps', claim_hash: hash('NYC never sleeps'), source: 'user_stated', channel: 'el', entity_ids: [c.entity.id, friend.entity.id] })
      await store.relate({ source_id: friend.entity.id, target_id: c.entity.id, type: 'lives_in', channel: 'el' })
      for (const [e, days] of [[a, 3], [b, 2], [c, 1]] as const) await sql`UPDATE entities SET first_seen = now() - make_interval(days => ${days}::int) WHERE id = ${e.entity.id}::uuid`.execute(h.db)

      const m = await store.linkEntities({ similarity: 0.95, maxMerges: 100, signal, onMerged })
      t.match(m, { merged: 2, by_name: 1, by_alias: 1 })
      t.ok(await store.entity(a.entity.id), 'the oldest survives')
      t.equal(await store.entity(b.entity.id), undefined)
      t.equal(await store.entity(c.entity.id), undefined)
      const kept = await store.entity(a.entity.id)
      t.same(kept?.aliases.sort(), ['Big Apple', 'NYC', 'new-york  city'].sort(), 'the merged names become aliases')
      t.match(kept, { description: 'a city', properties: { pop: 8 } })
      for (const f of [fa, fb, fc]) t.ok((await store.fact(f.fact.id))?.entity_ids.includes(a.entity.id), `fact "${f.fact.claim}" kept, linked to the survivor`)
      t.ok((await store.fact(fc.fact.id))?.entity_ids.includes(friend.entity.id), 'its other links stay')
      const g = await store.graph(friend.entity.id, 1)
      t.same(g?.relationships.map(r => [r.type, r.target.id]), [['lives_in', a.entity.id]], 'relationships re-pointed')
      t.ok(await store.entity(person.entity.id), 'another type is another entity')
      t.ok(await store.entity(other.entity.id), 'never merged across two channels')
      const trace = (await sql<{ survivor_id: string, merged_id: string, reason: string, merged_name: string, facts_moved: number }>`SELECT survivor_id, merged_id, reason, merged_name, facts_moved FROM entity_merges ORDER BY at`.execute(h.db)).rows
      t.same(trace.map(r => [r.survivor_id, r.merged_id, r.reason]).sort(), [[a.entity.id, b.entity.id, 'name'], [a.entity.id, c.entity.id, 'alias']].sort())
      const place = (e: { entity: { id: string, name: string } }): EntityMerged['merged'] => ({ id: e.entity.id, name: e.entity.name, type: 'Place', channel: 'el' })
      t.same(merges.map(m => [m.survivor, m.merged, m.reason, m.score, m.by]).sort((x, y) => String(x[2]).localeCompare(String(y[2]))),
        [[place(a), place(c), 'alias', null, 'entity_linking'], [place(a), place(b), 'name', null, 'entity_linking']], 'each committed merge handed on: both entities as they were')
      const byMerged = new Map(merges.map(m => [m.merged.id, m]))
      t.same(byMerged.get(b.entity.id)?.facts, [{ id: fb.fact.id, channel: 'el' }], 'the facts that moved with it')
      t.same(byMerged.get(c.entity.id)?.facts, [{ id: fc.fact.id, channel: 'el' }])
      t.equal(byMerged.get(c.entity.id)?.relationships_moved, 1)
      merges.length = 0
      t.match(await store.linkEntities({ similarity: 0.95, maxMerges: 100, signal, onMerged }), { merged: 0 }, 'nothing left to merge')
      t.same(merges, [], 'no merge, nothing handed on')
    })

    t.test('entity_linking merges a channel entity into its _global twin by embedding, never the other way', async t => {
      const v = { vector: axis(4, 1), embedder: 'test' }
      const global = await store.upsertEntity({ name: 'Acme Corporation', type: 'Org', channel: '_global', embedding: v })
      const local = await store.upsertEntity({ name: 'ACME Corp.', type: 'Org', channel: 'gl', embedding: v })
      const away = await store.upsertEntity({ name: 'Acme Inc', type: 'Org', channel: 'gl2', embedding: { vector: axis(4, 2), embedder: 'test' } })
      const f = await store.addFact({ claim: 'ACME makes anvils', claim_hash: hash('ACME makes anvils'), source: 'user_stated', channel: 'gl', entity_ids: [local.entity.id] })
      t.match(await store.linkEntities({ similarity: 0.95, maxMerges: 100, signal, onMerged }), { merged: 1, by_embedding: 1 })
      t.match(merges.at(-1), { survivor: { id: global.entity.id, channel: '_global' }, merged: { id: local.entity.id, name: 'ACME Corp.', channel: 'gl' }, reason: 'embedding', facts: [{ id: f.fact.id, channel: 'gl' }] })
      t.ok((merges.at(-1)?.score ?? 0) >= 0.95, 'the similarity that merged them')
      t.equal(await store.entity(local.entity.id), undefined)
      t.match(await store.entity(global.entity.id), { channel: '_global', aliases: ['ACME Corp.'] })
      t.match(await store.fact(f.fact.id), { channel: 'gl', entity_ids: [global.entity.id] }, 'the fact stays in its channel, linked to the _global entity')
      t.ok(await store.entity(away.entity.id), 'a dissimilar embedding is not merged')
    })
  })
}
