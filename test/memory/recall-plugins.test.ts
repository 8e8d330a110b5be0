// Every recall technique on PGlite and on the real PostgreSQL, through the memory service
// as the memory plugin builds it; and the ranking rules the service applies to them all.
import t, { type Test } from 'tap'
import pino from 'pino'
import { sql } from 'kysely'
import { createRegistry, Hooks } from '@agentd/sdk'
import { RECALL_DEFAULTS } from '../helpers/recall-settings.ts'
import type { RecallSettings, RecallTechnique } from '@agentd/sdk/contracts/recall'
import type { Embedder } from '@agentd/sdk/contracts/embedder'
import { SQL_BACKENDS } from './sql-targets.ts'
import type { SqlHandle } from '@agentd/sdk/kits/sql'
import { axis } from './vectors.ts'
import { SqlRelationalStore } from '../../plugins/memory-sql/relational-store.ts'
import { SqlGraphStore } from '../../plugins/memory-graph-sql/graph-store.ts'
import { HashEmbedder } from '../../plugins/embed-hash/hash-embedder.ts'
import { MemoryServiceImpl } from '../../plugins/memory/service.ts'
import { hybridTechnique } from '../../plugins/recall-hybrid/hybrid.ts'
import { expansionTechnique } from '../../plugins/recall-expansion/expansion.ts'
import { entityTechnique } from '../../plugins/recall-entity/entity.ts'
import { hydeTechnique } from '../../plugins/recall-hyde/hyde.ts'
import { selfQueryTechnique } from '../../plugins/recall-self-query/self-query.ts'
import { Reembedder } from '../../plugins/memory/reembed.ts'

const OFF = { recall_enable_hybrid: false, recall_enable_entity_centric: false, recall_enable_query_expansion: false }

interface Db { h: SqlHandle, rel: SqlRelationalStore, graph: SqlGraphStore }

/** One database per backend for the whole file (PGlite takes seconds to start); each test uses its own channel. */
async function openDb (t: Test, backend: typeof SQL_BACKENDS[number]): Promise<Db> {
  const h = await backend.open(t)
  const rel = new SqlRelationalStore(h)
  const graph = new SqlGraphStore(h)
  await rel.init(); await graph.init()
  return { h, rel, graph }
}

function setUp ({ h, rel, graph }: Db, o: { embedder?: Embedder, extra?: RecallTechnique[], timeoutMs?: number } = {}) {
  const reg = createRegistry()
  reg.relationalStores.add('memory-sql', rel)
  reg.graphStores.add('memory-graph-sql', graph)
  reg.embedders.add('embed-hash', o.embedder ?? new HashEmbedder())
  reg.recallTechniques.add('recall-hybrid', hybridTechnique(() => rel))
  reg.recallTechniques.add('recall-entity', entityTechnique({ graph: () => graph, relational: () => rel }))
  reg.recallTechniques.add('recall-expansion', expansionTechnique(() => rel))
  reg.recallTechniques.add('recall-hyde', hydeTechnique({ relational: () => rel, providers: () => [] }))
  reg.recallTechniques.add('recall-self-query', selfQueryTechnique({ relational: () => rel, providers: () => [] }))
  for (const [i, x] of (o.extra ?? []).entries()) reg.recallTechniques.add(`extra-${i}`, x)
  let settings: RecallSettings = { ...RECALL_DEFAULTS }
  const svc = new MemoryServiceImpl(() => reg, () => new Hooks(), pino({ level: 'silent' }), {
    tokenBudget: 1000, topK: 10, workingMemoryTurns: 20, recencyWeight: 0.2, recencyHalfLifeHours: 168,
    recallSettings: () => settings, techniqueTimeoutMs: o.timeoutMs,
  })
  const recall = async (text: string, channel: string, patch: Partial<RecallSettings> = {}, extra: { conversation_id?: string, top_k?: number } = {}) => {
    settings = { ...RECALL_DEFAULTS, ...patch }
    return await svc.recaller.recallBundle({ text, channel, ...extra }, { strict: true })
  }
  return { h, rel, graph, svc, recall }
}
const contents = (r: { relevant_turns: Array<{ content?: unknown }> }): unknown[] => r.relevant_turns.map(x => x.content)

for (const backend of SQL_BACKENDS) {
  t.test(`recall techniques on ${backend.name}`, async t => {
    const db = await openDb(t, backend)
    t.test('hybrid: keyword search finds a turn vectors cannot; off, it does not run', async t => {
      const { rel, svc, recall } = setUp(db)
      // The vector-bearing turn first: a turn said just after another takes it in as context (kits/recall context.ts).
      await svc.episodic.addTurn({ conversation_id: 'k2', role: 'user', content: 'we went hiking on Sunday', channel: 'hy' })
      await rel.addTurn({ conversation_id: 'k1', role: 'user', content: 'the secret word is quokka', channel: 'hy' })
      const on = await recall('quokka', 'hy', { ...OFF, recall_enable_hybrid: true })
      t.same(on.techniques, ['vector_recency', 'hybrid'])
      t.same(contents(on), ['the secret word is quokka'])
      t.type(on.timings_ms['hybrid.fulltext'], 'number')
      const off = await recall('quokka', 'hy', OFF)
      t.same(off.techniques, ['vector_recency'])
      t.same(contents(off), [])
    })

    t.test('a turn is found by the words of the turn it answers (its vector takes in the turns before it)', async t => {
      const { svc, recall } = setUp(db)
      await svc.episodic.addTurn({ conversation_id: 'cx1', role: 'user', content: 'The car broke down near Porto on the way back.', channel: 'ctx' })
      await svc.episodic.addTurn({ conversation_id: 'cx1', role: 'assistant', content: 'OK.', channel: 'ctx' })
      await svc.episodic.addTurn({ conversation_id: 'cx1', role: 'user', content: 'How long were you stuck there?', channel: 'ctx' })
      await svc.episodic.addTurn({ conversation_id: 'cx1', role: 'assistant', content: 'OK.', channel: 'ctx' })
      await svc.episodic.addTurn({ conversation_id: 'cx1', role: 'user', content: 'Two nights in a tiny hotel.', channel: 'ctx' })
      t.ok(contents(await recall('How long was the stuck car trip?', 'ctx', OFF)).includes('Two nights in a tiny hotel.'), 'vectors alone find the answer')
      // One message per conversation (a chat without a session): the channel's turns a moment before are the context.
      await svc.episodic.addTurn({ conversation_id: 'cx2', role: 'user', content: 'Which shelter did the beagle come from?', channel: 'ctx-one' })
      await svc.episodic.addTurn({ conversation_id: 'cx3', role: 'user', content: 'Riverside, three streets away.', channel: 'ctx-one' })
      t.ok(contents(await recall('beagle shelter', 'ctx-one', OFF)).includes('Riverside, three streets away.'))
      // An hour apart, another conversation is another matter.
      const hourAgo = new Date(Date.now() - 3_600_000).toISOString()
      await svc.episodic.addTurn({ conversation_id: 'cx4', role: 'user', content: 'Which shelter did the beagle come from?', channel: 'ctx-gap', timestamp: hourAgo })
      await svc.episodic.addTurn({ conversation_id: 'cx5', role: 'user', content: 'Riverside, three streets away.', channel: 'ctx-gap' })
      t.notOk(contents(await recall('beagle shelter', 'ctx-gap', OFF)).includes('Riverside, three streets away.'))
    })

    t.test('a turn\'s keywords take in the words of the turns it answers; "OK." takes in none', async t => {
      const { svc } = setUp(db)
      await svc.episodic.addTurn({ conversation_id: 'kx1', role: 'user', content: 'How long were you stranded at the ferry terminal?', channel: 'ctx-kw' })
      await svc.episodic.addTurn({ conversation_id: 'kx1', role: 'assistant', content: 'OK.', channel: 'ctx-kw' })
      await svc.episodic.addTurn({ conversation_id: 'kx1', role: 'user', content: 'Two nights in a tiny hotel.', channel: 'ctx-kw' })
      const stored = await sql<{ content: string, context: string | null }>`SELECT content, context FROM turns WHERE conversation_id = 'kx1' ORDER BY idx`.execute(db.h.db)
      // Its date words (numbers: when it was said, turn-dates.test.ts) aside.
      const words = (c: string | null): string | null => c?.split(' ').filter(w => !/^\d+$/.test(w)).join(' ') || null
      t.same(stored.rows.map(r => words(r.context)), [null, null, 'long stranded ferry terminal'], 'the question\'s content words, once; none for a turn that says nothing')
      t.equal(stored.rows[1].context, null, '"OK." has no date words either')
      // Vectors find it too (its vector takes in the question); the keyword search alone must as well.
      const { rel } = setUp(db)
      const found = await rel.searchTurns({ text: 'stranded', channels: ['ctx-kw'], limit: 5 })
      t.same(found.map(x => x.content), ['How long were you stranded at the ferry terminal?', 'Two nights in a tiny hotel.'], 'the question first, then its answer')
    })

    t.test('re-embedding reads a turn with the same earlier turns as storing it did', async t => {
      const hash = new HashEmbedder()
      const { svc, rel } = setUp(db, { embedder: hash })
      const lines = ['The car broke down near Porto on the way back.', 'OK.', 'How long were you stuck there?', 'OK.', 'Two nights in a tiny hotel.']
      for (const [i, content] of lines.entries()) await svc.episodic.addTurn({ conversation_id: 'rx1', role: i % 2 === 0 ? 'user' : 'assistant', content, channel: 'ctx-re' })
      await svc.episodic.addTurn({ conversation_id: 'rx2', role: 'user', content: 'Riverside, three streets away.', channel: 'ctx-re' })
      const [q] = await hash.embed(['stuck in a hotel near Porto'])
      const scores = async (embedder: string): Promise<Array<[string, number]>> =>
        (await rel.similarTurns({ embedding: { vector: q, embedder }, channels: ['ctx-re'], limit: 10 })).map(x => [x.content, Math.round(x.score * 1e5)])
      const stored = await scores(hash.id)
      const copy: Embedder = { id: 'hash-copy', dimensions: hash.dimensions, embed: async texts => await hash.embed(texts) }
      const job = new Reembedder({ embedder: () => copy, stores: () => [{ role: 'relational', store: rel }], pending: async () => 0, batchSize: 4, log: pino({ level: 'silent' }), finished: async () => {} })
      job.start(copy)
      await job.settled()
      t.equal(job.progress().status, 'done')
      const again = (await scores('hash-copy')).filter(([c]) => stored.some(([s]) => s === c))
      t.same(again, stored, 'the same vectors, context and all')
      t.ok(stored.length >= 4)
    })

    t.test('re-embedding reads a turn\'s sentences with its speaker (the write API\'s name) as storing it did', async t => {
      const hash = new HashEmbedder()
      const { svc, rel } = setUp(db, { embedder: hash })
      await svc.episodic.writeTurns({ conversation_id: 'sx1', channel: 'sent-re', messages: [
        { role: 'user', name: 'Dana', content: 'We adopted a beagle last weekend. She sleeps on the sofa all day.' },
        { role: 'user', name: 'Omar', content: 'Lucky you. My landlord forbids any pets in the building.' },
      ] })
      const [q] = await hash.embed(['Dana adopted a beagle'])
      const scores = async (embedder: string): Promise<Array<[string, number]>> =>
        (await rel.similarTurns({ embedding: { vector: q, embedder }, channels: ['sent-re'], limit: 10 })).map(x => [x.content, Math.round(x.score * 1e5)])
      const stored = await scores(hash.id)
      const whole = new Map((await hash.embed(stored.map(([c]) => c))).map((v, i) => [stored[i][0], Math.round(v.reduce((s, x, k) => s + x * q[k], 0) * 1e5)]))
      t.not(stored[0][1], whole.get(stored[0][0]), 'the stored vector is not the whole text\'s alone')
      const copy: Embedder = { id: 'hash-copy', dimensions: hash.dimensions, embed: async texts => await hash.embed(texts) }
      const job = new Reembedder({ embedder: () => copy, stores: () => [{ role: 'relational', store: rel }], pending: async () => 0, batchSize: 4, log: pino({ level: 'silent' }), finished: async () => {} })
      job.start(copy)
      await job.settled()
      t.equal(job.progress().status, 'done')
      t.same((await scores('hash-copy')).filter(([c]) => stored.some(([s]) => s === c)), stored, 'the same vectors, sentences and speaker and all')
    })

    t.test('hybrid: a rare word outweighs common ones', async t => {
      const { rel, recall } = setUp(db)
      for (let i = 0; i < 8; i++) await rel.addTurn({ conversation_id: 'r', role: 'user', content: `I really like coffee number ${i}`, channel: 'rare' })
      await rel.addTurn({ conversation_id: 'r', role: 'user', content: 'an okapi lives there', channel: 'rare' })
      const r = await recall('I like coffee with the okapi', 'rare', { ...OFF, recall_enable_hybrid: true })
      t.equal(r.relevant_turns[0]?.content, 'an okapi lives there')
    })

    t.test('query_expansion: a synonym finds what the words of the question do not', async t => {
      const { rel, recall } = setUp(db)
      await rel.addTurn({ conversation_id: 'q', role: 'user', content: 'we adopted a beagle puppy', channel: 'qe' })
      await rel.addTurn({ conversation_id: 'q', role: 'user', content: 'the weather was grey', channel: 'qe' })
      const on = await recall('Which pet did they get?', 'qe', { ...OFF, recall_enable_query_expansion: true })
      t.same(contents(on), ['we adopted a beagle puppy'])
      t.same(on.techniques, ['vector_recency', 'query_expansion'])
      t.same(contents(await recall('Which pet did they get?', 'qe', OFF)), [])
      t.same(contents(await recall('Which pet did they get?', 'qe', { ...OFF, recall_enable_query_expansion: true, recall_expansion_max_variants: 0 })), [], 'no variants, nothing more found')
    })

    t.test('query_expansion: a related word (GloVe neighbours, not the synonym table) finds what the words of the question do not', async t => {
      const { rel, recall } = setUp(db)
      await rel.addTurn({ conversation_id: 'q', role: 'user', content: 'she practises the cello every evening', channel: 'qr' })
      await rel.addTurn({ conversation_id: 'q', role: 'user', content: 'the weather was grey', channel: 'qr' })
      t.same(contents(await recall('Does she still play the violin?', 'qr', { ...OFF, recall_enable_query_expansion: true })), ['she practises the cello every evening'])
      t.same(contents(await recall('Does she still play the violin?', 'qr', OFF)), [])
    })

    t.test('entity_centric: the named entity, its current facts and the turns that mention it', async t => {
      const { svc, rel, graph, recall } = setUp(db)
      const { entity } = await svc.semantic.addEntity({ name: 'Okafor', type: 'Person', aliases: ['the professor'], channel: 'ent' })
      const { fact: old } = await svc.semantic.addFact({ claim: 'Okafor supervises the reef thesis', entity_ids: [entity.id], channel: 'ent' })
      await svc.semantic.supersedeFact(old.id, { claim: 'Okafor supervises the coral thesis', entity_ids: [entity.id] })
      await rel.addTurn({ conversation_id: 'e', role: 'user', content: 'the professor wants the draft by September', channel: 'ent' })
      const r = await recall('What did Okafor ask for?', 'ent', { ...OFF, recall_enable_entity_centric: true })
      t.same(r.techniques, ['vector_recency', 'entity_centric'])
      t.same(r.entities.map(e => e.name), ['Okafor'])
      t.same(r.facts.map(f => f.claim), ['Okafor supervises the coral thesis'], 'the superseded fact is left out')
      t.ok(contents(r).includes('the professor wants the draft by September'), 'a turn naming it by alias')
      t.ok((await graph.entities({ offset: 0, limit: 10 })).total === 1)
      const none = await recall('What did Nobody ask for?', 'ent', { ...OFF, recall_enable_entity_centric: true })
      t.same(none.entities.filter(e => (e.found_by as string[]).includes('entity_centric')), [])
    })

    t.test('entity_centric: an entity named only by an alias is found through the graph store\'s keyword search (a name lookup reads names only)', async t => {
      const { svc, recall, graph } = setUp(db)
      t.type(graph.searchEntities, 'function', 'the store has keyword search')
      await svc.semantic.addEntity({ name: 'Adaeze Okonkwo', type: 'Person', aliases: ['the Harbourmaster'], channel: 'alias' })
      const r = await recall('What did the Harbourmaster say?', 'alias', { ...OFF, recall_enable_entity_centric: true })
      t.same(r.entities.filter(e => (e.found_by as string[]).includes('entity_centric')).map(e => e.name), ['Adaeze Okonkwo'])
    })

    t.test('hyde and self_query without a model drop out and say why; off by default', async t => {
      const { svc, recall } = setUp(db)
      await svc.episodic.addTurn({ conversation_id: 'h', role: 'user', content: 'we adopted a dog', channel: 'hy2' })
      const def = await recall('dog', 'hy2')
      t.notOk(def.techniques.includes('hyde'))
      t.equal(def.notes, undefined)
      const r = await recall('dog', 'hy2', { recall_enable_hyde: true, recall_enable_self_query: true })
      t.notOk(r.techniques.includes('hyde'))
      t.match(r.notes, { hyde: /no model set.*recall_hyde_model/, self_query: /no model set.*recall_self_query_model/ })
      t.same(contents(r), ['we adopted a dog'], 'the recall still answers')
    })

    t.test('a technique that throws or hangs leaves the recall working and is named', async t => {
      const boom: RecallTechnique = { name: 'boom', run: async () => { throw new Error('kaput') } }
      const hang: RecallTechnique = { name: 'hang', run: async () => await new Promise(() => {}) }
      // The hang never ends, so any limit proves the timeout; it must only leave the working
      // techniques room: a keyword search on a PGlite not yet warmed up (its WebAssembly
      // still on the baseline compiler) took over 50 ms on a loaded machine.
      const { svc, recall } = setUp(db, { extra: [boom, hang], timeoutMs: 1000 })
      await svc.episodic.addTurn({ conversation_id: 'b', role: 'user', content: 'the quokka smiles', channel: 'bad' })
      const r = await recall('quokka', 'bad')
      t.same(contents(r), ['the quokka smiles'])
      t.same(r.techniques, ['vector_recency', 'hybrid', 'entity_centric', 'query_expansion'])
      t.match(r.notes, { boom: /kaput/, hang: /timed out after 1000 ms/ })
      t.same(r.degraded?.sort(), ['technique:boom', 'technique:hang'])
    })

    t.test('the current conversation\'s latest turns are not recalled, by any technique', async t => {
      const { svc, recall } = setUp(db)
      await svc.episodic.addTurn({ conversation_id: 'now', role: 'user', content: 'my locker code is 4711', channel: 'ex' })
      await svc.episodic.addTurn({ conversation_id: 'before', role: 'user', content: 'the locker is on floor two', channel: 'ex' })
      t.same(contents(await recall('locker code', 'ex', {}, { conversation_id: 'now' })), ['the locker is on floor two'])
      t.same((contents(await recall('locker code', 'ex')) as string[]).sort(), ['my locker code is 4711', 'the locker is on floor two'])
    })

    t.test('identical turns are collapsed; top_k cuts', async t => {
      const { svc, recall } = setUp(db)
      for (let i = 0; i < 4; i++) await svc.episodic.addTurn({ conversation_id: `o${i}`, role: 'assistant', content: 'OK, noted the tea.', channel: 'dup' })
      for (let i = 0; i < 6; i++) await svc.episodic.addTurn({ conversation_id: 'x', role: 'user', content: `I drink tea blend ${i}`, channel: 'dup' })
      const r = await recall('tea', 'dup', {}, { top_k: 5 })
      t.equal(r.relevant_turns.length, 5)
      t.equal(contents(r).filter(c => c === 'OK, noted the tea.').length, 1)
    })

    t.test('recency breaks ties, and weighs in only when the query asks for what is recent', async t => {
      // Fixed vectors: the old turn is more similar to the query than the new one.
      const table: Record<string, number[]> = { old: axis(8, 0, 0.3), new: axis(8, 0, 0.8) }
      const embedder: Embedder = { id: 'table', dimensions: 8, embed: async texts => texts.map(x => table[x.split(' ')[0]] ?? axis(8, 0)) }
      const { svc, h, recall } = setUp(db, { embedder })
      const o = await svc.episodic.addTurn({ conversation_id: 'c', role: 'user', content: 'old turn', channel: 'rec' })
      await svc.episodic.addTurn({ conversation_id: 'c', role: 'user', content: 'new turn', channel: 'rec' })
      await sql`UPDATE turns SET ts = now() - interval '365 days' WHERE id = ${o.id}`.execute(h.db)
      t.same(contents(await recall('what turn', 'rec', OFF)), ['old turn', 'new turn'], 'similarity first')
      t.same(contents(await recall('what turn recently', 'rec', OFF)), ['new turn', 'old turn'], 'recency weighs in')
      // Hybrid's vector list is the service's shared read, ranked the same way (its own list then counts once).
      t.same(contents(await recall('what turn recently', 'rec', { ...OFF, recall_enable_hybrid: true })), ['new turn', 'old turn'], 'with hybrid too')
    })
  })

}
