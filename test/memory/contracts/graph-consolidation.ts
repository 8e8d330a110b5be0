// The graph store contract, what consolidation reads and writes (EntityStore, FactStore,
// RelationStore.moveToChannel).
import type { Test } from 'tap'
import type { EntityStore, FactStore, NewFact, RelationStore } from '@agentd/sdk/contracts/memory-stores'
import { axis } from '../vectors.ts'
import { claimHash as hash } from '@agentd/sdk/kits/memory'


/**
 * Consolidation support: entity linking by name or alias, facts by claim hash, the current
 * facts about a subject's attribute, supersession making the old fact past, conversations
 * counted once, the promotion filters, superseded facts in similarity search only when asked.
 */
export function graphConsolidationContract (t: Test, open: (t: Test) => Promise<EntityStore & FactStore & RelationStore>): void {
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
