// Memory import on one server (in-memory PGlite): an export into another channel (derived
// ids, the same content and recall), bad files (a 400 naming each bad line, nothing
// written), and a ChatGPT conversations.json (the branch last seen, once). The round trip
// into a fresh server, on PGlite and PostgreSQL, is transfer-round-trip.test.ts.
import t from 'tap'
import { startMemoryKernel } from './memory-kernel.ts'
import { canonical, seedChannel } from './transfer-seed.ts'

const NDJSON = { 'content-type': 'application/x-ndjson' }
const s = await startMemoryKernel(t, { jobs: false })
const exportOf = async (channel: string): Promise<string> => {
  const res = await s.get(`/api/memory/export?channel=${channel}`)
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`)
  return await res.text()
}
const importInto = async (body: string, query = ''): Promise<{ status: number, body: any }> => { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await s.post(`/api/memory/import${query}`, body, { headers: NDJSON })
  return { status: res.status, body: await res.json() }
}

t.test('into another channel of the same server: turns get derived ids, recall finds the same', async t => {
  await seedChannel(s.svc(), 'orig')
  const file = await exportOf('orig')
  const r = await importInto(file, '?channel=copy')
  t.equal(r.status, 200, JSON.stringify(r.body))
  t.match(r.body, { channels: ['copy'], imported: { turns: 5, facts: 4 } })
  const copy = await exportOf('copy')
  t.same(canonical(copy, { ids: false, channel: 'x' }), canonical(file, { ids: false, channel: 'x' }), 'the same content under new ids')
  const recall = async (channel: string): Promise<string[]> => {
    const res = await s.json('/api/memory/recall', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'where does Ada live now', channel, top_k: 5 }) })
    return (res.body.facts as Array<{ claim: string }>).map(f => f.claim)
  }
  t.same(await recall('copy'), await recall('orig'), 'recall in the copy finds the same facts')
  t.same((await importInto(file, '?channel=copy')).body.imported.turns, 0, 'a second import into the copy adds no turn')
})

t.test('a bad file is a 400 naming its lines, and nothing is written', async t => {
  const header = JSON.stringify({ kind: 'header', format: 'agentd-memory', version: 1 })
  const good = JSON.stringify({ kind: 'goal', id: 'g1', description: 'Ship it', channel: 'bad-file' })
  const lines = [header, good, '{"kind":"fact","id":"f1","channel":"bad-file"}', 'not json', JSON.stringify({ kind: 'widget' })]
  const r = await importInto(lines.join('\n'))
  t.equal(r.status, 400)
  t.match(r.body, { code: 'AGENT_ERR_MEMORY_BAD_REQUEST', error: /nothing was imported/ })
  t.same(r.body.details.map((d: { path: string }) => d.path), ['line 3', 'line 4', 'line 5'])
  t.match(r.body.details[0].message, /claim/)
  t.equal((await s.json('/api/memory/channels')).body.channels.some((c: { name: string }) => c.name === 'bad-file'), false, 'no channel made')
  const newer = await importInto(JSON.stringify({ kind: 'header', format: 'agentd-memory', version: 99 }))
  t.match(newer.body, { statusCode: 400, details: [{ path: 'line 1', message: /newer agentd/ }] })
  const cycle = [header, JSON.stringify({ kind: 'goal', id: 'a', description: 'A', parent_goal_id: 'b', channel: 'c1' }), JSON.stringify({ kind: 'goal', id: 'b', description: 'B', parent_goal_id: 'a', channel: 'c1' })]
  t.match((await importInto(cycle.join('\n'))).body, { statusCode: 400, details: [{ path: 'line 2', message: /comes back to itself/ }] })
  t.match((await s.post('/api/memory/import', { not: 'an export' })).status, 400, 'a JSON object is neither format')
  t.match((await importInto([header, JSON.stringify({ kind: 'goal', id: 'g', description: 'x', channel: '_all' })].join('\n'))).body, { statusCode: 400, details: [{ path: 'line 2', message: /channel/ }] })
  t.equal((await importInto(header, '?channel=_all')).status, 400, '_all is no channel to import into')
  t.match((await s.get('/api/memory/export?channel=nope')).status, 404)
})

t.test('a ChatGPT conversations.json: the branch last seen, as turns of a channel, once', async t => {
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

t.test('with Accept: application/x-ndjson the import streams its progress, then the result', async t => {
  const lines = [JSON.stringify({ kind: 'header', format: 'agentd-memory', version: 1 })]
  for (let i = 0; i < 60; i++) lines.push(JSON.stringify({ kind: 'goal', id: `g${i}`, description: `Goal number ${i}`, channel: 'progress' }))
  const res = await s.post('/api/memory/import', lines.join('\n'), { headers: { ...NDJSON, accept: 'application/x-ndjson' } })
  t.equal(res.status, 200)
  t.match(res.headers.get('content-type'), /application\/x-ndjson/)
  const events = (await res.text()).split('\n').filter(l => l !== '').map(l => JSON.parse(l) as { kind: string, done?: number, total?: number })
  const progress = events.filter(e => e.kind === 'progress')
  t.ok(progress.length >= 2 && progress.length <= 51, `${progress.length} progress lines, not one per item`)
  t.same(progress.map(p => p.done), [...progress.map(p => p.done ?? 0)].sort((a, b) => a - b), 'counting up')
  t.match(progress.at(-1), { done: 60, total: 60 })
  t.match(events.at(-1), { kind: 'result', success: true, imported: { goals: 60 } })
  // A bad file is still a plain 400 before anything streams.
  const bad = await s.post('/api/memory/import', `${lines[0]}\n{"kind":"goal"}`, { headers: { ...NDJSON, accept: 'application/x-ndjson' } })
  t.equal(bad.status, 400)
  t.match(await bad.json(), { details: [{ path: 'line 2' }] })
})
