// Another plugin on the memory stores' database: default options resolve to the same
// target wherever they are read, and acquiring that target from the resource pool gives
// the same handle (the same PGlite instance), kept until its last holder lets go.
import t from 'tap'
import { Value } from '@agentd/sdk/typebox/value'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { SqlOptionsSchema, resolveTarget, sqlResource, type SqlOptions } from '@agentd/sdk/kits/sql'
import { ResourcePool } from '@agentd/sdk'

const quiet = { warn: () => {} }
const appWith = (env: Record<string, string>): FastifyInstance =>
  ({ agentConfig: { env, settings: { dataDir: '/tmp/agentd-data' } } }) as unknown as FastifyInstance
const defaults = (extra: Partial<SqlOptions> = {}): SqlOptions => Value.Default(SqlOptionsSchema, { ...extra }) as SqlOptions

t.test('default options give every plugin the same target; POSTGRES_URI switches them all', async t => {
  const a = resolveTarget(appWith({}), defaults())
  t.same(a, { backend: 'pglite', dir: '/tmp/agentd-data/pglite', schema: 'public' })
  t.same(resolveTarget(appWith({}), defaults()), a)
  const pg = resolveTarget(appWith({ POSTGRES_URI: 'postgresql://u:secret@db:5432/x' }), defaults())
  t.match(pg, { backend: 'postgres', uri: 'postgresql://u:secret@db:5432/x', schema: 'public' })
  t.throws(() => resolveTarget(appWith({}), defaults({ backend: 'postgres' })), /backend "postgres" needs a connection/)
})

t.test('the same target from the pool is the same handle and PGlite instance, closed after the last release', async t => {
  const pool = new ResourcePool()
  t.teardown(async () => { await pool.disposeAll() })
  const target = { backend: 'pglite' as const, dir: null, schema: 'public' }
  const stores = await pool.acquire(sqlResource(target, quiet))
  const jobs = await pool.acquire(sqlResource({ ...target }, quiet))
  t.equal(jobs.value, stores.value, 'one handle')
  if (stores.value.backend !== 'pglite') throw new Error('expected PGlite')
  await stores.value.pglite.exec('CREATE TABLE seen (v int); INSERT INTO seen VALUES (1)')
  const other = await pool.acquire(sqlResource({ ...target, schema: 'other' }, quiet))
  t.not(other.value, stores.value, 'another schema is another handle')
  await stores.release()
  t.same((await sql<{ v: number }>`SELECT v FROM seen`.execute(jobs.value.db)).rows, [{ v: 1 }], 'still open while one holder is left')
  await jobs.release()
  await other.release()
  t.same(pool.list(), [], 'all released')
})
