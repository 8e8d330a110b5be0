// Degradation edges: a PostgreSQL that is down at start and comes up later, a role with
// no store loaded, and a database that does not answer at all (packets dropped, not
// refused): the circuit breaker keeps it from slowing every call.
import t, { type Test } from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { memoryPlugins, startMemoryKernel } from './memory-kernel.ts'
import { PgServer } from './servers.ts'
import { pollUntil, until } from '../helpers/poll.ts'
import { startSilentServer } from '../helpers/silent-server.ts'
import type { RelationalStore } from '@agentd/sdk/contracts/memory-stores'

t.test('a PostgreSQL that was down at start: the store sets itself up when it comes up, no restart', async t => {
  const pg = await PgServer.create()
  t.teardown(async () => { await pg.destroy() })
  await pg.stop()
  const s = await startMemoryKernel(t, { sql: { postgres_uri: pg.uri, connect_timeout_ms: 500, circuit_cooldown_ms: 200 } })
  const r = await s.json('/api/memory/channels')
  t.equal(r.status, 503)
  t.equal(r.body.code, 'AGENT_ERR_MEMORY_STORE_UNAVAILABLE')
  await pg.start()
  await until('the memory endpoints to answer', async () => (await s.json('/api/memory/channels')).status === 200, 20_000)
  const h = (await s.json('/api/health?include_memory=true')).body.memory
  t.match(h, { postgres: { status: 'healthy', backend: 'postgres' }, neo4j: { status: 'healthy', backend: 'postgres' } })
  await s.svc().episodic.addTurn({ conversation_id: 'late', role: 'user', content: 'stored after the late start', channel: 'late' })
  await s.svc().semantic.addFact({ claim: 'the graph tables exist too', channel: 'late' })
  t.equal((await s.json('/api/memory/stats')).body.totals.turns, 1)
  t.same((await s.json('/api/memory/channels')).body.channels.map((c: { name: string }) => c.name), ['_default', '_global', 'late'], 'migrated on first use')
})

t.test('a role with no store loaded: its endpoints answer 503 AGENT_ERR_MEMORY_NOT_CONFIGURED naming the plugin', async t => {
  const s = await startKernel(t, { plugins: memoryPlugins().filter(p => p.name !== 'memory-graph-sql') })
  for (const p of ['/api/memory/facts', '/api/memory/entities']) {
    const r = await s.json(p)
    t.equal(r.status, 503, p)
    t.equal(r.body.code, 'AGENT_ERR_MEMORY_NOT_CONFIGURED')
    t.match(r.body.error, /No graph memory store is loaded: enable memory-graph-sql/)
  }
  t.equal((await s.json('/api/memory/channels')).status, 200, 'the relational endpoints still answer')
  t.match((await s.json('/api/health?include_memory=true')).body.memory.neo4j, { status: 'not_configured' })
})

const bootLogged = async (t: Test, sqlOptions: Record<string, unknown>, memory: Record<string, unknown> = {}): ReturnType<typeof startMemoryKernel> =>
  await startMemoryKernel(t, { sql: sqlOptions, memory, watch: false, logLevel: 'info' })

t.test('a database that never answers is skipped for a cool-down after a failure, and reported unhealthy', async t => {
  // A database behind a dropping firewall: every connection attempt is an arrival there.
  const silent = await startSilentServer(t)
  const s = await bootLogged(t, { postgres_uri: `postgresql://postgres@127.0.0.1:${silent.port}/x`, connect_timeout_ms: 2000, circuit_cooldown_ms: 4000 })
  // The store itself (a chat's storeTurn does not wait: its write goes to the outbox).
  const rel = (): RelationalStore => s.kernel.current!.app.registry.relationalStores.first()!
  const store = async (): Promise<{ ms: number, tried: boolean }> => {
    const before = silent.arrivals.length
    const t0 = performance.now()
    await rel().addTurn({ conversation_id: 'bh', role: 'user', content: 'hello', channel: 'bh' }).catch(() => undefined)
    return { ms: performance.now() - t0, tried: silent.arrivals.length > before }
  }
  // The start-up attempt opened a cool-down; store until a call really tries the database.
  const first = await pollUntil(store, r => r.tried, 20_000, 100)
  t.ok(first.tried, 'a call after the cool-down connects again')
  t.ok(first.ms >= 1900, `that call waits for the connect timeout (${Math.round(first.ms)} ms)`)
  const second = await store()
  t.notOk(second.tried, 'the next one is skipped: it never reaches the database')
  const h = await s.json<{ memory: { postgres: { status: string, error: string } } }>('/api/health?include_memory=true')
  t.match(h.body.memory.postgres, { status: 'unhealthy', error: /not tried for another .* s after a connection failure/ })
  const chat = await s.svc().storeTurn({ conversation_id: 'bh', role: 'user', content: 'hello', channel: 'bh' })
  t.equal(chat.stored, false, 'a chat\'s turn is not stored now (the outbox keeps it)')
  const recall = await s.svc().recall({ text: 'hello', channel: 'bh' })
  t.ok(recall.degraded !== undefined && recall.degraded.length > 0, 'recall degrades instead of waiting')
})

t.test('a slow comparison of stored vectors with the embedder at start is logged, not dropped', async t => {
  const { port } = await startSilentServer(t)
  // No cool-down: every call waits for the 1.5 s connect timeout, longer than the 200 ms the check may take.
  const s = await bootLogged(t, { postgres_uri: `postgresql://postgres@127.0.0.1:${port}/x`, connect_timeout_ms: 1500, circuit_cooldown_ms: 0 }, { embedder_check_timeout_ms: 200 })
  t.match(s.logText(), /comparing stored vectors with the active embedder is taking long/)
  await until('the check to end and say why', () => /could not compare stored vectors/.test(s.logText()), 10_000)
  t.match(s.logText(), /could not compare stored vectors with the active embedder \(store down\?\); POST \/api\/memory\/reembed once it is back/)
})
