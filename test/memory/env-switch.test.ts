// Editing the workspace .env at run time switches backends with a live reload:
// POSTGRES_URI and REDIS_URI in, the real PostgreSQL and Redis serve; out, the embedded
// PGlite and the in-process store serve again.
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { startMemoryKernel } from './memory-kernel.ts'
import { PG_URI, uniqueSchema } from './sql-targets.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { openSql } from '@agentd/sdk/kits/sql'

const REDIS = process.env.TEST_REDIS_URI ?? 'redis://127.0.0.1:6379'

t.test('POSTGRES_URI and REDIS_URI written to .env switch the backends, and removing them switches back', async t => {
  const schema = uniqueSchema()
  const ns = `agentd-test-${randomBytes(6).toString('hex')}:`
  t.teardown(async () => {
    const h = await openSql({ backend: 'postgres', uri: PG_URI, schema: 'public', poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} })
    await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(h.db)
    await h.close()
  })
  // memory-redis before memory-kv: with REDIS_URI set it is the key-value store, without it memory-kv is.
  const s = await startMemoryKernel(t, {
    sql: { schema },
    kv: { name: 'memory-redis', module: repoPlugin('memory-redis'), options: { namespace: ns } },
    extra: [{ name: 'memory-kv', module: repoPlugin('memory-kv') }],
  })
  const backends = async (): Promise<{ postgres: string, neo4j: string, redis: string }> => {
    const m = (await s.json('/api/health?include_memory=true')).body.memory
    return { postgres: `${m.postgres.backend}:${m.postgres.status}`, neo4j: `${m.neo4j.backend}:${m.neo4j.status}`, redis: `${m.redis.backend}:${m.redis.status}` }
  }
  t.same(await backends(), { postgres: 'pglite:healthy', neo4j: 'pglite:healthy', redis: 'memory:healthy' }, 'embedded without variables')

  s.ws.write('.env', `POSTGRES_URI=${PG_URI}\nREDIS_URI=${REDIS}\n`)
  await s.nextReload()
  t.equal(s.kernel.api.lastReload()?.ok, true)
  t.same(await backends(), { postgres: 'postgres:healthy', neo4j: 'postgres:healthy', redis: 'redis:healthy' }, 'switched by .env')
  await s.svc().episodic.addTurn({ conversation_id: 'envc', role: 'user', content: 'written to the real servers', channel: 'envs' })
  t.same((await s.svc().episodic.conversationTurns('envc', 10)).map(x => x.content), ['written to the real servers'])
  await s.svc().ctx.kv?.set('envs:probe', 'written to the real servers', { ttlSeconds: 600 })
  t.equal(await s.svc().ctx.kv?.get('envs:probe'), 'written to the real servers')
  t.equal(await s.svc().ctx.kv?.deletePrefix(''), 1, 'the key is in Redis under the namespace')

  s.ws.write('.env', '')
  await s.nextReload()
  t.same(await backends(), { postgres: 'pglite:healthy', neo4j: 'pglite:healthy', redis: 'memory:healthy' }, 'and back')
  t.equal((await s.svc().ctx.relational?.conversationTurns('envc', 10))?.length, 0, 'the PGlite database never saw it')
})
