// The memory service with the Neo4j graph store and the SQL relational store on PGlite.
// On the recording fake driver: what the service's writes send to Neo4j as copies, and a
// Neo4j outage queueing them in the copy outbox while PGlite takes the turn, replayed once
// the server answers again. On a real Neo4j 5 (test/neo4j/server.ts): the copies as the
// server holds them, and the recall techniques that read the graph (entity_centric, and
// hybrid's keyword list from Neo4j's full-text index over the copied turns).
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pino from 'pino'
import neo4j from 'neo4j-driver'
import { createRegistry, Hooks } from '@agentd/sdk'
import { SqlRelationalStore } from '../../plugins/memory-sql/relational-store.ts'
import { Neo4jGraphStore } from '../../plugins/memory-graph-neo4j/graph-store.ts'
import { CQ } from '../../plugins/memory-graph-neo4j/copies.ts'
import { FakeDriver, rec } from '../../plugins/memory-graph-neo4j/test-support.ts'
import { MemoryServiceImpl } from '../../plugins/memory/service.ts'
import { Outbox } from '../../plugins/memory/outbox/outbox.ts'
import { SQL_BACKENDS } from './sql-targets.ts'
import { RECALL_DEFAULTS } from '../helpers/recall-settings.ts'
import type { RecallSettings } from '@agentd/sdk/contracts/recall'
import { HashEmbedder } from '../../plugins/embed-hash/hash-embedder.ts'
import { hybridTechnique } from '../../plugins/recall-hybrid/hybrid.ts'
import { entityTechnique } from '../../plugins/recall-entity/entity.ts'
import { openDriver } from '../../plugins/memory-graph-neo4j/driver.ts'
import { resolveNeo4jTarget } from '../../plugins/memory-graph-neo4j/target.ts'
import { liveNeo4j, neo4jSkip, type LiveNeo4j } from '../neo4j/server.ts'
import { GraphBackfill } from '../../plugins/memory/graph-backfill.ts'

// The first Neo4j of a run waits for the launcher's JVM: on two busy cores that can take a minute.
t.setTimeout(300_000)

const log = pino({ level: 'silent' })
const opts = { tokenBudget: 1000, topK: 10, workingMemoryTurns: 20, recencyWeight: 0.2, recencyHalfLifeHours: 24 }
const pglite = SQL_BACKENDS.find(b => b.name === 'pglite')
if (pglite === undefined) throw new Error('no pglite backend')

async function setup (t: Test): Promise<{ svc: MemoryServiceImpl, driver: FakeDriver, rel: SqlRelationalStore, down: { on: boolean } }> {
  const down = { on: false }
  const unavailable = Object.assign(new Error('Could not perform discovery. No routing servers available.'), { code: 'ServiceUnavailable' })
  const driver = new FakeDriver(q => {
    if (down.on) return unavailable
    if (q === CQ.removeConversationTurns) return [rec({ n: neo4j.int(2) })]
    if (q === CQ.removeConversation || q === CQ.removeGoal) return [rec({ n: neo4j.int(1) })]
    return []
  })
  const rel = new SqlRelationalStore(await pglite!.open(t))
  await rel.init()
  const reg = createRegistry()
  reg.relationalStores.add('memory-sql', rel)
  reg.graphStores.add('memory-graph-neo4j', new Neo4jGraphStore({ driver, cooldownMs: 0 }))
  return { svc: new MemoryServiceImpl(() => reg, () => new Hooks(), log, opts), driver, rel, down }
}

t.test('turns, goals and a deleted conversation reach Neo4j as copies of what SQL stored', async t => {
  const { svc, driver } = await setup(t)
  const a = await svc.storeTurn({ conversation_id: 'conv-1', role: 'user', content: 'Dr Okafor called', channel: 'work' })
  const b = await svc.storeTurn({ conversation_id: 'conv-1', role: 'assistant', content: 'Noted', channel: 'work' })
  t.equal(a.stored, true)
  const turns = driver.sent(CQ.upsertTurn)
  t.equal(turns.length, 2)
  t.match(turns[1].params, { id: b.turn?.id, conversation_id: 'conv-1', index: neo4j.int(1), timestamp: b.turn?.timestamp, role: 'assistant', content: 'Noted', channel: 'work' })
  const goal = await svc.procedural.addGoal({ description: 'Close the Okafor deal', priority: 3, channel: 'work' })
  await svc.procedural.editGoal(goal.id, { status: 'completed' })
  const goals = driver.sent(CQ.upsertGoal)
  t.same(goals.map(c => c.params.status), ['active', 'completed'], 'the goal as SQL holds it after each write')
  t.match(goals[1].params, { id: goal.id, description: 'Close the Okafor deal', priority: neo4j.int(3), channel: 'work', created_at: goal.created_at })
  await svc.procedural.deleteGoal(goal.id)
  t.same(driver.sent(CQ.removeGoal).map(c => c.params), [{ id: goal.id }])
  await svc.episodic.deleteConversation('conv-1')
  t.same(driver.sent(CQ.removeConversationTurns).map(c => c.params), [{ id: 'conv-1' }])
})

t.test('Neo4j down: SQL takes the turn, the copy waits in the copy outbox and is replayed once Neo4j answers', async t => {
  const { svc, driver, rel, down } = await setup(t)
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-neo4j-copies-'))
  const outbox = new Outbox({ dir, maxEntries: 100, maxBytes: 1024 * 1024, writeTimeoutMs: 2000, maxRetryMs: 50, maxAttempts: 3 }, log)
  t.teardown(async () => { await outbox.close(); rmSync(dir, { recursive: true, force: true }) })
  svc.copies.outbox = outbox
  down.on = true
  const r = await svc.storeTurn({ conversation_id: 'conv-2', role: 'user', content: 'while Neo4j is away', channel: 'work' })
  t.equal(r.stored, true, 'the chat\'s turn is stored in SQL')
  t.equal((await rel.conversationTurns('conv-2', 10)).length, 1)
  t.equal(outbox.pending, 1, 'its copy is queued')
  t.equal(driver.sent(CQ.upsertTurn).length, 0, 'nothing reached Neo4j')
  t.ok(driver.calls.length > 0, 'it was tried')
  down.on = false
  outbox.attach(svc.copies.applyQueued, log)
  await outbox.flush()
  t.equal(outbox.pending, 0)
  const sent = driver.sent(CQ.upsertTurn)
  t.equal(sent.length, 1, 'replayed once')
  t.match(sent[0].params, { id: r.turn?.id, content: 'while Neo4j is away', index: neo4j.int(0) })
})

// ---- on a real Neo4j 5 ------------------------------------------------------------------

const root = t
const skipLive = neo4jSkip()
// Asked for now: the launcher starts while the fake-driver tests above run.
const server: Promise<LiveNeo4j> | undefined = skipLive === false ? liveNeo4j(root) : undefined
server?.catch(() => {})
let shared: Promise<SqlRelationalStore> | undefined

/** The service on PGlite and a live Neo4j (one server for the file; each test its own channels), and a Cypher reader. */
async function live (t: Test): Promise<{ svc: MemoryServiceImpl, rel: SqlRelationalStore, store: Neo4jGraphStore, cypher: (q: string, p?: Record<string, unknown>) => Promise<Array<Record<string, unknown>>>, recall: (text: string, channel: string, patch?: Partial<RecallSettings>) => ReturnType<MemoryServiceImpl['recaller']['recallBundle']> }> {
  if (server === undefined) throw new Error('unreachable: skipped without Neo4j')
  const target = resolveNeo4jTarget((await server).env, { pool_size: 4, connect_timeout_ms: 5000, circuit_cooldown_ms: 0 })
  if (target === undefined) throw new Error('unreachable: the live server gives NEO4J_URI')
  const driver = openDriver(target)
  const store = new Neo4jGraphStore({ driver, cooldownMs: 0 })
  t.teardown(async () => { await store.close() })
  // One PGlite for the live tests (it takes seconds to start); each test has its own channels.
  shared ??= pglite!.open(root).then(async h => { const r = new SqlRelationalStore(h); await r.init(); return r })
  const rel = await shared
  const reg = createRegistry()
  reg.relationalStores.add('memory-sql', rel)
  reg.graphStores.add('memory-graph-neo4j', store)
  reg.embedders.add('embed-hash', new HashEmbedder())
  reg.recallTechniques.add('recall-hybrid', hybridTechnique(() => rel, () => store))
  reg.recallTechniques.add('recall-entity', entityTechnique({ graph: () => store, relational: () => rel }))
  let settings: RecallSettings = { ...RECALL_DEFAULTS }
  // A technique gets a minute: the test is about what it finds, on two cores shared with other work.
  const svc = new MemoryServiceImpl(() => reg, () => new Hooks(), log, { ...opts, recallSettings: () => settings, techniqueTimeoutMs: 60_000 })
  const cypher = async (q: string, p: Record<string, unknown> = {}): Promise<Array<Record<string, unknown>>> => {
    const session = driver.session({ defaultAccessMode: 'WRITE' })
    try { return await session.executeWrite(async tx => (await tx.run(q, p)).records.map(r => r.toObject())) } finally { await session.close() }
  }
  const recall = async (text: string, channel: string, patch: Partial<RecallSettings> = {}): ReturnType<MemoryServiceImpl['recaller']['recallBundle']> => {
    settings = { ...RECALL_DEFAULTS, ...patch }
    return await svc.recaller.recallBundle({ text, channel }, { strict: true })
  }
  return { svc, rel, store, cypher, recall }
}

const OFF = { recall_enable_hybrid: false, recall_enable_entity_centric: false, recall_enable_query_expansion: false }
const n = (v: unknown): number => neo4j.isInt(v) ? v.toNumber() : Number(v)

t.test('on a real Neo4j', { skip: skipLive }, async t => {
  t.test('the service\'s turns, goals and deletions as Neo4j holds them', async t => {
    const { svc, cypher } = await live(t)
    const a = await svc.storeTurn({ conversation_id: 'lc-1', role: 'user', content: 'Dr Okafor called about the Paystream invoice', channel: 'lc' })
    await svc.storeTurn({ conversation_id: 'lc-1', role: 'assistant', content: 'Noted', channel: 'lc' })
    const turns = await cypher(`MATCH (c:Conversation {id: 'lc-1'})-[:HAS_TURN]->(t:Turn) OPTIONAL MATCH (t)-[:NEXT]->(nx:Turn)
      RETURN t.id AS id, t.index AS i, t.content AS content, t.channel AS channel, nx.index AS next, t.embedder AS embedder, t.vec_384 IS NOT NULL AS vec ORDER BY i`)
    t.same(turns.map(x => [n(x.i), x.content, x.channel, x.next === null ? null : n(x.next)]), [[0, 'Dr Okafor called about the Paystream invoice', 'lc', 1], [1, 'Noted', 'lc', null]], 'both turns, linked in order')
    t.equal(turns[0].id, a.turn?.id, 'under the id SQL gave it')
    t.equal(turns[0].embedder, 'hash-v2', 'with its vector\'s embedder')
    t.equal(turns[0].vec, true, 'and the vector')
    const goal = await svc.procedural.addGoal({ description: 'Close the Okafor deal', priority: 3, channel: 'lc' })
    const sub = await svc.procedural.addGoal({ description: 'Send the contract', priority: 2, channel: 'lc', parent_goal_id: goal.id })
    await svc.procedural.editGoal(goal.id, { status: 'completed' })
    t.same(await cypher('MATCH (s:Goal)-[:SUBGOAL_OF]->(g:Goal) RETURN s.id AS sub, g.id AS goal, g.status AS status'), [{ sub: sub.id, goal: goal.id, status: 'completed' }])
    await svc.episodic.deleteConversation('lc-1')
    t.same(await cypher("MATCH (t:Turn {conversation_id: 'lc-1'}) RETURN count(t) AS n").then(r => n(r[0].n)), 0, 'a deleted conversation leaves no turn')
    t.same(await cypher("MATCH (c:Conversation {id: 'lc-1'}) RETURN count(c) AS n").then(r => n(r[0].n)), 0)
  })

  t.test('hybrid recall takes its keyword list from Neo4j\'s full-text index over the copied turns', async t => {
    const { svc, cypher, recall } = await live(t)
    await svc.storeTurn({ conversation_id: 'hy-1', role: 'user', content: 'the Paystream invoice is overdue', channel: 'hy' })
    await svc.storeTurn({ conversation_id: 'hy-1', role: 'user', content: 'lunch was fine', channel: 'hy' })
    // A turn that only Neo4j holds: found by keyword, it can only have come from Neo4j's index.
    await cypher(`CREATE (:Turn {id: 'only-in-neo4j', conversation_id: 'hy-x', index: 0, timestamp: '2026-01-01T00:00:00.000Z', role: 'user',
      content: 'Quetzalcoatl invoice number 7', token_count: null, metadata: '{}', channel: 'hy', embedder: null})`)
    const r = await recall('Quetzalcoatl invoice', 'hy', { ...OFF, recall_enable_hybrid: true })
    t.same(r.techniques, ['vector_recency', 'hybrid'])
    const found = r.relevant_turns.find(x => x.id === 'only-in-neo4j')
    t.ok(found, 'the Neo4j-only turn is recalled')
    t.same(found?.found_by, ['hybrid'])
    t.ok(r.relevant_turns.some(x => x.content === 'the Paystream invoice is overdue'), 'and the copied turn that shares a word')
  })

  t.test('the query\'s nearest turns come from Neo4j\'s vector index over the copied turns', async t => {
    const { svc, store, recall } = await live(t)
    await svc.storeTurn({ conversation_id: 'vx-1', role: 'user', content: 'the harbour crane broke down on Tuesday', channel: 'vx' })
    // A copy only Neo4j holds: recalled by similarity, it can only have come from Neo4j's index.
    const text = 'the harbour crane was repaired on Friday'
    const [vector] = await new HashEmbedder().embed([text])
    await store.upsertTurn({ id: 'vx-only-in-neo4j', conversation_id: 'vx-2', index: 0, timestamp: new Date().toISOString(), role: 'user', content: text, token_count: null, metadata: {}, channel: 'vx', embedder: 'hash-v2' }, { vector, embedder: 'hash-v2' })
    const r = await recall('when was the harbour crane repaired', 'vx', OFF)
    t.same(r.techniques, ['vector_recency'])
    t.same(r.relevant_turns.map(x => x.content).sort(), ['the harbour crane broke down on Tuesday', text].sort(), 'the copied turn and the Neo4j-only one')
  })

  t.test('the back-fill copies what SQL held before Neo4j was configured, resumes after a stop, skips what is there', async t => {
    const { store, cypher } = await live(t)
    // A database of its own: the back-fill reads every item in it.
    const rel = new SqlRelationalStore(await pglite!.open(t))
    await rel.init()
    const [vector] = await new HashEmbedder().embed(['written before Neo4j'])
    const before = []
    for (let i = 0; i < 5; i++) before.push(await rel.addTurn({ conversation_id: 'bf-1', role: i % 2 === 0 ? 'user' : 'assistant', content: `written before Neo4j ${i}`, channel: 'bf', embedding: { vector, embedder: 'hash-v2' } }))
    const goal = await rel.addGoal({ description: 'an old goal', priority: 2, channel: 'bf' })
    await rel.addStrategy({ description: 'an old strategy', context_pattern: 'when', tool_sequence: ['a'], channel: 'bf' })
    // One turn the live copy path already wrote (with content SQL does not have): left as it is.
    await store.upsertTurn({ ...before[4], content: 'copied live' })
    const turnsInNeo4j = async (): Promise<number> => n((await cypher("MATCH (t:Turn {channel: 'bf'}) RETURN count(t) AS n"))[0].n)
    t.equal(await turnsInNeo4j(), 1)

    const stopAfterFirstBatch = new AbortController()
    const save = store.saveBackfillState.bind(store)
    store.saveBackfillState = async s => { await save(s); stopAfterFirstBatch.abort() }
    const fill = new GraphBackfill({ relational: () => rel, graph: () => store, batchSize: 2, log })
    t.equal(await fill.needed(), true)
    const first = await fill.run(stopAfterFirstBatch.signal)
    t.match(first, { status: 'stopped', seen: 2 }, 'stopped after one batch')
    // Items go in id order (random ids): the batch may hold the turn that was there already.
    t.equal(await turnsInNeo4j(), 1 + first.copied, 'what it copied is in Neo4j')
    store.saveBackfillState = save

    // A new run (a restart) resumes past the saved position.
    const again = new GraphBackfill({ relational: () => rel, graph: () => store, batchSize: 2, log })
    const done = await again.run()
    t.match(done, { status: 'done', copied: 6 }, 'the other 2 turns (one was there), the goal and the strategy')
    t.equal(done.seen, 5, 'what the first run did was not read again: 3 turns, the goal, the strategy')
    t.equal(await turnsInNeo4j(), 5)
    t.same(await cypher("MATCH (t:Turn {conversation_id: 'bf-1'}) RETURN t.index AS i, t.content AS c, t.vec_384 IS NOT NULL AS v ORDER BY i").then(r => r.map(x => [n(x.i), x.c, x.v])),
      [[0, 'written before Neo4j 0', true], [1, 'written before Neo4j 1', true], [2, 'written before Neo4j 2', true], [3, 'written before Neo4j 3', true], [4, 'copied live', false]], 'in order, with their stored vectors; the live copy kept')
    t.equal(await n((await cypher("MATCH (:Turn {conversation_id: 'bf-1'})-[r:NEXT]->() RETURN count(r) AS n"))[0].n), 4, 'linked')
    t.same(await cypher('MATCH (g:Goal {id: $id}) RETURN g.description AS d', { id: goal.id }), [{ d: 'an old goal' }])
    t.equal(await again.needed(), false, 'done is remembered in Neo4j')
    t.match(await new GraphBackfill({ relational: () => rel, graph: () => store, batchSize: 2, log }).run(), { status: 'done', copied: 6, seen: 0 }, 'a later run reads nothing')
  })

  t.test('entity_centric recall: the entity named in the query, its current facts from Neo4j, turns that mention it by alias', async t => {
    const { svc, recall, cypher } = await live(t)
    const { entity } = await svc.semantic.addEntity({ name: 'Okafor', type: 'Person', aliases: ['the professor'], channel: 'ent' })
    const { fact: old } = await svc.semantic.addFact({ claim: 'Okafor supervises the reef thesis', entity_ids: [entity.id], channel: 'ent' })
    await svc.semantic.supersedeFact(old.id, { claim: 'Okafor supervises the coral thesis', entity_ids: [entity.id] })
    await svc.storeTurn({ conversation_id: 'e', role: 'user', content: 'the professor wants the draft by September', channel: 'ent' })
    t.same(await cypher("MATCH (f:Fact)-[:ABOUT]->(e:Entity {name: 'Okafor'}) RETURN f.claim AS claim, f.superseded_at IS NOT NULL AS gone ORDER BY claim"),
      [{ claim: 'Okafor supervises the coral thesis', gone: false }, { claim: 'Okafor supervises the reef thesis', gone: true }], 'both facts in Neo4j, the old one superseded')
    const r = await recall('What did Okafor ask for?', 'ent', { ...OFF, recall_enable_entity_centric: true })
    t.same(r.techniques, ['vector_recency', 'entity_centric'])
    t.same(r.entities.map(e => e.name), ['Okafor'])
    t.same(r.facts.map(f => f.claim), ['Okafor supervises the coral thesis'], 'the superseded fact is left out')
    t.ok(r.relevant_turns.some(x => x.content === 'the professor wants the draft by September'), 'a turn naming it by alias')
    const none = await recall('What did Nobody ask for?', 'ent', { ...OFF, recall_enable_entity_centric: true })
    t.same(none.entities.filter(e => (e.found_by as string[]).includes('entity_centric')), [])
  })
})
