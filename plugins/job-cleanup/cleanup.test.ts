// The cleanup job (memory plugin): expired working-memory keys and tool invocations older
// than the retention go; live keys and younger invocations stay. On PostgreSQL, so the
// test can age rows through a connection of its own.
import t from 'tap'
import { sql } from 'kysely'
import { openSql } from '@agentd/sdk/kits/sql'
import { startMemoryKernel } from '../../test/memory/memory-kernel.ts'
import { PG_URI, uniqueSchema } from '../../test/memory/sql-targets.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'
import { pollUntil } from '../../test/helpers/poll.ts'

t.test('cleanup drops expired key-value keys and old tool invocations, nothing else', async t => {
  const schema = uniqueSchema()
  const h = await openSql({ backend: 'postgres', uri: PG_URI, schema, poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} })
  t.teardown(async () => { await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_pgboss" CASCADE`).execute(h.db); await h.close() })
  const sqlOpts = { postgres_uri: PG_URI, schema }
  const s = await startMemoryKernel(t, { sql: sqlOpts, jobs: { 'job-cleanup': { tool_invocation_retention_days: 30 } }, extra: [{ name: 'jobs', module: repoPlugin('jobs'), options: sqlOpts }] })
  const svc = s.svc()
  const rel = svc.ctx.relational!
  const kv = svc.ctx.kv!
  const call = { conversation_id: 'cl', arguments: {}, result: 'ok', is_error: false, duration_ms: 1, channel: 'cl' }
  const old = await rel.addToolInvocation({ ...call, tool: 'old' })
  await rel.addToolInvocation({ ...call, tool: 'recent' })
  await sql`UPDATE tool_invocations SET created_at = now() - interval '31 days' WHERE id = ${old.id}::uuid`.execute(h.db)
  const t0 = Date.now()
  await kv.set('cl:short', 1, { ttlSeconds: 1 })
  await kv.set('cl:long', 2, { ttlSeconds: 3600 })
  await kv.set('cl:forever', 3)
  await pollUntil(() => Date.now(), now => now > t0 + 1100, 5000)

  const res = await s.post('/api/jobs/cleanup/run', {})
  t.match(await res.json(), { success: true, job: 'cleanup', metrics: { working_memory_expired: 1, tool_invocations_removed: 1, tool_invocation_retention_days: 30 } })
  t.same((await rel.toolInvocations({ conversation_id: 'cl', limit: 10 })).map(i => i.tool), ['recent'])
  t.equal(await kv.get('cl:long'), 2)
  t.equal(await kv.get('cl:forever'), 3)
  t.equal(await kv.get('cl:short'), undefined)
})
