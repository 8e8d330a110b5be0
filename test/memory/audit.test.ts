// The memory audit log: the audit_partitions job removes entries past the retention and
// nothing else; memory writes worth auditing (deletes, resets, fact supersession) are there.
import t from 'tap'
import { sql } from 'kysely'
import { startMemoryKernel, del } from './memory-kernel.ts'
import { PG_URI, uniqueSchema } from './sql-targets.ts'
import { openSql } from '@agentd/sdk/kits/sql'
import { repoPlugin } from '../helpers/workspace.ts'

t.test('the audit_partitions job removes entries older than the retention, and only those', async t => {
  // PostgreSQL so the test can age entries through a connection of its own.
  const schema = uniqueSchema()
  const h = await openSql({ backend: 'postgres', uri: PG_URI, schema, poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} })
  t.teardown(async () => { await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(h.db); await h.close() })
  const sqlOpts = { postgres_uri: PG_URI, schema }
  const s = await startMemoryKernel(t, { sql: sqlOpts, jobs: { 'job-audit-partitions': { retention_days: 30 } }, extra: [{ name: 'jobs', module: repoPlugin('jobs'), options: sqlOpts }] })
  const rel = s.svc().ctx.relational
  await rel?.audit({ action: 'test.old' })
  await rel?.audit({ action: 'test.month' })
  await rel?.audit({ action: 'test.new' })
  await sql`UPDATE memory_audit_log SET at = now() - interval '31 days' WHERE action = 'test.old'`.execute(h.db)
  await sql`UPDATE memory_audit_log SET at = now() - interval '29 days' WHERE action = 'test.month'`.execute(h.db)
  const before = (await rel?.auditLog(100) ?? []).length
  const res = await s.post('/api/jobs/audit_partitions/run', {})
  t.match(await res.json(), { success: true, job: 'audit_partitions', metrics: { removed: 1, retention_days: 30 } })
  t.equal((await rel?.auditLog(100) ?? []).length, before - 1, 'one entry went')
  t.same((await rel?.auditLog(100) ?? []).map(e => e.action).filter(a => a.startsWith('test.')), ['test.new', 'test.month'], 'younger entries stay')
})

t.test('deletes, resets and fact supersession are audited', async t => {
  const s = await startMemoryKernel(t)
  const svc = s.svc()
  const old = await svc.semantic.addFact({ claim: 'Bob lives in Paris', channel: 'au' })
  const next = await svc.semantic.supersedeFact(old.fact.id, { claim: 'Bob lives in Rome' })
  await svc.episodic.addTurn({ conversation_id: 'au-c', role: 'user', content: 'x', channel: 'au' })
  t.equal((await del(s, '/api/memory/conversations/au-c')).status, 200)
  t.equal((await del(s, '/api/memory/channels/au')).status, 200)
  t.equal((await s.post('/api/memory/reset', {})).status, 200)
  const log = await svc.ctx.relational?.auditLog(20) ?? []
  t.same(log.map(e => e.action).slice(0, 3), ['memory.reset', 'channel.delete', 'conversation.delete'])
  // The supersession is in the history of both facts: the old one superseded, the new one created from it.
  t.match(log.find(e => e.action === 'fact.superseded'), { target: old.fact.id, channel: 'au', details: { superseded_by_id: next.fact.id } })
  t.match(log.find(e => e.action === 'fact.create' && e.target === next.fact.id), { details: { supersedes_id: old.fact.id } })
  t.match(log[1], { target: 'au', details: { facts: 2 } }, 'both facts, the superseded one too')
})
