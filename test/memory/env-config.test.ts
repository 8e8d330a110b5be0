// Database settings from the environment pick the backends: POSTGRES_URI, or
// POSTGRES_USER/PASSWORD/DB/HOST/PORT, and REDIS_URI. A password in them never reaches
// health or the log, also when the database cannot be reached.
import t, { type Test } from 'tap'
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { repoPlugin } from '../helpers/workspace.ts'
import { startMemoryKernel } from './memory-kernel.ts'
import { PG_URI, uniqueSchema } from './sql-targets.ts'
import { freePort } from '../helpers/net.ts'
import { openSql } from '@agentd/sdk/kits/sql'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'

const SECRET = `pw-${randomBytes(6).toString('hex')}`
const REDIS = process.env.TEST_REDIS_URI ?? 'redis://127.0.0.1:6379'

/** PG_URI with a password (trust auth here: the server never asks for it). */
function withPassword (uri: string, port?: number): string {
  const u = new URL(uri)
  u.password = SECRET
  if (port !== undefined) u.port = String(port)
  return u.toString()
}

interface Booted { health: () => Promise<{ memory: Record<string, { status: string, backend: string, error?: string }> } & Record<string, unknown>>, logs: () => string, svc: () => MemoryServiceImpl }

/** A server with these environment variables; every log line is kept to look for the password. */
async function boot (t: Test, env: Record<string, string>, sqlOptions: Record<string, unknown>, ns?: string): Promise<Booted> {
  const kv = ns === undefined ? undefined : { name: 'memory-redis', module: repoPlugin('memory-redis'), options: { namespace: ns } }
  const s = await startMemoryKernel(t, { sql: sqlOptions, kv, env, watch: false, logLevel: 'debug' })
  return {
    health: async () => (await s.json<Awaited<ReturnType<Booted['health']>>>('/api/health?include_memory=true')).body,
    logs: s.logText,
    svc: s.svc,
  }
}

async function dropSchema (t: Test, schema: string): Promise<void> {
  t.teardown(async () => {
    const h = await openSql({ backend: 'postgres', uri: PG_URI, schema: 'public', poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} })
    await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(h.db)
    await h.close()
  })
}

t.test('POSTGRES_URI and REDIS_URI switch both roles to the real servers', async t => {
  const schema = uniqueSchema()
  await dropSchema(t, schema)
  const ns = `agentd-test-${randomBytes(6).toString('hex')}:`
  const s = await boot(t, { POSTGRES_URI: withPassword(PG_URI), REDIS_URI: REDIS }, { schema }, ns)
  t.teardown(async () => { await s.svc().ctx.kv?.deletePrefix('') })
  const h = await s.health()
  t.match(h.memory, { postgres: { status: 'healthy', backend: 'postgres' }, neo4j: { status: 'healthy', backend: 'postgres' }, redis: { status: 'healthy', backend: 'redis' } })
  await s.svc().episodic.addTurn({ conversation_id: 'env', role: 'user', content: 'stored through the environment', channel: 'env' })
  t.same((await s.svc().episodic.conversationTurns('env', 10)).map(x => x.content), ['stored through the environment'])
  await s.svc().ctx.kv?.set('env:probe', 'stored through the environment', { ttlSeconds: 600 })
  t.equal(await s.svc().ctx.kv?.get('env:probe'), 'stored through the environment', 'the key-value store is Redis')
  t.notMatch(JSON.stringify(h), SECRET, 'no password in health')
  t.notMatch(s.logs(), SECRET, 'no password in the log')
  t.match(s.logs(), /memory-sql: pgvector is not installed on this PostgreSQL server.*restart or reload agentd/, 'the real[] fallback is warned about in the log, with advice that works')
  t.match(h.memory.postgres, { warning: /pgvector is not installed/ })
})

t.test('POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB / POSTGRES_HOST / POSTGRES_PORT select PostgreSQL too', async t => {
  const schema = uniqueSchema()
  await dropSchema(t, schema)
  const u = new URL(PG_URI)
  const s = await boot(t, {
    POSTGRES_USER: decodeURIComponent(u.username), POSTGRES_PASSWORD: SECRET, POSTGRES_DB: u.pathname.slice(1),
    POSTGRES_HOST: u.hostname, POSTGRES_PORT: u.port === '' ? '5432' : u.port,
  }, { schema })
  const h = await s.health()
  t.match(h.memory, { postgres: { status: 'healthy', backend: 'postgres' }, redis: { backend: 'memory' } })
  t.notMatch(JSON.stringify(h), SECRET)
  t.notMatch(s.logs(), SECRET)
})

t.test('an unreachable PostgreSQL with a password in its URI: unhealthy, and the password stays out of health and the log', async t => {
  const s = await boot(t, { POSTGRES_URI: withPassword(PG_URI, await freePort()) }, { connect_timeout_ms: 500 })
  const h = await s.health()
  t.match(h.memory, { postgres: { status: 'unhealthy', backend: 'postgres', error: /unavailable/ } })
  t.match(s.logs(), /not reachable yet/, 'the outage was logged')
  t.notMatch(JSON.stringify(h), SECRET, 'no password in health')
  t.notMatch(s.logs(), SECRET, 'no password in the log')
})
