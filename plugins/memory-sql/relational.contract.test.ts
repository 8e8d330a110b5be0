// The relational store contract, run against every SQL backend: embedded PGlite and the
// real PostgreSQL 15 (without pgvector here, so its exact-cosine fallback is what runs).
import t from 'tap'
import { sql } from 'kysely'
import { SQL_BACKENDS } from '../../test/memory/sql-targets.ts'
import { axis, unit } from '../../test/memory/vectors.ts'
import { SqlRelationalStore } from './relational-store.ts'
import { migrate } from '@agentd/sdk/kits/sql'
import { relationalMigrations } from './migrations.ts'

const E = 'test-embedder'
const emb = (a: number, nudge = 0): { vector: number[], embedder: string } => ({ vector: axis(8, a, nudge), embedder: E })

for (const backend of SQL_BACKENDS) {
  t.test(`relational store on ${backend.name}`, async t => {
    const h = await backend.open(t)
    const store = new SqlRelationalStore(h)
    await store.init()

    t.test('migrations are versioned and safe to run twice', async t => {
      const again = await migrate(h.db, 'relational', relationalMigrations, { vectorType: 'real[]' })
      t.same(again, [], 'nothing re-applied')
      await new SqlRelationalStore(h).init()
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM agentd_migrations WHERE component = 'relational'`.execute(h.db)
      t.equal(r.rows[0].n, relationalMigrations.length)
    })

    t.test('health names the backend; the fallback carries a warning', async t => {
      const hl = await store.health()
      t.equal(hl.status, 'healthy')
      t.equal(hl.backend, backend.name)
      if (backend.name === 'postgres') t.match(hl.warning, /pgvector/)
      else t.equal(hl.warning, undefined, 'pglite has pgvector')
    })

    t.test('turns get consecutive indexes per conversation, also when written at once', async t => {
      await Promise.all(Array.from({ length: 8 }, (_, i) => store.addTurn({ conversation_id: 'c-par', role: 'user', content: `m${i}`, channel: 'a' })))
      const turns = await store.conversationTurns('c-par', 100)
      t.same(turns.map(x => x.index), [0, 1, 2, 3, 4, 5, 6, 7])
      const last = await store.conversationTurns('c-par', 3)
      t.same(last.map(x => x.index), [5, 6, 7], 'the last N, oldest first')
      t.equal(turns[0].conversation_id, 'c-par')
      t.match(turns[0].timestamp, /^\d{4}-\d\d-\d\dT/)
    })

    t.test('a turn keeps its metadata, token count and embedder', async t => {
      const turn = await store.addTurn({ conversation_id: 'c-meta', role: 'assistant', content: 'hi', channel: 'a', token_count: 3, metadata: { model: 'm', latency_ms: 12.5 }, embedding: emb(1) })
      t.same(turn.metadata, { model: 'm', latency_ms: 12.5 })
      t.equal(turn.token_count, 3)
      t.equal(turn.embedder, E)
    })

    t.test('similar turns: nearest first, only the asked channels and this embedder', async t => {
      await store.addTurn({ conversation_id: 's1', role: 'user', content: 'near', channel: 'sim-a', embedding: emb(2, 0.1) })
      await store.addTurn({ conversation_id: 's1', role: 'user', content: 'far', channel: 'sim-a', embedding: emb(5) })
      await store.addTurn({ conversation_id: 's2', role: 'user', content: 'other channel', channel: 'sim-b', embedding: emb(2) })
      await store.addTurn({ conversation_id: 's1', role: 'user', content: 'other embedder', channel: 'sim-a', embedding: { vector: axis(8, 2), embedder: 'other' } })
      await store.addTurn({ conversation_id: 's1', role: 'user', content: 'other size', channel: 'sim-a', embedding: { vector: axis(4, 2), embedder: E } })
      const res = await store.similarTurns({ embedding: emb(2), channels: ['sim-a'], limit: 10 })
      t.same(res.map(r => r.content), ['near', 'far'])
      t.ok(res[0].score > 0.99 && res[0].score <= 1.0001, `cosine ${res[0].score}`)
      t.ok(Math.abs(res[1].score) < 1e-6)
      const both = await store.similarTurns({ embedding: emb(2), channels: ['sim-a', 'sim-b'], limit: 1 })
      t.same(both.map(r => r.content), ['other channel'])
    })

    t.test('scores are the exact cosine, best first, for any dimension', async t => {
      // 21: both loops of agentd_dot (16 unrolled + 5 single); 384: unrolled only (the real[] fallback).
      let seed = 7
      const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff - 0.5 }
      for (const dims of [21, 384]) {
        const channel = `exact-${dims}`
        const vecs = Array.from({ length: 25 }, () => unit(Array.from({ length: dims }, rnd)))
        for (const [i, v] of vecs.entries()) await store.addTurn({ conversation_id: channel, role: 'user', content: String(i), channel, embedding: { vector: v, embedder: E } })
        const q = unit(Array.from({ length: dims }, rnd))
        const want = vecs.map((v, i) => ({ i: String(i), score: v.reduce((s, x, k) => s + x * q[k], 0) })).sort((a, b) => b.score - a.score).slice(0, 10)
        const got = await store.similarTurns({ embedding: { vector: q, embedder: E }, channels: [channel], limit: 10 })
        t.same(got.map(r => r.content), want.map(w => w.i), `${dims} dims: the order of the exact cosine`)
        t.ok(got.every((r, k) => Math.abs(r.score - want[k].score) < 1e-5), `${dims} dims: scores match`)
      }
    })

    t.test('a small channel in a crowded table still gets its nearest turns', async t => {
      for (let i = 0; i < 400; i++) await store.addTurn({ conversation_id: `crowd-${i % 20}`, role: 'user', content: `crowd ${i}`, channel: 'crowd', embedding: emb(7, i / 4000) })
      for (const c of ['s1', 's2', 's3']) await store.addTurn({ conversation_id: 'small', role: 'user', content: c, channel: 'small', embedding: emb(3) })
      const res = await store.similarTurns({ embedding: emb(7), channels: ['small'], limit: 3 })
      t.same(res.map(r => r.content).sort(), ['s1', 's2', 's3'])
    })

    t.test('recent turns: newest first, channel filtered', async t => {
      await store.addTurn({ conversation_id: 'r1', role: 'user', content: 'old', channel: 'rec' })
      await store.addTurn({ conversation_id: 'r1', role: 'user', content: 'new', channel: 'rec' })
      const res = await store.recentTurns(['rec'], 5)
      t.same(res.map(r => r.content), ['new', 'old'])
    })

    t.test('recent turns of several channels: merged newest first, cut to the limit, a channel named twice counted once', async t => {
      // Explicit times a second apart: two writes in the same millisecond would tie.
      const order = [['ra', 'a1'], ['rb', 'b1'], ['ra', 'a2'], ['rc', 'c1'], ['rb', 'b2'], ['ra', 'a3']]
      for (const [i, [channel, content]] of order.entries()) {
        await store.addTurn({ conversation_id: `m-${channel}`, role: 'user', content, channel, timestamp: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString() })
      }
      t.same((await store.recentTurns(['ra', 'rb', 'ra'], 4)).map(r => r.content), ['a3', 'b2', 'a2', 'b1'])
      t.same((await store.recentTurns(['rb', 'rc'], 10)).map(r => r.content), ['b2', 'c1', 'b1'])
    })

    t.test('deleting a conversation removes its turns and says how many', async t => {
      await store.addTurn({ conversation_id: 'del-me', role: 'user', content: 'x', channel: 'a' })
      await store.addTurn({ conversation_id: 'del-me', role: 'assistant', content: 'y', channel: 'a' })
      await store.addToolInvocation({ conversation_id: 'del-me', tool: 't', arguments: {}, result: 'r', is_error: false, duration_ms: 1, channel: 'a' })
      t.same(await store.deleteConversation('del-me'), { turns: 2, conversations: 1, tool_invocations: 1 })
      t.same(await store.conversationTurns('del-me', 10), [])
      t.equal(await store.deleteConversation('del-me'), null, 'unknown now')
    })

    t.test('goals: stored with defaults, filtered by channel and status', async t => {
      const g = await store.addGoal({ description: 'ship it', channel: 'g1' })
      t.equal(g.status, 'active')
      t.equal(g.priority, 3)
      await store.addGoal({ description: 'done one', channel: 'g1', status: 'completed', priority: 5 })
      await store.addGoal({ description: 'elsewhere', channel: 'g2' })
      const active = await store.goals({ channels: ['g1'], status: 'active', limit: 10 })
      t.same(active.map(x => x.description), ['ship it'])
    })

    t.test('strategies: search is literal for quotes, %, _, backslashes and Unicode', async t => {
      const texts = ['100% sure', 'snake_case', 'back\\slash', "it's quoted", 'naïve café 日本', 'plain']
      for (const d of texts) await store.addStrategy({ description: d, context_pattern: 'p', channel: 'st', tool_sequence: ['a', 'b'] })
      const find = async (s: string): Promise<string[]> => (await store.strategies({ channel: 'st', search: s, offset: 0, limit: 50 })).items.map(x => x.description).sort()
      t.same(await find('%'), ['100% sure'])
      t.same(await find('_'), ['snake_case'])
      t.same(await find('\\'), ['back\\slash'])
      t.same(await find("'"), ["it's quoted"])
      t.same(await find('CAFÉ'), ['naïve café 日本'])
      t.same(await find('日本'), ['naïve café 日本'])
      t.same(await find("'; DROP TABLE strategies; --"), [])
      const page = await store.strategies({ channel: 'st', offset: 2, limit: 2 })
      t.equal(page.total, 6)
      t.equal(page.items.length, 2)
      t.same(page.items[0].tool_sequence, ['a', 'b'])
    })

    t.test('similar strategies by vector', async t => {
      await store.addStrategy({ description: 'v-near', context_pattern: 'x', channel: 'sv', embedding: emb(3) })
      await store.addStrategy({ description: 'v-far', context_pattern: 'x', channel: 'sv', embedding: emb(6) })
      const res = await store.similarStrategies({ embedding: emb(3, 0.2), channels: ['sv'], limit: 1 })
      t.same(res.map(s => s.description), ['v-near'])
    })

    t.test('tool invocations are listed per conversation in order', async t => {
      await store.addToolInvocation({ conversation_id: 'ti', tool: 'a', arguments: { x: 1 }, result: '1', is_error: false, duration_ms: 2, channel: 'a' })
      await store.addToolInvocation({ conversation_id: 'ti', tool: 'b', arguments: {}, result: 'boom', is_error: true, duration_ms: null, channel: 'a' })
      // Inserted within the same millisecond: order must come from insertion, not the clock.
      for (const tool of ['c', 'd', 'e', 'f']) await store.addToolInvocation({ conversation_id: 'ti', tool, arguments: {}, result: '', is_error: false, duration_ms: 0, channel: 'a' })
      const list = await store.toolInvocations({ conversation_id: 'ti', limit: 10 })
      t.same(list.map(x => [x.tool, x.is_error]), [['a', false], ['b', true], ['c', false], ['d', false], ['e', false], ['f', false]])
      t.same(list[0].arguments, { x: 1 })
    })

    t.test('channels: _global and _default exist, create is idempotent, delete removes only that channel', async t => {
      const names = (await store.channels()).map(c => c.name)
      t.ok(names.includes('_global') && names.includes('_default'))
      t.equal((await store.createChannel('chan-a')).created, true)
      t.equal((await store.createChannel('chan-a')).created, false)
      await store.addTurn({ conversation_id: 'ca', role: 'user', content: 'in a', channel: 'chan-a' })
      await store.addStrategy({ description: 's', context_pattern: 'p', channel: 'chan-a' })
      await store.addTurn({ conversation_id: 'cb', role: 'user', content: 'in b', channel: 'chan-b' })
      const counts = await store.countByChannel()
      t.equal(counts['chan-a'].turns, 1)
      t.equal(counts['chan-a'].strategies, 1)
      const del = await store.deleteChannel('chan-a')
      t.same(del, { turns: 1, conversations: 1, strategies: 1, goals: 0, tool_invocations: 0, channels: 1 })
      const after = await store.countByChannel()
      t.equal(after['chan-a'], undefined)
      t.equal(after['chan-b'].turns, 1)
      t.notOk((await store.channels()).some(c => c.name === 'chan-a'))
    })

    t.test('audit log keeps 30 days', async t => {
      await store.audit({ action: 'old', channel: 'a' })
      await store.audit({ action: 'new', details: { n: 1 } })
      await sql`UPDATE memory_audit_log SET at = now() - interval '31 days' WHERE action = 'old'`.execute(h.db)
      t.equal(await store.pruneAudit(30), 1)
      const log = await store.auditLog(10)
      t.same(log.map(e => e.action), ['new'])
      t.same(log[0].details, { n: 1 })
    })

    t.test('embedder usage counts the vectors each embedder made', async t => {
      const usage = await store.embedderUsage()
      const mine = usage.find(u => u.embedder === E && u.dimensions === 8)
      t.ok(mine !== undefined && mine.count > 0)
      t.ok(usage.some(u => u.embedder === 'other'))
    })
  })
}
