// The memory endpoints on a real server with the embedded defaults (PGlite, in-process
// kv, embed-hash): shapes and limits of DECISIONS.md, channel isolation, abuse inputs.
import t from 'tap'
import { startMemoryKernel, del, postJson } from '../../test/memory/memory-kernel.ts'

t.test('memory API on the embedded defaults', async t => {
  const s = await startMemoryKernel(t)
  const svc = s.svc()

  t.test('channels: _global and _default exist; create 201, again 409, bad names 400', async t => {
    const list = await s.json('/api/memory/channels')
    t.equal(list.status, 200)
    const names = list.body.channels.map((c: { name: string }) => c.name)
    t.ok(names.includes('_global') && names.includes('_default'))
    t.equal(list.body.channels.find((c: { name: string }) => c.name === '_default').is_default, true)
    t.same(Object.keys(list.body.channels[0].item_counts).sort(), ['entities', 'facts', 'goals', 'strategies', 'turns'])
    const created = await postJson(s, '/api/memory/channels', { name: 'work-1' })
    t.equal(created.status, 201)
    t.equal(created.body.name, 'work-1')
    t.ok(created.body.created_at)
    t.match(created.body.message, /created/)
    const again = await postJson(s, '/api/memory/channels', { name: 'work-1' })
    t.equal(again.status, 409)
    t.equal(again.body.code, 'AGENT_ERR_MEMORY_CHANNEL_EXISTS')
    t.equal((await postJson(s, '/api/memory/channels', { name: 'c'.repeat(64) })).status, 201, '64 characters is the limit')
    const all = await postJson(s, '/api/memory/channels', { name: '_all' })
    t.equal(all.status, 400, '_all is reserved (it means every channel in list filters)')
    t.equal((await svc.storeTurn({ conversation_id: 'x', role: 'user', content: 'y', channel: '_all' })).stored, false, 'and memory never stores under it')
    for (const bad of ['../etc', 'has space', 'x'.repeat(300), 'x'.repeat(65), '', 'semi;colon', "quote'", 'ünï']) {
      const r = await postJson(s, '/api/memory/channels', { name: bad })
      t.equal(r.status, 400, `"${bad.slice(0, 20)}" -> 400`)
      t.equal(r.body.statusCode, 400)
    }
  })

  t.test('deleting _global is refused, an unknown channel is 404, a bad name 400', async t => {
    t.equal((await del(s, '/api/memory/channels/_global')).status, 400)
    t.equal((await del(s, '/api/memory/channels/nope-never')).status, 404)
    t.equal((await del(s, `/api/memory/channels/${'y'.repeat(300)}`)).status, 400)
    t.equal((await del(s, '/api/memory/channels/..%2F..%2Fetc')).status, 400)
    t.equal((await del(s, '/api/memory/channels/a%20b')).status, 400)
  })

  t.test('channel isolation: A and B see their own and _global; deleting A leaves B', async t => {
    await svc.episodic.addTurn({ conversation_id: 'conv-a', role: 'user', content: 'My cat is called Whiskers', channel: 'iso-a' })
    await svc.episodic.addTurn({ conversation_id: 'conv-b', role: 'user', content: 'My cat is called Felix', channel: 'iso-b' })
    await svc.episodic.addTurn({ conversation_id: 'conv-g', role: 'user', content: 'My cat likes tuna', channel: '_global' })
    await svc.semantic.addFact({ claim: 'The cat Whiskers is grey', channel: 'iso-a' })
    await svc.semantic.addFact({ claim: 'The cat Felix is black', channel: 'iso-b' })
    await svc.semantic.addEntity({ name: 'Whiskers', type: 'Animal', channel: 'iso-a' })
    const recallIn = async (channel: string): Promise<{ turns: string[], facts: string[], context: string }> => {
      const r = await postJson(s, '/api/memory/recall', { query: 'what is my cat called', top_k: 10, channel })
      t.equal(r.status, 200)
      return { turns: r.body.relevant_turns.map((x: { content: string }) => x.content), facts: r.body.facts.map((x: { claim: string }) => x.claim), context: r.body.context }
    }
    const a = await recallIn('iso-a')
    t.ok(a.turns.includes('My cat is called Whiskers') && a.turns.includes('My cat likes tuna'))
    t.notOk(a.turns.includes('My cat is called Felix'))
    t.same(a.facts, ['The cat Whiskers is grey'])
    t.match(a.context, /Whiskers/)
    t.notMatch(a.context, /Felix/)
    const b = await recallIn('iso-b')
    t.ok(b.turns.includes('My cat is called Felix') && b.turns.includes('My cat likes tuna'))
    t.notOk(b.turns.includes('My cat is called Whiskers'))

    const gone = await del(s, '/api/memory/channels/iso-a')
    t.equal(gone.status, 200)
    t.match(gone.body.deleted, { turns: 1, facts: 1, entities: 1, conversations: 1, strategies: 0, goals: 0 })
    t.ok(gone.body.deleted.postgres_rows >= 4)
    t.equal(gone.body.deleted.redis_keys, 0, 'memory keeps no key-value copy of a conversation')
    const a2 = await recallIn('iso-a')
    t.same(a2.turns, ['My cat likes tuna'], 'only _global is left for A')
    const b2 = await recallIn('iso-b')
    t.ok(b2.turns.includes('My cat is called Felix'), 'B is intact')
    const stats = await s.json('/api/memory/stats')
    t.equal(stats.body.by_channel['iso-a'], undefined)
    t.equal(stats.body.by_channel['iso-b'].turns, 1)
  })

  t.test('recall: shape, top_k limits, timings, token budget', async t => {
    await svc.episodic.addTurn({ conversation_id: 'conv-r', role: 'user', content: 'I prefer green tea in the morning', channel: 'rc' })
    await svc.procedural.addGoal({ description: 'Learn Portuguese', channel: 'rc' })
    await svc.procedural.addStrategy({ description: 'Check the weather before planning', context_pattern: 'trip|travel', tool_sequence: ['weather'], channel: 'rc' })
    const r = await postJson(s, '/api/memory/recall', { query: 'what tea do I like in the morning', channel: 'rc' })
    t.equal(r.status, 200)
    for (const k of ['relevant_turns', 'entities', 'facts', 'strategies', 'active_goals', 'user_context', 'context', 'techniques', 'timings_ms']) t.ok(k in r.body, k)
    t.equal(r.body.relevant_turns[0].content, 'I prefer green tea in the morning')
    t.same(r.body.active_goals.map((g: { description: string }) => g.description), ['Learn Portuguese'])
    t.same(r.body.techniques, ['vector_recency'])
    t.type(r.body.timings_ms.total, 'number')
    t.match(r.body.context, /green tea/)
    const small = await postJson(s, '/api/memory/recall', { query: 'tea', channel: 'rc', token_budget: 20 })
    t.ok(small.body.context.length / 4 <= 20 + 15, 'rendered within the budget (plus its one-line header)')
    // top_k cuts the turns recalled: five turns match, two come back, the best two.
    for (let i = 0; i < 5; i++) await svc.episodic.addTurn({ conversation_id: `conv-k${i}`, role: 'user', content: `green tea note number ${i}`, channel: 'rk' })
    const all = await postJson(s, '/api/memory/recall', { query: 'green tea note', channel: 'rk', top_k: 10 })
    t.equal(all.body.relevant_turns.length, 5, 'all five with room for ten')
    const two = await postJson(s, '/api/memory/recall', { query: 'green tea note', channel: 'rk', top_k: 2 })
    t.equal(two.status, 200)
    t.same(two.body.relevant_turns.map((x: { id: string }) => x.id), all.body.relevant_turns.slice(0, 2).map((x: { id: string }) => x.id), 'top_k 2: the first two of the full ranking')
    for (const bad of [{ query: 'x', top_k: 0 }, { query: 'x', top_k: 51 }, { query: '' }, { top_k: 3 }, { query: 'x', channel: '../x' }, { query: 'x', extra: 1 }]) {
      t.equal((await postJson(s, '/api/memory/recall', bad)).status, 400, JSON.stringify(bad))
    }
  })

  t.test('lists: envelope, pagination limits and literal search', async t => {
    for (const claim of ['100% organic', 'snake_case rules', 'C:\\path\\to', "Bob's café 東京", 'plain fact']) await svc.semantic.addFact({ claim, channel: 'ls', confidence: 0.9 })
    await svc.semantic.addFact({ claim: 'a shaky fact', channel: 'ls', confidence: 0.2 })
    const facts = await s.json('/api/memory/facts?channel=ls&limit=2&page=2')
    t.equal(facts.status, 200)
    t.match(facts.body, { total: 6, page: 2, limit: 2, has_next: true })
    t.equal(facts.body.facts.length, 2)
    const search = async (q: string): Promise<string[]> => {
      const r = await s.json(`/api/memory/facts?channel=ls&search=${encodeURIComponent(q)}`)
      t.equal(r.status, 200, `search ${q}`)
      return r.body.facts.map((f: { claim: string }) => f.claim)
    }
    t.same(await search('%'), ['100% organic'])
    t.same(await search('_'), ['snake_case rules'])
    t.same(await search('\\'), ['C:\\path\\to'])
    t.same(await search("'"), ["Bob's café 東京"])
    t.same(await search('CAFÉ'), ["Bob's café 東京"])
    t.same(await search("' OR 1=1 --"), [])
    t.same(await search('"; DROP TABLE facts; --'), [])
    const conf = await s.json('/api/memory/facts?channel=ls&min_confidence=0.5')
    t.equal(conf.body.total, 5)
    for (const bad of ['limit=101', 'limit=0', 'page=0', 'min_confidence=1.5', 'min_confidence=-0.1', 'channel=..%2Fx', `channel=${'z'.repeat(300)}`, 'unknown=1', 'page=abc']) {
      const r = await s.json(`/api/memory/facts?${bad}`)
      t.equal(r.status, 400, bad)
    }
    await svc.semantic.addEntity({ name: 'Acme_Corp', type: 'Organization', channel: 'ls' })
    await svc.semantic.addEntity({ name: 'Acme Inc', type: 'Organization', channel: 'ls' })
    await svc.semantic.addEntity({ name: 'Alice', type: 'Person', channel: 'ls' })
    const ents = await s.json('/api/memory/entities?channel=ls&search=_')
    t.same(ents.body.entities.map((e: { name: string }) => e.name), ['Acme_Corp'])
    const people = await s.json('/api/memory/entities?channel=ls&type=Person')
    t.match(people.body, { total: 1, page: 1, limit: 20, has_next: false })
    const all = await s.json('/api/memory/entities?search=%25')
    t.equal(all.status, 200, 'channel defaults to _all')
    const strategies = await s.json('/api/memory/strategies?channel=rc')
    t.equal(strategies.body.strategies[0].description, 'Check the weather before planning')
    t.equal((await s.json('/api/memory/strategies?limit=500')).status, 400)
  })

  t.test('entity graph: depth default 2, 1-3 only, unknown id 404', async t => {
    const ada = (await svc.semantic.addEntity({ name: 'Ada', type: 'Person', channel: 'gr' })).entity
    const babbage = (await svc.semantic.addEntity({ name: 'Babbage', type: 'Person', channel: 'gr' })).entity
    const engine = (await svc.semantic.addEntity({ name: 'Analytical Engine', type: 'Concept', channel: 'gr' })).entity
    await svc.semantic.relate({ source_id: ada.id, target_id: babbage.id, type: 'worked_with', channel: 'gr' })
    await svc.semantic.relate({ source_id: babbage.id, target_id: engine.id, type: 'designed', channel: 'gr' })
    await svc.semantic.addFact({ claim: 'Ada wrote the first program', entity_ids: [ada.id], channel: 'gr' })
    const g = await s.json(`/api/memory/entities/${ada.id}/graph`)
    t.equal(g.status, 200)
    t.equal(g.body.depth, 2)
    t.equal(g.body.entity.name, 'Ada')
    t.same(g.body.facts.map((f: { claim: string }) => f.claim), ['Ada wrote the first program'])
    t.same(g.body.relationships.map((r: { type: string }) => r.type).sort(), ['designed', 'worked_with'])
    t.match(g.body.relationships.find((r: { type: string }) => r.type === 'worked_with'), { direction: 'outgoing', target: { name: 'Babbage', type: 'Person' } })
    const g1 = await s.json(`/api/memory/entities/${ada.id}/graph?depth=1`)
    t.equal(g1.body.relationships.length, 1)
    for (const d of ['0', '4', 'x']) t.equal((await s.json(`/api/memory/entities/${ada.id}/graph?depth=${d}`)).status, 400, `depth ${d}`)
    t.match(g.body, { limit: 500, truncated: false })
    t.match((await s.json(`/api/memory/entities/${ada.id}/graph?limit=1`)).body, { limit: 1, truncated: true, relationships: [{ type: 'worked_with' }] }, 'cut at limit, and said so')
    for (const l of ['0', '2001', 'x']) t.equal((await s.json(`/api/memory/entities/${ada.id}/graph?limit=${l}`)).status, 400, `limit ${l}`)
    t.equal((await s.json('/api/memory/entities/00000000-0000-0000-0000-000000000000/graph')).status, 404)
    t.equal((await s.json('/api/memory/entities/not-a-uuid/graph')).status, 404)
    t.equal((await s.json(`/api/memory/entities/${encodeURIComponent("1' OR '1'='1")}/graph`)).status, 404)
  })

  t.test('facts: claim_hash dedupe and supersession through the service', async t => {
    const one = await svc.semantic.addFact({ claim: 'I live in Berlin.', channel: 'fx' })
    const two = await svc.semantic.addFact({ claim: '  i live in   berlin ', channel: 'fx' })
    t.equal(two.created, false)
    t.equal(two.fact.id, one.fact.id)
    const moved = await svc.semantic.supersedeFact(one.fact.id, { claim: 'I live in Lisbon' })
    t.equal(moved.fact.channel, 'fx')
    const list = await s.json('/api/memory/facts?channel=fx')
    t.same(list.body.facts.map((f: { claim: string }) => f.claim), ['I live in Lisbon'])
    const withOld = await s.json('/api/memory/facts?channel=fx&include_superseded=true')
    t.equal(withOld.body.total, 2)
    const r = await postJson(s, '/api/memory/recall', { query: 'where do I live', channel: 'fx' })
    t.same(r.body.facts.map((f: { claim: string }) => f.claim), ['I live in Lisbon'], 'recall leaves superseded facts out')
  })

  t.test('deleting _default empties it but keeps the channel', async t => {
    await svc.episodic.addTurn({ conversation_id: 'conv-def', role: 'user', content: 'no channel given' })
    const r = await del(s, '/api/memory/channels/_default')
    t.equal(r.status, 200)
    t.equal(r.body.deleted.turns, 1)
    const list = await s.json('/api/memory/channels')
    t.match(list.body.channels.find((c: { name: string }) => c.name === '_default'), { is_default: true, item_counts: { turns: 0 } })
  })

  t.test('deleting a conversation removes its turns; unknown is 404', async t => {
    await svc.episodic.addTurn({ conversation_id: 'conv-del', role: 'user', content: 'delete me please', channel: 'cd' })
    await svc.episodic.addTurn({ conversation_id: 'conv-del', role: 'assistant', content: 'ok', channel: 'cd' })
    const r = await del(s, '/api/memory/conversations/conv-del')
    t.equal(r.status, 200)
    t.match(r.body.deleted, { turns: 2, conversations: 1, redis_keys: 0 })
    t.equal((await del(s, '/api/memory/conversations/conv-del')).status, 404)
    t.equal((await del(s, `/api/memory/conversations/${encodeURIComponent("x'; DROP TABLE turns; --")}`)).status, 404)
  })

  t.test('stats and reset', async t => {
    const st = await s.json('/api/memory/stats')
    t.equal(st.status, 200)
    t.same(Object.keys(st.body.totals).sort(), ['entities', 'facts', 'strategies', 'turns'])
    t.ok(st.body.totals.facts > 0)
    const keep = await postJson(s, '/api/memory/reset', {})
    t.match(keep.body, { success: true, memories_deleted: 0 })
    const wipe = await postJson(s, '/api/memory/reset', { delete_memories: true })
    t.equal(wipe.status, 200)
    t.ok(wipe.body.memories_deleted > 0)
    const after = await s.json('/api/memory/stats')
    t.equal(after.body.totals.facts, 0)
    t.equal(after.body.totals.entities, 0)
    t.equal(after.body.totals.strategies, 0)
    t.ok(after.body.totals.turns > 0, 'turns are conversations, not consolidated memories')
    t.equal((await postJson(s, '/api/memory/reset', { delete_memories: 'yes' })).status, 400)
  })

  t.test('reset takes no body: none at all, or an empty one sent as JSON', async t => {
    for (const headers of [{}, { 'content-type': 'application/json' }] as Array<Record<string, string>>) {
      const r = await s.get('/api/memory/reset', { method: 'POST', headers })
      t.equal(r.status, 200, JSON.stringify(headers))
      t.match(await r.json(), { success: true, memories_deleted: 0 })
    }
  })

  t.test('NUL characters anywhere: stored marked, found by nothing, never a 500', async t => {
    const stored = await svc.storeTurn({ conversation_id: 'nul\u0000conv', role: 'user', content: 'before\u0000after', channel: 'nul', metadata: { note: 'a\u0000b', lit: 'back\\u0000slash' } })
    t.equal(stored.stored, true, stored.error ?? 'stored')
    t.equal(stored.turn?.content, 'before\uFFFDafter')
    t.same(stored.turn?.metadata, { note: 'a\uFFFDb', lit: 'back\\u0000slash' })
    await svc.semantic.addFact({ claim: 'nul\u0000fact', channel: 'nul' })
    // The NUL was stored as U+FFFD, and a search's NUL is marked the same way: it finds the
    // marked fact, and nothing that was never stored with one.
    t.same((await s.json('/api/memory/facts?channel=nul')).body.facts.map((f: { claim: string }) => f.claim), ['nul\uFFFDfact'])
    t.same((await s.json('/api/memory/facts?channel=nul&search=%00')).body.facts.map((f: { claim: string }) => f.claim), ['nul\uFFFDfact'], 'a NUL in a search is marked like the stored one')
    for (const [p, key] of [['/api/memory/entities?search=a%00b', 'entities'], ['/api/memory/strategies?search=%00', 'strategies'], ['/api/memory/entities?type=%00', 'entities']]) {
      const r = await s.json(p)
      t.equal(r.status, 200, p)
      t.same(r.body[key], [], `${p} finds nothing`)
    }
    t.equal((await s.json('/api/memory/entities/%00/graph')).status, 404)
    t.equal((await del(s, '/api/memory/conversations/%00')).status, 404)
    t.equal((await postJson(s, '/api/memory/recall', { query: 'a\u0000b', channel: 'nul' })).status, 200)
    t.equal((await postJson(s, '/api/memory/channels', { name: 'a\u0000b' })).status, 400)
  })

  t.test('health: memory only with include_memory, keyed by role', async t => {
    const plain = await s.json('/api/health')
    t.equal(plain.body.memory, undefined)
    const h = await s.json('/api/health?include_memory=true')
    t.equal(h.body.status, 'healthy')
    t.match(h.body.memory, {
      status: 'healthy',
      neo4j: { status: 'healthy', backend: 'pglite' },
      postgres: { status: 'healthy', backend: 'pglite' },
      redis: { status: 'healthy', backend: 'memory' },
      embedder: { id: 'hash-v2', dimensions: 384, status: 'ready' },
    })
  })
})
