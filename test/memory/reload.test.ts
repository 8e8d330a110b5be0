// Live reload: the SQL handle and kv store live in the resource pool, so a reload keeps
// them (and their data); changing a backend option switches backends without a restart.
// A change of embedder: reembed.test.ts.
import t from 'tap'
import { sql } from 'kysely'
import { startMemoryKernel, memoryPlugins, postJson } from './memory-kernel.ts'
import { PG_URI, uniqueSchema } from './sql-targets.ts'
import { openSql } from '@agentd/sdk/kits/sql'
import { repoPlugin } from '../helpers/workspace.ts'

t.test('a reload keeps the pooled stores and their data', async t => {
  const s = await startMemoryKernel(t)
  await s.svc().episodic.addTurn({ conversation_id: 'c1', role: 'user', content: 'kept across reloads', channel: 'rl' })
  await s.svc().ctx.kv?.set('rl:probe', 'kept across reloads', { ttlSeconds: 600 })
  const before = s.kernel.pool.list().filter(r => r.kind.startsWith('sql:') || r.kind.startsWith('kv:')).map(r => r.key).sort()
  t.equal(before.length, 2, 'one SQL handle shared by both SQL stores, one kv')
  const r = await postJson(s, '/api/plugins/reload', {})
  t.equal(r.status, 200)
  const after = s.kernel.pool.list().filter(x => x.kind.startsWith('sql:') || x.kind.startsWith('kv:')).map(x => x.key).sort()
  t.same(after, before, 'same resources')
  t.same((await s.svc().episodic.conversationTurns('c1', 10)).map(x => x.content), ['kept across reloads'], 'the turn survived')
  t.equal(await s.svc().ctx.kv?.get('rl:probe'), 'kept across reloads', 'the key-value store kept its data')
})

t.test('changing the SQL backend option switches backends with a reload', async t => {
  const schema = uniqueSchema()
  t.teardown(async () => {
    const h = await openSql({ backend: 'postgres', uri: PG_URI, schema: 'public', poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} })
    await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(h.db)
    await h.close()
  })
  const s = await startMemoryKernel(t)
  t.equal((await s.json('/api/health?include_memory=true')).body.memory.postgres.backend, 'pglite')
  s.ws.writePlugins(memoryPlugins({ sql: { postgres_uri: PG_URI, schema } }))
  await s.nextReload()
  t.equal(s.kernel.api.lastReload()?.ok, true)
  const h = (await s.json('/api/health?include_memory=true')).body.memory
  t.match(h, { postgres: { status: 'healthy', backend: 'postgres' }, neo4j: { status: 'healthy', backend: 'postgres' } })
  await s.svc().episodic.addTurn({ conversation_id: 'pgc', role: 'user', content: 'now in postgres', channel: 'sw' })
  const check = await openSql({ backend: 'postgres', uri: PG_URI, schema, poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} })
  t.teardown(async () => { await check.close() })
  const rows = await sql<{ content: string }>`SELECT content FROM turns`.execute(check.db)
  t.same(rows.rows.map(r => r.content), ['now in postgres'], 'written to the PostgreSQL schema')
  t.notOk(s.kernel.pool.list().some(r => r.kind === 'sql:pglite'), 'the PGlite handle was released')
})

t.test('setting a Redis URI in plugins.json moves the key-value role to Redis with a reload', async t => {
  const { randomBytes } = await import('node:crypto')
  const ns = `agentd-test-${randomBytes(6).toString('hex')}:`
  const s = await startMemoryKernel(t)
  t.equal((await s.json('/api/health?include_memory=true')).body.memory.redis.backend, 'memory')
  const redisKv = { name: 'memory-redis', module: repoPlugin('memory-redis'), options: { uri: process.env.TEST_REDIS_URI ?? 'redis://127.0.0.1:6379', namespace: ns } }
  s.ws.writePlugins([...memoryPlugins().filter(p => p.name !== 'memory'), redisKv, ...memoryPlugins().filter(p => p.name === 'memory')])
  await s.nextReload()
  t.equal(s.kernel.api.lastReload()?.ok, true)
  t.match((await s.json('/api/health?include_memory=true')).body.memory.redis, { status: 'healthy', backend: 'memory' }, 'memory-kv was registered first, so it still serves')
  s.ws.writePlugins([...memoryPlugins({ kv: redisKv })])
  await s.nextReload()
  t.match((await s.json('/api/health?include_memory=true')).body.memory.redis, { status: 'healthy', backend: 'redis' })
  await s.svc().ctx.kv?.set('rr:probe', 'in redis', { ttlSeconds: 600 })
  t.equal(await s.svc().ctx.kv?.get('rr:probe'), 'in redis')
  t.equal(await s.svc().ctx.kv?.deletePrefix(''), 1, 'the key lives under the namespace')
})
