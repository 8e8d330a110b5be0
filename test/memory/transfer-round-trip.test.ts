// Memory export and import (GET /api/memory/export, POST /api/memory/import) on both SQL
// backends: a channel exported, imported into a fresh server (a new in-memory PGlite, or a
// new PostgreSQL schema) and exported again gives the same content; importing it again
// adds nothing twice; a write that fails half-way (a PostgreSQL trigger refusing one fact)
// leaves nothing of the import. Imports on one server: transfer-import.test.ts.
import t, { type Test } from 'tap'
import { sql } from 'kysely'
import { openSql } from '@agentd/sdk/kits/sql'
import { startMemoryKernel } from './memory-kernel.ts'
import { PG_URI, uniqueSchema } from './sql-targets.ts'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'
import { canonical, seedChannel } from './transfer-seed.ts'

type Server = Awaited<ReturnType<typeof startMemoryKernel>>
const NDJSON = { 'content-type': 'application/x-ndjson' }

/** A schema of its own on the shared PostgreSQL, dropped after the test; `setup` runs SQL in it first. */
async function pgSchema (t: Test, setup?: string): Promise<Record<string, unknown>> {
  const schema = uniqueSchema()
  const h = await openSql({ backend: 'postgres', uri: PG_URI, schema, poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} })
  t.teardown(async () => { await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(h.db).catch(() => {}); await h.close() })
  if (setup !== undefined) await sql.raw(setup.replaceAll('$schema', `"${schema}"`)).execute(h.db)
  return { postgres_uri: PG_URI, schema }
}

const BACKENDS: Array<{ name: string, sql: (t: Test) => Promise<Record<string, unknown> | undefined> }> = [
  { name: 'pglite', sql: async () => undefined },
  { name: 'postgres', sql: async t => await pgSchema(t) },
]

const start = async (t: Test, sqlOpts: Record<string, unknown> | undefined): Promise<Server> =>
  await startMemoryKernel(t, { jobs: false, ...(sqlOpts === undefined ? {} : { sql: sqlOpts }) })
const exportOf = async (s: Server, channel: string): Promise<string> => {
  const res = await s.get(`/api/memory/export?channel=${channel}`)
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`)
  return await res.text()
}
const importInto = async (s: Server, body: string, query = ''): Promise<{ status: number, body: any }> => { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await s.post(`/api/memory/import${query}`, body, { headers: NDJSON })
  return { status: res.status, body: await res.json() }
}

for (const backend of BACKENDS) {
  t.test(`${backend.name}: export, import into a fresh server, export again: the same content`, async t => {
    const a = await start(t, await backend.sql(t))
    await seedChannel(a.svc(), 'trip')
    const first = await exportOf(a, 'trip')
    const b = await start(t, await backend.sql(t))
    const imported = await importInto(b, first)
    t.equal(imported.status, 200, JSON.stringify(imported.body))
    t.match(imported.body, { success: true, format: 'agentd', channels: ['trip'], imported: { conversations: 2, turns: 5, entities: 3, relationships: 2, facts: 4, goals: 2, strategies: 1 }, dropped: 0 })
    const second = await exportOf(b, 'trip')
    t.same(canonical(second), canonical(first), 'the same items, ids kept or mapped consistently')
    // Every item was embedded again by the embedder loaded in the new server.
    const usage = await b.svc().ctx.relational?.embedderUsage() ?? []
    t.ok(usage.some(u => u.embedder.startsWith('embed-hash') || u.count > 0), 'vectors made on import')
    t.equal(usage.reduce((n, u) => n + u.count, 0) >= 5 + 2 + 1, true, 'turns, goals and the strategy have vectors')

    // Again into the same channel: nothing is added twice.
    const again = await importInto(b, first)
    t.match(again.body, { imported: { conversations: 0, turns: 0, entities: 0, facts: 0, goals: 0, strategies: 0 }, existing: { conversations: 2, turns: 5, entities: 3, facts: 4, goals: 2, strategies: 1 } })
    t.same(canonical(await exportOf(b, 'trip')), canonical(first), 'unchanged by the second import')
  })
}

t.test('postgres: a write that fails half-way takes back what the import wrote', async t => {
  // A trigger refuses one fact, after the channel, turns and entities were written.
  const sqlOpts = await pgSchema(t)
  const s = await start(t, sqlOpts)
  await sql.raw(`CREATE FUNCTION "${String(sqlOpts.schema)}".refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
    CREATE TRIGGER refuse BEFORE INSERT ON "${String(sqlOpts.schema)}".facts FOR EACH ROW WHEN (NEW.claim = 'poison') EXECUTE FUNCTION "${String(sqlOpts.schema)}".refuse()`)
    .execute((await openSql({ backend: 'postgres', uri: PG_URI, schema: String(sqlOpts.schema), poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} }).then(h => { t.teardown(async () => { await h.close() }); return h })).db)
  const svc: MemoryServiceImpl = s.svc()
  await seedChannel(svc, 'kept')
  const before = canonical(await exportOf(s, 'kept'))
  const poison = JSON.stringify({ kind: 'fact', id: 'fp', claim: 'poison', channel: 'kept' })
  const file = `${await exportOf(s, 'kept')}${JSON.stringify({ kind: 'entity', id: 'e-new', name: 'Grace Hopper', type: 'Person', channel: 'kept' })}\n${poison}\n`
  // Into a new channel: the channel goes again.
  const fresh = await importInto(s, file, '?channel=fresh')
  t.equal(fresh.status, 500, 'a store failure, not the caller\'s mistake')
  t.equal((await s.json('/api/memory/channels')).body.channels.some((c: { name: string }) => c.name === 'fresh'), false, 'the new channel is gone')
  // Into the channel it came from: the new entity goes, what was there stays.
  t.equal((await importInto(s, file)).status, 500)
  t.same(canonical(await exportOf(s, 'kept')), before, 'the channel as it was')
})
