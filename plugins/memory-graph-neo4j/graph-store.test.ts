// The Neo4j graph store without a server: the Cypher each method sends (parameterised,
// integers as neo4j Integers where Cypher needs them), and the mapping of what the
// driver returns (Record, Integer, DateTime) to the contract's values.
import t from 'tap'
import neo4j from 'neo4j-driver'
import { EntityConflictError, StoreUnavailableError } from '@agentd/sdk/kits/memory'
import { Neo4jGraphStore } from './graph-store.ts'
import { Q } from './cypher.ts'
import { CQ } from './copies.ts'
import { SCHEMA, vectorIndexStatement } from './schema.ts'
import { FakeDriver, dt, entityMap, factMap, rec, type Responder } from './test-support.ts'

const E1 = '11111111-1111-1111-1111-111111111111'
const F1 = '22222222-2222-2222-2222-222222222222'
const F2 = '33333333-3333-3333-3333-333333333333'

function open (respond?: Responder, opts: { cooldownMs?: number, now?: () => number } = {}): { store: Neo4jGraphStore, driver: FakeDriver } {
  const driver = new FakeDriver(respond)
  return { store: new Neo4jGraphStore({ driver, database: 'agentd', cooldownMs: opts.cooldownMs ?? 0, now: opts.now }), driver }
}
/** The calls after the schema statements. */
const work = (d: FakeDriver): FakeDriver['calls'] => d.calls.filter(c => !SCHEMA.includes(c.query))

t.test('the schema is created once, idempotently, one statement per transaction, before the first query', async t => {
  const { store, driver } = open(q => q === Q.ping ? [rec({ ok: neo4j.int(1) })] : [])
  await store.init()
  await store.init()
  t.same(driver.calls.slice(0, SCHEMA.length).map(c => c.query), SCHEMA)
  t.ok(SCHEMA.every(s => / IF NOT EXISTS /.test(s)), 'every statement is IF NOT EXISTS')
  t.ok(SCHEMA.some(s => s.startsWith('CREATE FULLTEXT INDEX agentd_fact_text IF NOT EXISTS FOR (f:Fact) ON EACH [f.claim]')))
  t.equal(driver.sent(Q.ping).length, 2)
  t.equal(driver.calls.length, SCHEMA.length + 2, 'not repeated')
  t.ok(driver.calls.every(c => c.database === 'agentd'), 'the configured database')
  t.equal(driver.sessionsOpen, 0, 'every session closed')
})

t.test('a vector index per kind and size: created with Neo4j 5 syntax on first use, awaited online, then reused', async t => {
  const { store, driver } = open(q => q === Q.mergeFact ? [rec({ id: F1, created: true })] : q === Q.fact ? [rec({ fact: factMap({ id: F1, claim: 'c', channel: 'a' }) })] : [])
  const embedding = { vector: [3, 4, 0, 0, 0, 0, 0, 0], embedder: 'e8' }
  await store.addFact({ claim: 'c', claim_hash: 'h', source: 'user_stated', channel: 'a', embedding })
  await store.addFact({ claim: 'c', claim_hash: 'h', source: 'user_stated', channel: 'a', embedding })
  const stmt = vectorIndexStatement('fact', 8)
  t.equal(stmt, "CREATE VECTOR INDEX agentd_fact_vec_8 IF NOT EXISTS FOR (n:Fact) ON (n.vec_8) OPTIONS {indexConfig: {`vector.dimensions`: 8, `vector.similarity_function`: 'cosine'}}")
  t.equal(driver.sent(stmt).length, 1, 'created once')
  const wait = driver.sent(Q.awaitIndex)
  t.equal(wait.length, 1)
  t.equal(wait[0].params.name, 'agentd_fact_vec_8')
  t.ok(neo4j.isInt(wait[0].params.seconds), 'seconds is an integer')
  const merge = driver.sent(Q.mergeFact)[0]
  t.same(merge.params.vector, { embedder: 'e8', embedding_dims: neo4j.int(8), vec_8: [0.6, 0.8, 0, 0, 0, 0, 0, 0] }, 'unit length, in the property of its size')
  t.throws(() => vectorIndexStatement('fact', 1.5), /1-4096 dimensions/)
  t.throws(() => vectorIndexStatement('entity', 5000), /1-4096 dimensions/)
})

t.test('upsertEntity: MERGE on the identity key, then aliases and properties merged; Integer and DateTime mapped', async t => {
  const stored = { id: E1, name: 'Ada', channel: 'g', aliases: ['Ada', 'Countess'], properties: '{"born":1815,"x":2}', access_count: 7, conversation_count: 2 }
  const { store, driver } = open(q => {
    if (q === Q.mergeEntity) return [rec({ id: E1, created: false, aliases: ['Ada'], properties: '{"born":1815,"x":1}' })]
    if (q === Q.updateEntity) return [rec({ entity: entityMap(stored) })]
  })
  const res = await store.upsertEntity({ name: 'ada', type: 'Person', aliases: ['Countess', 'Ada'], properties: { x: 2 }, channel: 'g', embedding: { vector: [1, 0], embedder: 'e' }, conversation_id: 'c9' })
  t.equal(res.created, false)
  const merge = driver.sent(Q.mergeEntity)[0]
  t.match(merge.params, { channel: 'g', name: 'ada', type: 'Person', salience: 0.5 })
  t.equal(merge.mode, 'WRITE')
  const upd = driver.sent(Q.updateEntity)[0]
  t.same(upd.params, { id: E1, aliases: ['Ada', 'Countess'], alias_text: 'Ada Countess', properties: '{"born":1815,"x":2}', description: null, conversation_id: 'c9', vector: {} }, 'an existing entity keeps its vector; the conversation is counted')
  t.same(res.entity, {
    id: E1, name: 'Ada', type: 'Person', aliases: ['Ada', 'Countess'], description: null, salience: 0.5, properties: { born: 1815, x: 2 },
    first_seen: '2026-01-02T03:04:05.678Z', last_accessed: '2026-01-03T00:00:00.000Z', access_count: 7, channel: 'g', conversation_count: 2,
  })
  t.equal(typeof res.entity.access_count, 'number')
})

t.test('lists page with Integer SKIP/LIMIT and pass search text only as a parameter', async t => {
  const hostile = "x') DETACH DELETE n //"
  const { store, driver } = open(q => {
    if (q === Q.countEntities || q === Q.countFacts) return [rec({ total: neo4j.int(42) })]
    if (q === Q.listEntities) return [rec({ entity: entityMap({ id: E1, name: 'A', channel: 'c' }) })]
    if (q === Q.listFacts) return [rec({ fact: factMap({ id: F1, claim: 'x', channel: 'c', entity_ids: ['b', 'a'] }) })]
  })
  const ents = await store.entities({ channel: 'c', search: hostile, offset: 5, limit: 10 })
  t.equal(ents.total, 42)
  t.equal(ents.items[0].name, 'A')
  const list = driver.sent(Q.listEntities)[0].params
  t.same(list, { channel: 'c', exclude_channel: null, min_salience: 0, type: null, search: hostile, offset: neo4j.int(5), limit: neo4j.int(10) })
  t.ok(neo4j.isInt(list.offset) && neo4j.isInt(list.limit), 'SKIP and LIMIT refuse floats, so they go as Integers')
  const facts = await store.facts({ search: hostile, min_confidence: 0.5, offset: 0, limit: 3 })
  t.same(driver.sent(Q.countFacts)[0].params, { channel: null, exclude_channel: null, search: hostile, min_confidence: 0.5, include_superseded: false, flagged: null, min_access_count: neo4j.int(0), min_conversations: neo4j.int(0) })
  t.same(facts.items[0].entity_ids, ['a', 'b'], 'entity ids sorted')
  t.notOk(driver.calls.some(c => c.query.includes(hostile)), 'no statement text holds the caller\'s text')
})

t.test('similarFacts: the vector index first, scores turned back into cosine, returned facts touched', async t => {
  const { store, driver } = open((q, p) => {
    if (q === Q.nearestFacts) return [rec({ fact: factMap({ id: F1, claim: 'near', channel: 'sf' }), score: 0.95 }), rec({ fact: factMap({ id: F2, claim: 'far', channel: 'sf' }), score: 0.5 })]
  })
  const res = await store.similarFacts({ embedding: { vector: [0, 2], embedder: 'e2' }, channels: ['sf'], limit: 2 })
  t.same(res.map(f => [f.claim, Number(f.score.toFixed(3))]), [['near', 0.9], ['far', 0]])
  const near = driver.sent(Q.nearestFacts)[0]
  t.same(near.params, { channels: ['sf'], embedder: 'e2', vector: [0, 1], limit: neo4j.int(2), include_superseded: false, property: 'vec_2', index: 'agentd_fact_vec_2', k: neo4j.int(100) })
  t.equal(driver.sent(Q.scanFacts).length, 0, 'enough from the index: no scan')
  t.same(driver.sent(Q.touchFacts)[0].params, { ids: [F1, F2] })
  t.equal(res[0].access_count, 2, 'Integer access count mapped')
})

t.test('similarEntities: an exact scan of the channels when the index gave fewer than asked', async t => {
  const { store, driver } = open(q => {
    if (q === Q.nearestEntities) return []
    if (q === Q.scanEntities) return [rec({ entity: entityMap({ id: E1, name: 'Small', channel: 'tiny' }), score: 1 })]
  })
  const res = await store.similarEntities({ embedding: { vector: [1, 0, 0], embedder: 'e3' }, channels: ['tiny'], limit: 3 })
  t.same(res.map(e => [e.name, e.score]), [['Small', 1]])
  t.same(driver.sent(Q.scanEntities)[0].params, { channels: ['tiny'], embedder: 'e3', vector: [1, 0, 0], limit: neo4j.int(3), dims: neo4j.int(3), property: 'vec_3' })
  t.equal(driver.sent(Q.touchFacts).length, 0)
  t.same(await store.similarEntities({ embedding: { vector: [1], embedder: 'e' }, channels: [], limit: 3 }), [], 'no channel, no query')
})

t.test('keyword search: the full-text index with the query\'s words only', async t => {
  const { store, driver } = open(q => {
    if (q === Q.searchFacts) return [rec({ fact: factMap({ id: F1, claim: 'Paris is big', channel: 'k' }), score: 2.5 })]
    if (q === Q.searchEntities) return [rec({ entity: entityMap({ id: E1, name: 'Paris', channel: 'k' }), score: 1.25 })]
  })
  const facts = await store.searchFacts({ text: 'PARIS* OR "big"~ AND:(x)', channels: ['k'], limit: 5 })
  t.same(facts.map(f => [f.claim, f.score]), [['Paris is big', 2.5]])
  t.same(driver.sent(Q.searchFacts)[0].params, { index: 'agentd_fact_text', query: 'paris or big and x', channels: ['k'], limit: neo4j.int(5) }, 'lower case: Lucene operators are upper case only')
  const ents = await store.searchEntities({ text: 'Paris', channels: ['k'], limit: 1 })
  t.equal(ents[0].score, 1.25)
  t.equal(driver.sent(Q.searchEntities)[0].params.index, 'agentd_entity_text')
  t.same(await store.searchFacts({ text: '?!*', channels: ['k'], limit: 5 }), [], 'nothing to search for')
  t.equal(driver.sent(Q.searchFacts).length, 1)
})

t.test('supersedeFact: unknown fact 404, same claim 400 (thrown inside the transaction), else linked', async t => {
  const facts: Record<string, Record<string, unknown>> = {
    [F1]: factMap({ id: F1, claim: 'Bob lives in Paris', channel: 's', superseded_at: dt('2026-03-01T00:00:00Z'), superseded_by_id: F2 }),
    [F2]: factMap({ id: F2, claim: 'Bob lives in Rome', channel: 's', supersedes_id: F1 }),
  }
  let mergeAnswer = F2
  const { store, driver } = open((q, p) => {
    if (q === Q.fact) return facts[String(p.id)] === undefined ? [] : [rec({ fact: facts[String(p.id)] })]
    if (q === Q.mergeFact) return [rec({ id: mergeAnswer, created: mergeAnswer === F2 })]
  })
  const res = await store.supersedeFact(F1, { claim: 'Bob lives in Rome', claim_hash: 'h2', source: 'user_stated', channel: 's' })
  t.same(driver.sent(Q.supersede)[0].params, { old_id: F1, new_id: F2 })
  t.equal(res.old.superseded_by_id, F2)
  t.equal(res.old.superseded_at, '2026-03-01T00:00:00.000Z')
  t.equal(res.fact.supersedes_id, F1)
  await t.rejects(store.supersedeFact('nope', { claim: 'x', claim_hash: 'x', source: 'user_stated', channel: 's' }), { statusCode: 404, code: 'AGENT_ERR_MEMORY_NOT_FOUND' })
  mergeAnswer = F1
  const before = driver.sent(Q.supersede).length
  await t.rejects(store.supersedeFact(F1, { claim: 'Bob lives in Paris', claim_hash: 'h1', source: 'user_stated', channel: 's' }), { statusCode: 400, code: 'AGENT_ERR_MEMORY_BAD_REQUEST', message: /same as the fact/ })
  t.equal(driver.sent(Q.supersede).length, before, 'nothing linked')
})

t.test('graph: depth clamped to 1-3 as an Integer; walk rows mapped with direction and depth', async t => {
  const { store, driver } = open((q, p) => {
    if (q === Q.entity) return p.id === E1 ? [rec({ entity: entityMap({ id: E1, name: 'A', channel: 'tr' }) })] : []
    if (q === Q.walk) {
      return [
        rec({ type: 'knows', confidence: 0.8, depth: neo4j.int(1), forward: true, source_id: E1, source_name: 'A', source_type: 'Node', target_id: 'b', target_name: 'B', target_type: 'Node' }),
        rec({ type: 'knows', confidence: 0.7, depth: neo4j.int(2), forward: false, source_id: 'c', source_name: 'C', source_type: 'Node', target_id: 'b', target_name: 'B', target_type: 'Node' }),
      ]
    }
    if (q === Q.entityFacts) return [rec({ fact: factMap({ id: F1, claim: 'A is first', channel: 'tr', entity_ids: [E1] }) })]
  })
  const g = await store.graph(E1, 7)
  t.equal(g?.depth, 3)
  t.same(driver.sent(Q.walk)[0].params, { id: E1, depth: neo4j.int(3), limit: neo4j.int(501) }, 'one more than the default limit, to tell a cut walk')
  t.same(g?.relationships.map(r => `${r.source.name}-${r.type}->${r.target.name}:${r.depth}:${r.direction}:${r.confidence}`), ['A-knows->B:1:outgoing:0.8', 'C-knows->B:2:incoming:0.7'])
  t.same(g?.facts.map(f => f.claim), ['A is first'])
  t.same(driver.sent(Q.touchEntity)[0].params, { id: E1 })
  await store.graph(E1, 0)
  t.same(driver.sent(Q.walk)[1].params.depth, neo4j.int(1))
  t.equal(await store.graph('unknown', 2), undefined)
  t.equal(driver.sent(Q.walk).length, 2, 'no walk for an unknown entity')
  t.match(Q.walk, /RELATES_TO\*1\.\.3/, 'the bound is a literal; the depth a parameter')
})

t.test('graph: the walk asks one row more than the limit and says when it was cut', async t => {
  const edge = (to: string): ReturnType<typeof rec> => rec({ type: 'has', confidence: 0.8, depth: neo4j.int(1), forward: true, source_id: E1, source_name: 'Hub', source_type: 'Node', target_id: to, target_name: to, target_type: 'Node' })
  const { store, driver } = open((q, p) => {
    if (q === Q.entity) return [rec({ entity: entityMap({ id: E1, name: 'Hub', channel: 'tr' }) })]
    if (q === Q.walk) return ['a', 'b', 'c'].slice(0, neo4j.integer.toNumber(p.limit as number)).map(edge)
    if (q === Q.entityFacts) return []
  })
  const cut = await store.graph(E1, 2, 2)
  t.same(driver.sent(Q.walk)[0].params.limit, neo4j.int(3))
  t.match(cut, { limit: 2, truncated: true })
  t.same(cut?.relationships.map(r => r.target.name), ['a', 'b'])
  t.match(await store.graph(E1, 2, 3), { limit: 3, truncated: false })
  t.match(Q.walk, /LIMIT \$limit/)
})

t.test('relate: MERGE on (source, type, target); unknown ends are a 404', async t => {
  const { store, driver } = open((q, p) => q === Q.relate && p.source_id === E1
    ? [rec({ id: 'r1', source_id: E1, target_id: 'b', type: String(p.type), confidence: p.confidence, channel: 'c' })]
    : [])
  const r = await store.relate({ source_id: E1, target_id: 'b', type: 'works_with', channel: 'c' })
  t.same(r, { id: 'r1', source_id: E1, target_id: 'b', type: 'works_with', confidence: 0.8, channel: 'c' })
  t.match(driver.sent(Q.relate)[0].params, { type: 'works_with', confidence: 0.8, channel: 'c' })
  await t.rejects(store.relate({ source_id: 'x', target_id: 'b', type: 't', channel: 'c' }), { statusCode: 404, code: 'AGENT_ERR_MEMORY_NOT_FOUND' })
})

t.test('deleteChannel: relationships, facts, entities and the copies (turns, conversations, goals, strategies) of the channel with their counts', async t => {
  const counts: Record<string, number> = { [Q.deleteChannelRelationships]: 1, [Q.deleteChannelFacts]: 4, [Q.deleteChannelEntities]: 2, [CQ.deleteChannelTurns]: 6, [CQ.deleteChannelConversations]: 2, [CQ.deleteChannelGoals]: 3, [CQ.deleteChannelStrategies]: 0 }
  const { store, driver } = open(q => counts[q] === undefined ? [] : [rec({ n: neo4j.int(counts[q]) })])
  t.same(await store.deleteChannel('dc'), { entities: 2, facts: 4, relationships: 1, turns: 6, conversations: 2, goals: 3, strategies: 0 })
  const sent = work(driver)
  t.same(sent.map(c => c.query), [Q.deleteChannelRelationships, Q.deleteChannelFacts, Q.deleteChannelEntities, CQ.deleteChannelTurns, CQ.deleteChannelConversations, CQ.deleteChannelGoals, CQ.deleteChannelStrategies], 'one transaction, in this order')
  t.ok(sent.every(c => c.params.channel === 'dc' && c.mode === 'WRITE'))
})

t.test('countByChannel, embedderUsage, setSalience, staleEmbeddings map Integers', async t => {
  const { store, driver } = open((q, p) => {
    if (q === Q.countByChannel) return [rec({ channel: 'a', kind: 'entities', n: neo4j.int(3) }), rec({ channel: 'a', kind: 'facts', n: neo4j.int(5) })]
    if (q === Q.embedderUsage) return [rec({ embedder: 'e', dims: neo4j.int(384), n: neo4j.int(12) })]
    if (q === Q.setFactSalience) return [rec({ n: neo4j.int(p.id === F1 ? 1 : 0) })]
    if (q === Q.staleEntities) return [rec({ id: E1, text: 'Old Co makes things' })]
    if (q === Q.staleFacts) return [rec({ id: F1, text: 'old fact' })]
  })
  t.same(await store.countByChannel(), { a: { entities: 3, facts: 5 } })
  t.same(await store.embedderUsage(), [{ embedder: 'e', dimensions: 384, count: 12 }])
  t.equal(await store.setSalience('fact', F1, 7), true)
  t.equal(driver.sent(Q.setFactSalience)[0].params.salience, 1, 'clamped')
  t.equal(await store.setSalience('fact', 'nope', 0.2), false)
  await t.rejects(store.setSalience('entity', E1, Number.NaN), /salience must be a number/)
  const stale = await store.staleEmbeddings({ embedder: 'new', dimensions: 4, limit: 2, after: { entity: E1 } })
  t.same(stale, [{ kind: 'entity', id: E1, text: 'Old Co makes things' }, { kind: 'fact', id: F1, text: 'old fact' }])
  t.same(driver.sent(Q.staleEntities)[0].params, { embedder: 'new', dims: neo4j.int(4), after: E1, limit: neo4j.int(2) })
  t.same(driver.sent(Q.staleFacts)[0].params.limit, neo4j.int(1), 'the rest of the limit')
  t.equal(driver.sent(CQ.staleTurns).length, 0, 'a full batch asks no further kind')
  const more = await store.staleEmbeddings({ embedder: 'new', dimensions: 4, limit: 5, after: { turn: 't9' } })
  t.same(more.map(x => x.kind), ['entity', 'fact'])
  t.same(driver.sent(CQ.staleTurns)[0].params, { embedder: 'new', dims: neo4j.int(4), after: 't9', limit: neo4j.int(3) }, 'then the copies: turns, goals, strategies')
  t.same([driver.sent(CQ.staleGoals)[0].params.limit, driver.sent(CQ.staleStrategies)[0].params.limit], [neo4j.int(3), neo4j.int(3)])
})

t.test('setEmbeddings: the new vector in the property of its size, the old size removed', async t => {
  const { store, driver } = open((q, p) => {
    if (q === Q.factDims) return p.id === F1 ? [rec({ dims: neo4j.int(8) })] : []
    if (q === Q.setFactVector) return [rec({ n: neo4j.int(1) })]
  })
  t.equal(await store.setEmbeddings([{ kind: 'fact', id: F1, embedding: { vector: [0, 0, 0, 2], embedder: 'new' } }, { kind: 'fact', id: 'gone', embedding: null }]), 1)
  t.same(driver.sent(Q.setFactVector)[0].params.vector, { vec_8: null, embedder: 'new', embedding_dims: neo4j.int(4), vec_4: [0, 0, 0, 1] })
  await t.rejects(store.setEmbeddings([{ kind: 'tool_invocation', id: F1, embedding: null }]), /no vectors of kind "tool_invocation" \(it has entity, fact, turn, goal, strategy\)/)
  t.equal(await store.setEmbeddings([{ kind: 'turn', id: 'gone', embedding: null }]), 0, 'a copied turn is re-embedded like an entity; an unknown one counts nothing')
  t.equal(driver.sent(CQ.turnDims).at(-1)?.params.id, 'gone')
})

t.test('moveToChannel: a namesake in the target channel absorbs the entity', async t => {
  const { store, driver } = open(q => {
    if (q.startsWith('MATCH (e:Entity {id: $id}) RETURN e.name_key')) return [rec({ name_key: 'ada', type: 'Person', channel: 'pe' })]
    if (q.startsWith('MATCH (t:Entity {channel: $channel, name_key: $name_key')) return [rec({ id: 'g1', t_aliases: ['Lovelace'], s_aliases: ['Countess'], t_properties: '{"a":1}', s_properties: '{"a":2,"b":3}' })]
  })
  t.same(await store.moveToChannel('entity', E1, '_global'), { id: 'g1', merged: true })
  const merge = driver.calls.find(c => c.query.includes('t.aliases = $aliases'))
  t.same(merge?.params, { id: E1, target: 'g1', aliases: ['Lovelace', 'Countess'], alias_text: 'Lovelace Countess', properties: '{"a":1,"b":3}' })
  t.ok(driver.calls.at(-1)?.query.includes('DETACH DELETE e'), 'the moved node goes last')
})

t.test('an unreachable server: StoreUnavailableError, the breaker skips it for the cool-down, health says why', async t => {
  let now = 1_000
  const down = Object.assign(new Error('Could not perform discovery. No routing servers available.'), { code: 'ServiceUnavailable' })
  let answer: Error | undefined = down
  const { store, driver } = open(() => answer, { cooldownMs: 5000, now: () => now })
  const err = await store.fact(F1).then(() => undefined, (e: unknown) => e)
  t.ok(err instanceof StoreUnavailableError)
  t.match(err, { role: 'graph', backend: 'neo4j', message: /graph memory store \(neo4j\) is unavailable: Could not perform discovery/ })
  const n = driver.calls.length
  await t.rejects(store.fact(F1), StoreUnavailableError)
  t.equal(driver.calls.length, n, 'skipped without a call during the cool-down')
  const h = await store.health()
  t.equal(h.status, 'unhealthy')
  t.match(h.error, /not tried for another 5 s/)
  now += 5001
  answer = undefined
  t.same(await store.health(), { status: 'healthy', backend: 'neo4j' }, 'tried again after the cool-down')
})

t.test('a wrong query is not an outage: the error passes through and the breaker stays closed', async t => {
  const bad = Object.assign(new Error('Invalid input'), { code: 'Neo.ClientError.Statement.SyntaxError' })
  let fail = true
  const { store, driver } = open(q => q === Q.fact && fail ? bad : [], { cooldownMs: 5000 })
  const err = await store.fact(F1).then(() => undefined, (e: unknown) => e)
  t.equal(err, bad)
  fail = false
  t.equal(await store.fact(F1), undefined)
  t.equal(driver.sent(Q.fact).length, 2, 'not skipped')
})

t.test('a failed schema set-up is retried by the next call', async t => {
  let refuse = true
  const { store, driver } = open(q => q === SCHEMA[0] && refuse ? Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) : [])
  await t.rejects(store.init(), StoreUnavailableError)
  refuse = false
  await store.init()
  t.equal(driver.sent(SCHEMA[0]).length, 2)
  t.equal(driver.sent(SCHEMA.at(-1) ?? '').length, 1)
})

t.test('close closes the driver', async t => {
  const { store, driver } = open()
  await store.close()
  t.equal(driver.closed, true)
})

t.test('consolidation: conversations, subject and attribute, flagged facts and the promotion filters go as parameters', async t => {
  const { store, driver } = open((q, p) => {
    if (q === Q.mergeFact) return [rec({ id: F1, created: false })]
    if (q === Q.fact || q === Q.findFact || q === Q.currentFacts) return [rec({ fact: factMap({ id: F1, claim: 'User lives in Rome', channel: 'cf', subject_id: E1, conversation_count: 3 }) })]
    if (q === Q.findEntities) return [rec({ entity: entityMap({ id: E1, name: 'User', channel: 'cf' }) })]
    if (q === Q.countFacts) return [rec({ total: neo4j.int(0) })]
  })
  const added = await store.addFact({ claim: 'User lives in Rome', claim_hash: 'h', source: 'extraction', channel: 'cf', confidence: 0.9, subject_id: E1, attribute: 'lives_in', value: 'Rome', conversation_id: 'c2', flagged_for_review: true })
  t.match(driver.sent(Q.mergeFact)[0].params, { confidence: 0.9, subject_id: E1, attribute: 'lives_in', value: 'Rome', conversation_id: 'c2', flagged_for_review: true })
  t.match(added.fact, { subject_id: E1, attribute: 'lives_in', value: 'Rome', conversation_count: 3 })
  t.match(Q.mergeFact, /ON MATCH SET f\.confidence = CASE WHEN \$confidence > f\.confidence/, 'a restatement keeps the higher confidence')
  await store.addFact({ claim: 'x', claim_hash: 'x', source: 'extraction', channel: 'cf', conversation_id: '' })
  t.equal(driver.sent(Q.mergeFact)[1].params.conversation_id, null, 'no conversation: nothing counted')
  t.same((await store.findEntities({ channels: ['cf', '_global'], name: '  user ', limit: 3 })).map(e => e.id), [E1])
  t.same(driver.sent(Q.findEntities)[0].params, { channels: ['cf', '_global'], name: 'user', limit: neo4j.int(3) })
  t.same(await store.findEntities({ channels: [], name: 'user', limit: 3 }), [])
  t.equal((await store.findFact({ channels: ['cf'], claim_hash: 'h' }))?.id, F1)
  t.same(driver.sent(Q.findFact)[0].params, { channels: ['cf'], claim_hash: 'h' })
  t.equal((await store.currentFacts({ channels: ['cf'], subject_id: E1, attribute: 'lives_in' }))[0].value, 'Rome')
  t.same(driver.sent(Q.currentFacts)[0].params, { channels: ['cf'], subject_id: E1, attribute: 'lives_in' })
  await store.facts({ exclude_channel: '_global', flagged: false, min_access_count: 2, min_conversations: 2, offset: 0, limit: 5 })
  t.match(driver.sent(Q.countFacts)[0].params, { exclude_channel: '_global', flagged: false, min_access_count: neo4j.int(2), min_conversations: neo4j.int(2) })
  t.match(Q.supersede, /old\.temporal_context = 'past'/, 'a superseded fact becomes past')
})

t.test('write API: an entity edit sends only what the patch sets; a name another entity has is an EntityConflictError', async t => {
  let clash = false
  const { store, driver } = open(q => {
    if (q === Q.entityForUpdate) return [rec({ name: 'Ada', type: 'Person', channel: 'wr', dims: neo4j.int(8) })]
    if (q === Q.entityClash) return clash ? [rec({ id: 'other' })] : []
    if (q === Q.updateEntityFields) return [rec({ entity: entityMap({ id: E1, name: 'Ada L', channel: 'wr' }) })]
    if (q === Q.updateFact) return [rec({ fact: factMap({ id: F1, claim: 'x', channel: 'wr' }) })]
    if (q === Q.deleteFact || q === Q.deleteEntity) return [rec({ n: neo4j.int(1) })]
  })
  t.equal((await store.updateEntity(E1, { name: 'Ada L', embedding: { vector: [0, 3, 4], embedder: 'n' } }))?.name, 'Ada L')
  t.same(driver.sent(Q.entityClash)[0].params, { id: E1, channel: 'wr', name: 'Ada L', type: 'Person' })
  t.same(driver.sent(Q.updateEntityFields)[0].params, {
    id: E1, name: 'Ada L', type: 'Person', set_aliases: false, aliases: [], alias_text: '', set_description: false, description: null,
    set_properties: false, properties: '{}', salience: null, vector: { vec_8: null, embedder: 'n', embedding_dims: neo4j.int(3), vec_3: [0, 0.6, 0.8] },
  }, 'the old size\'s vector removed, the new one stored')
  clash = true
  await t.rejects(store.updateEntity(E1, { name: 'Taken' }), EntityConflictError)
  t.equal(driver.sent(Q.updateEntityFields).length, 1, 'nothing written')
  await store.updateFact(F1, { temporal_context: null })
  t.same(driver.sent(Q.updateFact)[0].params, { id: F1, confidence: null, set_temporal_context: true, temporal_context: null, salience: null, flagged_for_review: null })
  t.equal(await store.deleteFact(F1), true)
  t.equal(await store.deleteEntity(E1), true)
})

t.test('copies: a turn in its Conversation with Integer index and counts, its vector in the property of its size; an absent vector is left alone', async t => {
  const { store, driver } = open(q => q === CQ.upsertTurn ? [rec({ id: 't1' })] : [])
  const turn = { id: 't1', conversation_id: 'conv', index: 3, timestamp: '2026-03-01T10:00:00.000Z', role: 'user', content: "it's Rome') DETACH DELETE n //", token_count: 7, metadata: { source: 'api' }, channel: 'work', embedder: 'e4' }
  await store.upsertTurn(turn, { vector: [0, 3, 4, 0], embedder: 'e4' })
  await store.upsertTurn({ ...turn, token_count: null })
  t.equal(driver.sent(vectorIndexStatement('turn', 4)).length, 1, 'the Turn vector index, created once')
  const [first, second] = driver.sent(CQ.upsertTurn)
  t.equal(first.mode, 'WRITE')
  t.same(first.params, {
    id: 't1', conversation_id: 'conv', index: neo4j.int(3), timestamp: '2026-03-01T10:00:00.000Z', role: 'user', content: turn.content,
    token_count: neo4j.int(7), metadata: '{"source":"api"}', channel: 'work', vector: { embedder: 'e4', embedding_dims: neo4j.int(4), vec_4: [0, 0.6, 0.8, 0] },
  }, 'the text only as a parameter')
  t.same(second.params.vector, {}, 'no embedding: the stored vector stays')
  t.equal(second.params.token_count, null)
  t.match(CQ.upsertTurn, /MERGE \(c\)-\[:HAS_TURN\]->\(t\)/)
  t.match(CQ.upsertTurn, /MERGE \(b\)-\[:NEXT\]->\(t\)/)
  t.match(CQ.upsertTurn, /MERGE \(t\)-\[:NEXT\]->\(a\)/)
})

t.test('copies: goals with their status and parent (SUBGOAL_OF both ways round), strategies with Integer counts', async t => {
  const { store, driver } = open(q => q === CQ.adoptSubgoals ? [rec({ n: neo4j.int(0) })] : [rec({ id: 'x' })])
  await store.upsertGoal({ id: 'g2', description: 'ship it', status: 'blocked', priority: 2, parent_goal_id: 'g1', created_at: '2026-03-01T10:00:00.000Z', deadline: '2026-04-01T00:00:00.000Z', channel: 'work' })
  t.same(driver.sent(CQ.upsertGoal)[0].params, { id: 'g2', description: 'ship it', status: 'blocked', priority: neo4j.int(2), parent_goal_id: 'g1', created_at: '2026-03-01T10:00:00.000Z', deadline: '2026-04-01T00:00:00.000Z', channel: 'work', vector: {} }, 'priority an Integer, as SQL keeps it')
  t.same(driver.sent(CQ.adoptSubgoals)[0].params, { id: 'g2' }, 'children copied before it are linked to it')
  t.equal(driver.sent(CQ.adoptSubgoals)[0].mode, 'WRITE')
  await store.upsertStrategy({ id: 's1', description: 'search then fetch', context_pattern: 'find', tool_sequence: ['search', 'fetch'], success_count: 4, failure_count: 1, last_used: null, channel: 'work' })
  t.same(driver.sent(CQ.upsertStrategy)[0].params, { id: 's1', description: 'search then fetch', context_pattern: 'find', tool_sequence: ['search', 'fetch'], success_count: neo4j.int(4), failure_count: neo4j.int(1), last_used: null, channel: 'work', vector: {} })
})

t.test('removeCopy: a conversation with its turns, a goal, a strategy; Integer counts summed', async t => {
  const { store, driver } = open(q => {
    if (q === CQ.removeConversationTurns) return [rec({ n: neo4j.int(4) })]
    if (q === CQ.removeConversation) return [rec({ n: neo4j.int(1) })]
    if (q === CQ.removeGoal) return [rec({ n: neo4j.int(1) })]
    if (q === CQ.removeStrategy) return [rec({ n: neo4j.int(0) })]
  })
  t.equal(await store.removeCopy('conversation', 'conv'), 5)
  t.same(driver.sent(CQ.removeConversationTurns)[0].params, { id: 'conv' })
  t.equal(await store.removeCopy('goal', 'g'), 1)
  t.equal(await store.removeCopy('strategy', 's'), 0, 'none: 0')
  await t.rejects(store.removeCopy('fact' as 'goal', 'x'), /no copies of kind "fact"/)
})

t.test('searchTurns: the turn full-text index with the query\'s words only; Integer and DateTime mapped', async t => {
  const { store, driver } = open(q => q === CQ.searchTurns
    ? [rec({ turn: { id: 't1', conversation_id: 'conv', index: neo4j.int(2), timestamp: dt('2026-03-01T10:00:00.000Z', 123), role: 'assistant', content: 'Okafor', token_count: neo4j.int(3), metadata: '{"a":1}', channel: 'work', embedder: null }, score: 1.5 })]
    : [])
  const r = await store.searchTurns({ text: 'Okafor" OR *:*', channels: ['work', '_global'], limit: 5 })
  t.same(r, [{ id: 't1', conversation_id: 'conv', index: 2, timestamp: '2026-03-01T10:00:00.000Z', role: 'assistant', content: 'Okafor', token_count: 3, metadata: { a: 1 }, channel: 'work', embedder: null, score: 1.5 }])
  t.same(driver.sent(CQ.searchTopTurns)[0].params, { index: 'agentd_turn_text', query: 'okafor or', channels: ['work', '_global'], limit: neo4j.int(5), k: neo4j.int(100) }, 'the top matches first')
  t.same(driver.sent(CQ.searchTurns)[0].params, { index: 'agentd_turn_text', query: 'okafor or', channels: ['work', '_global'], limit: neo4j.int(5) }, 'then, too few in the channels, every match')
  t.same(await store.searchTurns({ text: '*** ()', channels: ['work'], limit: 5 }), [], 'no words: no query')
  t.equal(driver.sent(CQ.searchTurns).length, 1)
})
