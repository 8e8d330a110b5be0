// Memory export and import (GET /api/memory/export, POST /api/memory/import) on both SQL
// backends: a channel exported, imported into a fresh server (a new in-memory PGlite, or a
// new PostgreSQL schema) and exported again gives the same content; importing it again
// adds nothing twice; a bad file is a 400 naming its line and writes nothing; a write that
// fails half-way (a PostgreSQL trigger refusing one fact) leaves nothing of the import.
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
    const usage = await b.svc().relational?.embedderUsage() ?? []
    t.ok(usage.some(u => u.embedder.startsWith('embed-hash') || u.count > 0), 'vectors made on import')
    t.equal(usage.reduce((n, u) => n + u.count, 0) >= 5 + 2 + 1, true, 'turns, goals and the strategy have vectors')

    // Again into the same channel: nothing is added twice.
    const again = await importInto(b, first)
    t.match(again.body, { imported: { conversations: 0, turns: 0, entities: 0, facts: 0, goals: 0, strategies: 0 }, existing: { conversations: 2, turns: 5, entities: 3, facts: 4, goals: 2, strategies: 1 } })
    t.same(canonical(await exportOf(b, 'trip')), canonical(first), 'unchanged by the second import')
  })
}

t.test('into another channel of the same server: turns get derived ids, recall finds the same', async t => {
  const s = await start(t, undefined)
  await seedChannel(s.svc(), 'orig')
  const file = await exportOf(s, 'orig')
  const r = await importInto(s, file, '?channel=copy')
  t.equal(r.status, 200, JSON.stringify(r.body))
  t.match(r.body, { channels: ['copy'], imported: { turns: 5, facts: 4 } })
  const copy = await exportOf(s, 'copy')
  t.same(canonical(copy, { ids: false, channel: 'x' }), canonical(file, { ids: false, channel: 'x' }), 'the same content under new ids')
  const recall = async (channel: string): Promise<string[]> => {
    const res = await s.json('/api/memory/recall', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'where does Ada live now', channel, top_k: 5 }) })
    return (res.body.facts as Array<{ claim: string }>).map(f => f.claim)
  }
  t.same(await recall('copy'), await recall('orig'), 'recall in the copy finds the same facts')
  t.same((await importInto(s, file, '?channel=copy')).body.imported.turns, 0, 'a second import into the copy adds no turn')
})

t.test('a bad file is a 400 naming its lines, and nothing is written', async t => {
  const s = await start(t, undefined)
  const header = JSON.stringify({ kind: 'header', format: 'agentd-memory', version: 1 })
  const good = JSON.stringify({ kind: 'goal', id: 'g1', description: 'Ship it', channel: 'bad-file' })
  const lines = [header, good, '{"kind":"fact","id":"f1","channel":"bad-file"}', 'not json', JSON.stringify({ kind: 'widget' })]
  const r = await importInto(s, lines.join('\n'))
  t.equal(r.status, 400)
  t.match(r.body, { code: 'AGENT_ERR_MEMORY_BAD_REQUEST', error: /nothing was imported/ })
  t.same(r.body.details.map((d: { path: string }) => d.path), ['line 3', 'line 4', 'line 5'])
  t.match(r.body.details[0].message, /claim/)
  t.equal((await s.json('/api/memory/channels')).body.channels.some((c: { name: string }) => c.name === 'bad-file'), false, 'no channel made')
  const newer = await importInto(s, JSON.stringify({ kind: 'header', format: 'agentd-memory', version: 99 }))
  t.match(newer.body, { statusCode: 400, details: [{ path: 'line 1', message: /newer agentd/ }] })
  const cycle = [header, JSON.stringify({ kind: 'goal', id: 'a', description: 'A', parent_goal_id: 'b', channel: 'c1' }), JSON.stringify({ kind: 'goal', id: 'b', description: 'B', parent_goal_id: 'a', channel: 'c1' })]
  t.match((await importInto(s, cycle.join('\n'))).body, { statusCode: 400, details: [{ path: 'line 2', message: /comes back to itself/ }] })
  t.match((await s.post('/api/memory/import', { not: 'an export' })).status, 400, 'a JSON object is neither format')
  t.match((await s.get('/api/memory/export?channel=nope')).status, 404)
})

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

t.test('a ChatGPT conversations.json: the branch last seen, as turns of a channel, once', async t => {
  const s = await start(t, undefined)
  const msg = (id: string, role: string, text: string, time: number): Record<string, unknown> => ({ id, author: { role }, create_time: time, content: { content_type: 'text', parts: [text] } })
  // The user edited the first question: two branches under the root; current_node ends the second.
  const exportFile = [{
    id: 'conv-1', title: 'Trip planning', create_time: 1_700_000_000, current_node: 'a2',
    mapping: {
      root: { id: 'root', message: null, parent: null, children: ['sys'] },
      sys: { id: 'sys', message: msg('sys', 'system', 'You are ChatGPT.', 1_700_000_000), parent: 'root', children: ['q1', 'q2'] },
      q1: { id: 'q1', message: msg('q1', 'user', 'Best time to visit Porto?', 1_700_000_001), parent: 'sys', children: ['a1'] },
      a1: { id: 'a1', message: msg('a1', 'assistant', 'Spring.', 1_700_000_002), parent: 'q1', children: [] },
      q2: { id: 'q2', message: msg('q2', 'user', 'Best time to visit Lisbon?', 1_700_000_003), parent: 'sys', children: ['a2'] },
      a2: { id: 'a2', message: { ...msg('a2', 'assistant', 'Late spring, May or June.', 1_700_000_004) }, parent: 'q2', children: [] },
    },
  }]
  const r = await s.post('/api/memory/import?channel=chatgpt', exportFile)
  t.equal(r.status, 200)
  t.match(await r.json(), { format: 'chatgpt', channels: ['chatgpt'], imported: { conversations: 1, turns: 2 } })
  const turns = (await s.json('/api/memory/conversations/conv-1/turns')).body.turns as Array<{ role: string, content: string, timestamp: string, metadata: Record<string, unknown> }>
  t.same(turns.map(x => [x.role, x.content]), [['user', 'Best time to visit Lisbon?'], ['assistant', 'Late spring, May or June.']], 'the branch ending at current_node, system prompt left out')
  t.equal(turns[0].timestamp, new Date(1_700_000_003_000).toISOString(), 'the message\'s own time')
  t.match(turns[0].metadata, { imported_from: 'chatgpt', title: 'Trip planning' })
  t.match(await (await s.post('/api/memory/import?channel=chatgpt', exportFile)).json(), { imported: { turns: 0 }, existing: { turns: 2 } }, 'again: nothing twice')
  const bad = await s.json('/api/memory/import?format=chatgpt', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ title: 'no mapping' }]) })
  t.match(bad, { status: 400, body: { details: [{ path: /\[0\]|0/ }] } })
})
