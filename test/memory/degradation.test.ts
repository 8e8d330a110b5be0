// Stores that go away mid-run: a PostgreSQL and a Redis of this test's own on spare
// ports are stopped under a running server. Chats keep working, health says which store
// is unhealthy, memory endpoints answer 503 naming it, and once the store is back
// everything recovers without restarting agentd.
import t from 'tap'
import { PgServer, RedisServer } from './servers.ts'
import { memoryPlugins } from './memory-kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { startChat, until } from '../chat/helpers.ts'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'

t.test('PostgreSQL and Redis stop and come back under a running server', async t => {
  const [pg, redis] = await Promise.all([PgServer.create(), RedisServer.create()])
  t.teardown(async () => { await Promise.all([pg.destroy(), redis.destroy()]) })
  const sql = { postgres_uri: pg.uri, connect_timeout_ms: 1000 }
  const { s, fake } = await startChat(t, {
    extra: memoryPlugins({ sql, kv: { name: 'memory-redis', module: repoPlugin('memory-redis'), options: { uri: redis.uri, connect_timeout_ms: 500 } } }),
  })
  fake.fallback = () => ({ text: 'noted' })
  const svc = (): MemoryServiceImpl => s.kernel.current?.app.registry.memoryServices.first() as MemoryServiceImpl
  const health = async (): Promise<Record<string, { status: string, backend: string, error?: string }>> => (await s.json('/api/health?include_memory=true')).body.memory
  const chat = async (message: string): Promise<number> => (await s.post('/api/agent/chat', { message, use_memory: true, channel: 'deg' })).status

  // All up.
  t.equal(await chat('remember the blue door'), 200)
  await until('the turns to be stored', async () => (await s.json('/api/memory/stats')).body?.totals?.turns === 2)
  t.match(await health(), { status: 'healthy', postgres: { status: 'healthy', backend: 'postgres' }, neo4j: { status: 'healthy', backend: 'postgres' }, redis: { status: 'healthy', backend: 'redis' } })
  t.match((await health()).postgres, { warning: /pgvector/ }, 'no pgvector here: the fallback is reported')

  t.test('PostgreSQL down', async t => {
    await pg.stop()
    t.equal(await chat('still there?'), 200, 'chat works without the relational store')
    const h = await health()
    t.match(h, { postgres: { status: 'unhealthy', backend: 'postgres' }, neo4j: { status: 'unhealthy' }, redis: { status: 'healthy' } })
    t.equal((await s.json('/api/health?include_memory=true')).body.status, 'degraded')
    for (const p of ['/api/memory/stats', '/api/memory/channels', '/api/memory/facts', '/api/memory/entities', '/api/memory/strategies']) {
      const r = await s.json(p)
      t.equal(r.status, 503, `${p} -> 503`)
      t.equal(r.body.code, 'AGENT_ERR_MEMORY_STORE_UNAVAILABLE')
      t.match(r.body.error, /(relational|graph) memory store \(postgres\) is unavailable/)
    }
    t.equal((await s.post('/api/memory/recall', { query: 'door' })).status, 503)
    const stored = await svc().storeTurn({ conversation_id: 'x', role: 'user', content: 'lost', channel: 'deg' })
    t.equal(stored.stored, false, 'the chat-facing call resolves, it does not throw')
    const recalled = await svc().recall({ text: 'door', channel: 'deg' })
    t.equal(recalled.context, '')
    t.ok(recalled.degraded !== undefined && recalled.degraded.length > 0)

    await pg.start()
    await until('the relational store to recover', async () => (await health()).postgres.status === 'healthy', 15_000)
    t.equal((await s.json('/api/memory/stats')).status, 200, 'endpoints answer again')
    t.equal(await chat('where is the door?'), 200)
    await until('new turns to be stored again', async () => (await s.json('/api/memory/stats')).body?.totals?.turns >= 4)
    const r = await s.post('/api/memory/recall', { query: 'blue door', channel: 'deg' })
    t.equal(r.status, 200)
    t.match((await r.json() as { context: string }).context, /blue door/, 'what was stored before the outage is recalled')
  })

  t.test('Redis down', async t => {
    await redis.stop()
    t.equal(await chat('redis is gone'), 200, 'chat works without the key-value store')
    t.match(await health(), { redis: { status: 'unhealthy', backend: 'redis' }, postgres: { status: 'healthy' } })
    const del = await s.get('/api/memory/channels/deg', { method: 'DELETE' })
    t.equal(del.status, 503, 'deleting a channel needs every store: nothing is half-deleted')
    t.match(await del.json(), { error: /kv memory store \(redis\)/ })
    const recall = await s.post('/api/memory/recall', { query: 'door', channel: 'deg', conversation_id: 'any' })
    t.equal(recall.status, 200, 'recall needs no key-value store: a conversation\'s latest turns come from the relational store')
    t.equal((await s.json('/api/memory/stats')).status, 200, 'endpoints that do not need it still answer')

    await redis.start()
    await until('the key-value store to recover', async () => (await health()).redis.status === 'healthy', 15_000)
    const del2 = await s.get('/api/memory/channels/deg', { method: 'DELETE' })
    t.equal(del2.status, 200)
    t.ok((await del2.json() as { deleted: { turns: number } }).deleted.turns >= 4)
  })
})

t.test('a PostgreSQL that is down at start: the server starts, memory answers 503, health says why', async t => {
  const { sparePort } = await import('./servers.ts')
  const { startMemoryKernel } = await import('./memory-kernel.ts')
  const port = await sparePort()
  const s = await startMemoryKernel(t, { sql: { postgres_uri: `postgresql://postgres@127.0.0.1:${port}/none`, connect_timeout_ms: 500 } })
  const h = (await s.json('/api/health?include_memory=true')).body
  t.equal(h.status, 'degraded')
  t.match(h.memory.postgres, { status: 'unhealthy', backend: 'postgres', error: /unavailable/ })
  const r = await s.json('/api/memory/channels')
  t.equal(r.status, 503)
  t.match(r.body.error, /relational memory store \(postgres\) is unavailable/)
  t.notMatch(JSON.stringify(h), /password/, 'no credentials in health')
})
