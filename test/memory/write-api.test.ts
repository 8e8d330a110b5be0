// The memory write API on a real server with the embedded defaults (PGlite, memory-kv,
// embed-hash): every endpoint's happy path, 404, a 400 for each bad field, history after
// an edit, and a delete that recall stops returning at once.
import t, { type Test } from 'tap'
import { startMemoryKernel, del, postJson } from './memory-kernel.ts'
import type { Started } from '../helpers/kernel.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const NO_SUCH = '00000000-0000-4000-8000-000000000000'

const send = async (s: Started, method: string, p: string, body?: unknown): Promise<{ status: number, body: Json }> => {
  const res = await s.get(p, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) })
  const text = await res.text()
  return { status: res.status, body: text === '' ? {} : JSON.parse(text) }
}
const patch = async (s: Started, p: string, body: unknown): Promise<{ status: number, body: Json }> => await send(s, 'PATCH', p, body)

/** Each body must be refused with 400 naming `field` in its details or message. */
async function each400 (t: Test, s: Started, method: string, p: string, cases: Array<[string, unknown]>): Promise<void> {
  for (const [field, body] of cases) {
    const r = await send(s, method, p, body)
    t.equal(r.status, 400, `${method} ${p}: bad ${field} -> 400`)
    t.match(JSON.stringify(r.body), new RegExp(field), `the error names ${field}`)
  }
}

t.test('memory write API', async t => {
  const s = await startMemoryKernel(t, { env: { AGENT_MAX_TEXT_LENGTH: '500' } })

  t.test('turns: added in order, read back; 400 per bad field; 413 over the text limit; 404 for an unknown conversation', async t => {
    const r = await postJson(s, '/api/memory/turns', {
      messages: [{ role: 'user', content: 'I moved to Lisbon last spring' }, { role: 'assistant', content: 'Lisbon is lovely.' }],
      channel: 'wapi', user_id: 'u-1', metadata: { via: 'test' },
    })
    t.equal(r.status, 201)
    t.equal(r.body.queued, 0)
    t.match(r.body.conversation_id, /^[0-9a-f-]{36}$/, 'a conversation id is made when none is given')
    t.same(r.body.turns.map((x: Json) => [x.index, x.role, x.content]), [[0, 'user', 'I moved to Lisbon last spring'], [1, 'assistant', 'Lisbon is lovely.']])
    t.match(r.body.turns[0].metadata, { via: 'test', user_id: 'u-1', source: 'api' })
    const more = await postJson(s, '/api/memory/turns', { conversation_id: r.body.conversation_id, channel: 'wapi', messages: [{ role: 'user', content: 'And I work at Acme.' }] })
    t.equal(more.status, 201)
    const read = await s.json(`/api/memory/conversations/${r.body.conversation_id}/turns`)
    t.equal(read.status, 200)
    t.same(read.body.turns.map((x: Json) => x.content), ['I moved to Lisbon last spring', 'Lisbon is lovely.', 'And I work at Acme.'])
    t.equal((await s.json('/api/memory/conversations/never-was/turns')).status, 404)
    t.equal((await s.json(`/api/memory/conversations/${r.body.conversation_id}/turns?limit=0`)).status, 400)
    await each400(t, s, 'POST', '/api/memory/turns', [
      ['messages', {}],
      ['messages', { messages: [] }],
      ['messages', { messages: 'hello' }],
      ['role', { messages: [{ role: 'robot', content: 'x' }] }],
      ['content', { messages: [{ role: 'user', content: '' }] }],
      ['content', { messages: [{ role: 'user' }] }],
      ['conversation_id', { messages: [{ role: 'user', content: 'x' }], conversation_id: 'c'.repeat(201) }],
      ['channel', { messages: [{ role: 'user', content: 'x' }], channel: '../etc' }],
      ['metadata', { messages: [{ role: 'user', content: 'x' }], metadata: 'nope' }],
      ['surprise', { messages: [{ role: 'user', content: 'x' }], surprise: 1 }],
    ])
    const big = await postJson(s, '/api/memory/turns', { messages: [{ role: 'user', content: 'x'.repeat(501) }] })
    t.equal(big.status, 413)
    t.match(big.body.error, /500/)
  })

  t.test('facts: add (deduplicated), read, correct (supersession), edit in place, history, delete (gone from recall at once)', async t => {
    const added = await postJson(s, '/api/memory/facts', { claim: 'The user lives in Lisbon', channel: 'wapi', confidence: 0.9 })
    t.equal(added.status, 201)
    t.equal(added.body.created, true)
    const id = added.body.fact.id as string
    const again = await postJson(s, '/api/memory/facts', { claim: 'the user lives in lisbon.', channel: 'wapi' })
    t.equal(again.status, 200, 'the same claim, normalised, is the same fact')
    t.same([again.body.created, again.body.fact.id], [false, id])
    t.match((await s.json(`/api/memory/facts/${id}`)).body, { id, claim: 'The user lives in Lisbon', source: 'user_stated', channel: 'wapi' })

    const fixed = await patch(s, `/api/memory/facts/${id}`, { claim: 'The user lives in Porto' })
    t.equal(fixed.status, 200)
    t.match(fixed.body, { fact: { claim: 'The user lives in Porto', supersedes_id: id }, superseded: { id, superseded_by_id: String } })
    const newId = fixed.body.fact.id as string
    t.not(newId, id, 'a correction is a new fact')
    t.match((await s.json(`/api/memory/facts/${id}`)).body, { superseded_by_id: newId, superseded_at: String }, 'the old fact stays, linked')
    const stale = await patch(s, `/api/memory/facts/${id}`, { claim: 'The user lives in Faro' })
    t.equal(stale.status, 409, 'a superseded fact cannot be edited')
    t.match(stale.body.error, newId)

    const conf = await patch(s, `/api/memory/facts/${newId}`, { confidence: 0.5, temporal_context: 'current' })
    t.equal(conf.status, 200)
    t.same([conf.body.fact.id, conf.body.fact.confidence, conf.body.superseded], [newId, 0.5, undefined], 'no new claim: changed in place')

    const h = await s.json(`/api/memory/facts/${id}/history`)
    t.equal(h.status, 200)
    t.same(h.body.history.map((e: Json) => [e.action, e.actor]), [['fact.create', 'user'], ['fact.superseded', 'user']])
    t.match(h.body.history[1].details, { superseded_by_id: newId, by_claim: 'The user lives in Porto' })
    const h2 = await s.json(`/api/memory/facts/${newId}/history`)
    t.same(h2.body.history.map((e: Json) => [e.action, e.actor]), [['fact.create', 'user'], ['fact.update', 'user']])
    t.match(h2.body.history[0].details, { supersedes_id: id })
    t.match(h2.body.history[1].details, { changes: { confidence: { from: 0.9, to: 0.5 } } })

    const recallIds = async (): Promise<string[]> => ((await postJson(s, '/api/memory/recall', { query: 'Where does the user live? Porto', channel: 'wapi' })).body.facts as Json[]).map(f => f.id)
    t.ok((await recallIds()).includes(newId), 'recalled before the delete')
    t.notOk((await recallIds()).includes(id), 'the superseded fact is out of recall')
    const gone = await del(s, `/api/memory/facts/${newId}`)
    t.equal(gone.status, 200)
    t.equal(gone.body.id, newId)
    t.notOk((await recallIds()).includes(newId), 'deleted: recall does not return it at once')
    t.equal((await s.json(`/api/memory/facts/${newId}`)).status, 404)
    t.equal((await del(s, `/api/memory/facts/${newId}`)).status, 404)
    const h3 = await s.json(`/api/memory/facts/${newId}/history`)
    t.same([h3.status, h3.body.exists, h3.body.history.at(-1).action], [200, false, 'fact.delete'], 'a deleted fact keeps its history')

    for (const p of [`/api/memory/facts/${NO_SUCH}`, `/api/memory/facts/${NO_SUCH}/history`]) t.equal((await s.json(p)).status, 404, `${p} -> 404`)
    t.equal((await patch(s, `/api/memory/facts/${NO_SUCH}`, { confidence: 0.1 })).status, 404)
    t.equal((await s.json('/api/memory/facts/not-a-uuid')).status, 400)
    t.equal((await postJson(s, '/api/memory/facts', { claim: 'x', entity_ids: [NO_SUCH] })).status, 404, 'an unknown entity id')
    await each400(t, s, 'POST', '/api/memory/facts', [
      ['claim', {}], ['claim', { claim: '' }], ['claim', { claim: 42 }], ['claim', { claim: '   ' }],
      ['channel', { claim: 'x', channel: '_all' }], ['confidence', { claim: 'x', confidence: 2 }], ['confidence', { claim: 'x', confidence: 'high' }],
      ['entity_ids', { claim: 'x', entity_ids: ['nope'] }], ['temporal_context', { claim: 'x', temporal_context: 'someday' }],
      ['salience', { claim: 'x', salience: -1 }], ['extra', { claim: 'x', extra: true }],
    ])
    await each400(t, s, 'PATCH', `/api/memory/facts/${id}`, [
      ['body', {}], ['claim', { claim: '' }], ['confidence', { confidence: 1.5 }], ['temporal_context', { temporal_context: 1 }],
      ['flagged_for_review', { flagged_for_review: 'yes' }], ['source', { source: 'inferred' }],
    ])
  })

  t.test('entities: add (merged by name and type), read, rename, conflict, history, delete', async t => {
    const a = await postJson(s, '/api/memory/entities', { name: 'Acme', type: 'organization', channel: 'wapi', aliases: ['Acme Corp'] })
    t.equal(a.status, 201)
    const id = a.body.entity.id as string
    const same = await postJson(s, '/api/memory/entities', { name: 'ACME', type: 'organization', channel: 'wapi', aliases: ['Acme Inc'] })
    t.same([same.status, same.body.created, same.body.entity.id], [200, false, id])
    t.same([...same.body.entity.aliases].sort(), ['Acme Corp', 'Acme Inc'])
    const b = await postJson(s, '/api/memory/entities', { name: 'Globex', type: 'organization', channel: 'wapi' })
    t.equal(b.status, 201)
    t.match((await s.json(`/api/memory/entities/${id}`)).body, { id, name: 'Acme', type: 'organization' })

    const renamed = await patch(s, `/api/memory/entities/${id}`, { name: 'Acme Ltd', description: 'where the user works' })
    t.equal(renamed.status, 200)
    t.match(renamed.body, { id, name: 'Acme Ltd', description: 'where the user works' })
    t.match(renamed.body.entity, { id, name: 'Acme Ltd' }, 'under entity too, as the fact PATCH answers fact')
    const clash = await patch(s, `/api/memory/entities/${id}`, { name: 'globex' })
    t.equal(clash.status, 409)
    t.match(clash.body.error, b.body.entity.id)
    const h = await s.json(`/api/memory/entities/${id}/history`)
    t.same(h.body.history.map((e: Json) => [e.action, e.actor]), [['entity.create', 'user'], ['entity.merge', 'merge'], ['entity.update', 'user']])
    t.match(h.body.history[2].details, { changes: { name: { from: 'Acme', to: 'Acme Ltd' } } })

    const goneEntity = await del(s, `/api/memory/entities/${id}`)
    t.equal(goneEntity.status, 200)
    t.match(goneEntity.body, { deleted: true, entity: { id, name: 'Acme Ltd' } })
    t.equal((await s.json(`/api/memory/entities/${id}`)).status, 404)
    t.equal((await del(s, `/api/memory/entities/${id}`)).status, 404)
    t.equal((await patch(s, `/api/memory/entities/${NO_SUCH}`, { name: 'x' })).status, 404)
    t.equal((await s.json(`/api/memory/entities/${NO_SUCH}/history`)).status, 404)
    await each400(t, s, 'POST', '/api/memory/entities', [
      ['name', { type: 'person' }], ['type', { name: 'Ada' }], ['name', { name: '', type: 'person' }], ['name', { name: 'n'.repeat(201), type: 'person' }],
      ['aliases', { name: 'Ada', type: 'person', aliases: 'Ada L' }], ['channel', { name: 'Ada', type: 'person', channel: 'a b' }],
      ['properties', { name: 'Ada', type: 'person', properties: [] }], ['salience', { name: 'Ada', type: 'person', salience: 3 }], ['nickname', { name: 'Ada', type: 'person', nickname: 'A' }],
    ])
    await each400(t, s, 'PATCH', `/api/memory/entities/${b.body.entity.id}`, [['body', {}], ['name', { name: '' }], ['channel', { channel: 'other' }]])
  })

  t.test('goals: add, list, status transitions (409 for a move not allowed), history, delete', async t => {
    const g = await postJson(s, '/api/memory/goals', { description: 'Learn Portuguese', priority: 4, channel: 'wapi', deadline: '2027-01-01T00:00:00Z' })
    t.equal(g.status, 201)
    t.match(g.body, { description: 'Learn Portuguese', status: 'active', priority: 4 })
    const id = g.body.id as string
    const sub = await postJson(s, '/api/memory/goals', { description: 'Finish lesson one', parent_goal_id: id, channel: 'wapi' })
    t.equal(sub.status, 201)
    t.equal((await postJson(s, '/api/memory/goals', { description: 'orphan', parent_goal_id: NO_SUCH })).status, 404)
    t.ok((await s.json('/api/memory/goals?channel=wapi&status=active')).body.goals.some((x: Json) => x.id === id))
    t.same((await patch(s, `/api/memory/goals/${id}`, { status: 'blocked' })).body.status, 'blocked')
    t.same((await patch(s, `/api/memory/goals/${id}`, { status: 'completed' })).body.status, 'completed')
    const bad = await patch(s, `/api/memory/goals/${id}`, { status: 'blocked' })
    t.equal(bad.status, 409)
    t.match(bad.body.error, /completed cannot become blocked.*active/)
    t.same((await patch(s, `/api/memory/goals/${id}`, { status: 'active', priority: 5 })).body, { ...g.body, status: 'active', priority: 5 }, 'reopened')
    const h = await s.json(`/api/memory/goals/${id}/history`)
    t.same(h.body.history.map((e: Json) => [e.action, e.details.changes?.status?.to ?? null]), [['goal.create', null], ['goal.status', 'blocked'], ['goal.status', 'completed'], ['goal.status', 'active']])
    t.equal((await del(s, `/api/memory/goals/${sub.body.id as string}`)).status, 200)
    t.equal((await s.json(`/api/memory/goals/${sub.body.id as string}`)).status, 404)
    t.equal((await patch(s, `/api/memory/goals/${NO_SUCH}`, { status: 'completed' })).status, 404)
    t.equal((await del(s, `/api/memory/goals/${NO_SUCH}`)).status, 404)
    await each400(t, s, 'POST', '/api/memory/goals', [
      ['description', {}], ['description', { description: '' }], ['status', { description: 'x', status: 'done' }], ['priority', { description: 'x', priority: 9 }],
      ['deadline', { description: 'x', deadline: 'next week' }], ['parent_goal_id', { description: 'x', parent_goal_id: 'p1' }], ['channel', { description: 'x', channel: '' }],
    ])
    await each400(t, s, 'PATCH', `/api/memory/goals/${id}`, [['body', {}], ['status', { status: 'paused' }], ['priority', { priority: 0 }]])
    t.equal((await s.json('/api/memory/goals?status=paused')).status, 400)
  })

  t.test('strategies: add, read, history, delete', async t => {
    const r = await postJson(s, '/api/memory/strategies', { description: 'Check the calendar first', context_pattern: 'scheduling questions', tool_sequence: ['calendar.list'], channel: 'wapi' })
    t.equal(r.status, 201)
    const id = r.body.id as string
    t.match((await s.json(`/api/memory/strategies/${id}`)).body, { id, tool_sequence: ['calendar.list'] })
    t.equal((await del(s, `/api/memory/strategies/${id}`)).status, 200)
    t.same((await s.json(`/api/memory/strategies/${id}/history`)).body.history.map((e: Json) => e.action), ['strategy.create', 'strategy.delete'])
    t.equal((await s.json(`/api/memory/strategies/${id}`)).status, 404)
    await each400(t, s, 'POST', '/api/memory/strategies', [
      ['context_pattern', { description: 'x' }], ['description', { context_pattern: 'x' }], ['tool_sequence', { description: 'x', context_pattern: 'y', tool_sequence: 'a,b' }],
    ])
  })
})
