// agentd with NEO4J_URI pointing at a real Neo4j 5 (test/neo4j/server.ts), through its
// HTTP API: chats with memory while Neo4j is stopped and started again (the chats keep
// working; every turn's copy reaches Neo4j afterwards from the copy outbox), consolidation
// writing entities, facts, supersession and promotion into Neo4j, and a channel's deletion
// counting what Neo4j removed.
import t from 'tap'
import neo4j from 'neo4j-driver'
import { startChat } from '../chat/helpers.ts'
import { memoryJobPlugins, repoPlugin } from '../helpers/workspace.ts'
import { until } from '../helpers/poll.ts'
import { postJson } from './memory-kernel.ts'
import { liveNeo4j, neo4jSkip } from '../neo4j/server.ts'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'

// The first Neo4j of a run waits for the launcher's JVM: on two busy cores that can take a minute.
t.setTimeout(300_000)

type Body = any // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

t.test('agentd on a real Neo4j', { skip: neo4jSkip() }, async t => {
  const server = await liveNeo4j(t)
  const { s, fake } = await startChat(t, {
    extra: [
      { name: 'embed-hash', module: repoPlugin('embed-hash') },
      { name: 'memory-sql', module: repoPlugin('memory-sql') },
      // Before memory-graph-sql: with NEO4J_URI set, it is the graph store.
      { name: 'memory-graph-neo4j', module: repoPlugin('memory-graph-neo4j'), options: { connect_timeout_ms: 1000, circuit_cooldown_ms: 200 } },
      { name: 'memory-graph-sql', module: repoPlugin('memory-graph-sql') },
      { name: 'memory-kv', module: repoPlugin('memory-kv') },
      { name: 'memory', module: repoPlugin('memory'), options: { outbox_max_retry_ms: 200 } },
      { name: 'recall-entity', module: repoPlugin('recall-entity') },
      { name: 'recall-hybrid', module: repoPlugin('recall-hybrid') },
      ...memoryJobPlugins(),
    ],
    env: server.env,
  })
  const svc = (): MemoryServiceImpl => s.kernel.current?.app.registry.memoryServices.first() as MemoryServiceImpl
  const driver = neo4j.driver(server.uri, neo4j.auth.basic(server.user, server.password))
  t.teardown(async () => { await driver.close() })
  const cypher = async (q: string, p: Record<string, unknown> = {}): Promise<Array<Record<string, unknown>>> => {
    const session = driver.session()
    try { return (await session.run(q, p)).records.map(r => r.toObject()) } finally { await session.close() }
  }
  const count = async (q: string, p: Record<string, unknown> = {}): Promise<number> => Number((await cypher(q, p))[0].n)
  const run = async (...jobs: string[]): Promise<Body> => {
    const r = await postJson(s, '/api/memory/consolidate', { jobs })
    t.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300))
    return r.body
  }
  const facts = async (q: string): Promise<Body[]> => (await s.json(`/api/memory/facts?limit=100&${q}`)).body.facts

  t.match((await s.json('/api/health?include_memory=true')).body.memory.neo4j, { backend: 'neo4j', status: 'healthy' }, 'Neo4j is the graph store')
  // The back-fill starts by itself with a graph store that keeps copies; nothing was written before, so it has nothing to copy.
  await until('the back-fill to be done', async () => (await s.json('/api/health?include_memory=true')).body.memory.graph_backfill?.status === 'done', 60_000)
  t.match((await s.json('/api/health?include_memory=true')).body.memory.graph_backfill, { status: 'done', copied: 0 }, 'its progress is in health')

  t.test('Neo4j stopped and started mid-chat: every chat answers, every turn is in SQL at once and in Neo4j once it is back', async t => {
    const chat = async (message: string, session?: string): Promise<string> => {
      fake.enqueue({ text: `noted: ${message}` })
      const res = await s.post('/api/agent/chat', { message, use_memory: true, channel: 'out', ...(session === undefined ? {} : { session_id: session }) })
      t.equal(res.status, 200, `the chat "${message}" answered`)
      return (await res.json() as { session_id: string }).session_id
    }
    const session = await chat('the first message, Neo4j up')
    await until('the first chat\'s turns in Neo4j', async () => await count("MATCH (t:Turn {channel: 'out'}) RETURN count(t) AS n") === 2)
    await server.stop()
    for (const m of ['said while Neo4j is away', 'and again while away']) await chat(m, session)
    await until('the four turns of the chats in SQL', async () => (await svc().ctx.relational?.conversationTurns(session, 20))?.length === 6)
    t.ok((svc().copies.outbox?.pending ?? 0) > 0, 'the copies wait in the outbox')
    await server.resume()
    await chat('Neo4j is back', session)
    await until('every turn copied to Neo4j', async () => await count("MATCH (t:Turn {channel: 'out'}) RETURN count(t) AS n") === 8, 60_000)
    const inSql = (await svc().ctx.relational?.conversationTurns(session, 20) ?? []).map(x => [x.index, x.id])
    const inNeo4j = (await cypher("MATCH (t:Turn {channel: 'out'}) RETURN t.index AS i, t.id AS id ORDER BY i")).map(x => [Number(x.i), x.id])
    t.same(inNeo4j, inSql, 'the same turns, under the same ids, once each')
    t.equal(await count("MATCH (:Turn {channel: 'out'})-[r:NEXT]->(:Turn) RETURN count(r) AS n"), 7, 'linked in order')
  })

  t.test('consolidation writes entities, facts, supersession and promotion into Neo4j', async t => {
    t.equal((await postJson(s, '/api/memory/settings', { extraction_mode: 'offline' })).status, 200)
    const say = async (conversation: string, channel: string, ...turns: string[]): Promise<void> => {
      for (const content of turns) await svc().episodic.addTurn({ conversation_id: conversation, role: 'user', content, channel })
    }
    await say('c1', 'sup', 'Hi! I work at Acme.', 'I live in Munich.')
    t.match((await run('consolidate')).results.consolidate, { facts_created: 2 }, 'the chat above gave none')
    await say('c2', 'sup', 'Big news: I joined Globex last week.', 'I moved to Berlin.')
    t.equal((await run('consolidate')).results.consolidate.facts_superseded, 2, 'employer and city')
    const graph = await cypher(`MATCH (f:Fact {channel: 'sup'})-[:ABOUT]->(e:Entity {channel: 'sup'})
      OPTIONAL MATCH (f)<-[:SUPERSEDES]-(n:Fact) RETURN f.claim AS claim, e.name AS about, f.superseded_at IS NOT NULL AS past, n.claim AS by ORDER BY claim`)
    t.same(graph.filter(x => x.about === 'User').map(x => [x.claim, x.past, x.by]), [
      ['The user lives in Berlin.', false, null],
      ['The user lives in Munich.', true, 'The user lives in Berlin.'],
      ['The user works at Acme.', true, 'The user works at Globex.'],
      ['The user works at Globex.', false, null],
    ], 'in Neo4j: the facts about the user, the old ones superseded by the new')
    t.ok(await count("MATCH (e:Entity {channel: 'sup', name: 'Globex'}) RETURN count(e) AS n") === 1, 'the employer is an entity')
    t.same((await facts('channel=sup')).map(f => f.claim).sort(), ['The user lives in Berlin.', 'The user works at Globex.'], 'the API lists the current ones')

    await say('q1', 'pro', "I'm allergic to peanuts.")
    await say('q2', 'pro', "I'm allergic to peanuts, remember that.")
    await run('consolidate')
    for (let i = 0; i < 5; i++) await postJson(s, '/api/memory/recall', { query: 'is the user allergic to peanuts', channel: 'pro' })
    await postJson(s, '/api/memory/settings', { promotion_min_entity_salience: 0.6 })
    const p = (await run('promote')).results.promote
    t.ok(p.facts_promoted >= 1 && p.entities_promoted >= 1, JSON.stringify(p))
    t.same(await cypher("MATCH (f:Fact {claim: 'The user is allergic to peanuts.'}) RETURN f.channel AS channel"), [{ channel: '_global' }], 'promoted in Neo4j: one fact, in _global')
    t.equal(await count("MATCH (e:Entity {channel: '_global', name: 'User'}) RETURN count(e) AS n"), 1, 'the users merged into one in _global')
    const elsewhere = (await postJson(s, '/api/memory/recall', { query: 'allergic to peanuts', channel: 'another' })).body
    t.ok(elsewhere.facts.some((x: Body) => x.claim === 'The user is allergic to peanuts.'), 'recalled from any channel')
  })

  t.test('deleting a channel removes its nodes from Neo4j and counts them', async t => {
    const ids = (await cypher("MATCH (n {channel: 'sup'}) RETURN count(n) AS n"))[0].n
    const nodes = Number(ids)
    const rels = await count("MATCH ()-[r:RELATES_TO {channel: 'sup'}]->() RETURN count(r) AS n")
    t.ok(nodes > 0)
    const res = await s.get('/api/memory/channels/sup', { method: 'DELETE' })
    t.equal(res.status, 200)
    const body = await res.json() as Body
    t.equal(body.deleted.graph_items, nodes + rels, 'every node and relationship of the channel, counted')
    t.equal(await count("MATCH (n {channel: 'sup'}) RETURN count(n) AS n"), 0, 'none is left')
    t.ok(await count("MATCH (n {channel: 'pro'}) RETURN count(n) AS n") > 0, 'another channel keeps its own')
  })
})
