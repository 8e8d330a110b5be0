// GET /api/chat/sessions, GET and DELETE /api/chat/sessions/{id} on every session-store
// backend in the repository: the chat's in-process store (no key-value plugin), memory-kv
// (in-process key-value store) and memory-redis (the real Redis). Each runs the same
// scenario through the HTTP API.
import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { redisNamespace, REDIS_URI as REDIS } from '../helpers/redis.ts'
import { startChat, until } from './helpers.ts'
import { fixturePlugin, repoPlugin, type PluginSpec } from '../helpers/workspace.ts'
import type { Started } from '../helpers/kernel.ts'
import type { FakeOpenAI } from '../fakes/openai-upstream.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

async function scenario (t: Test, s: Started, fake: FakeOpenAI, backend: string): Promise<void> {
  const empty = await s.json('/api/chat/sessions')
  t.equal(empty.status, 200)
  t.same(empty.body, { sessions: [], total: 0, page: 1, limit: 20, has_next: false, backend })

  // Three sessions, one after another (each chat answers before the next starts), the first one continued last.
  const chat = async (message: string, sessionId?: string): Promise<string> => {
    fake.enqueue({ text: `re: ${message}` })
    const r = await s.post('/api/agent/chat', { message, use_memory: false, ...(sessionId === undefined ? {} : { session_id: sessionId }) })
    t.equal(r.status, 200, message)
    return (await r.json() as Json).session_id as string
  }
  const a = await chat('First   question\nabout tea')
  const b = await chat('Second session')
  const c = await chat('x'.repeat(120))
  // updated_at has millisecond resolution: continue `a` once the clock has moved past c's save.
  const cUpdated = (await s.json(`/api/chat/sessions/${c}`)).body.session.updated_at as string
  await until('the clock to pass the last save', () => Date.now() > Date.parse(cUpdated))
  await chat('Follow-up', a)

  const all = await s.json('/api/chat/sessions')
  t.equal(all.status, 200)
  t.same(all.body.sessions.map((x: Json) => x.id), [a, c, b], 'newest first')
  t.match(all.body.sessions[0], { id: a, title: 'First question about tea', message_count: 4, created_at: String, updated_at: String })
  t.equal(all.body.sessions[1].title, `${'x'.repeat(79)}…`, 'a long first message is cut')
  t.equal(all.body.sessions[2].message_count, 2)
  t.equal(all.body.total, 3)
  t.equal(all.body.backend, backend)

  const p1 = await s.json('/api/chat/sessions?limit=2')
  t.same([p1.body.sessions.map((x: Json) => x.id), p1.body.has_next, p1.body.total], [[a, c], true, 3])
  const p2 = await s.json('/api/chat/sessions?limit=2&page=2')
  t.same([p2.body.sessions.map((x: Json) => x.id), p2.body.has_next], [[b], false])
  t.same((await s.json('/api/chat/sessions?page=9')).body.sessions, [], 'past the end: empty')

  const one = await s.json(`/api/chat/sessions/${a}`)
  t.equal(one.status, 200)
  t.same(one.body.session.messages.map((m: Json) => [m.role, m.content]), [
    ['user', 'First   question\nabout tea'], ['assistant', 're: First   question\nabout tea'], ['user', 'Follow-up'], ['assistant', 're: Follow-up'],
  ])
  t.equal(one.body.session.title, 'First question about tea')

  for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x', 'sort=new']) {
    const r = await s.json(`/api/chat/sessions?${q}`)
    t.equal(r.status, 400, q)
    t.equal(r.body.code, 'AGENT_ERR_VALIDATION', q)
  }
  t.equal((await s.json('/api/chat/sessions/not-a-uuid')).status, 400)
  const unknown = await s.json(`/api/chat/sessions/${randomUUID()}`)
  t.equal(unknown.status, 404)
  t.equal(unknown.body.code, 'AGENT_ERR_CHAT_UNKNOWN_SESSION')

  const del = await s.json(`/api/chat/sessions/${b}`, { method: 'DELETE' })
  t.same([del.status, del.body], [200, { deleted: b }])
  t.equal((await s.json(`/api/chat/sessions/${b}`, { method: 'DELETE' })).status, 404, 'already gone')
  t.equal((await s.json(`/api/chat/sessions/${b}`)).status, 404)
  t.same((await s.json('/api/chat/sessions')).body.sessions.map((x: Json) => x.id), [a, c])
}

t.test('the chat\'s own in-process store (no key-value plugin)', async t => {
  const { s, fake } = await startChat(t)
  await scenario(t, s, fake, 'memory')
})

t.test('memory-kv: the in-process key-value store', async t => {
  const extra: PluginSpec[] = [{ name: 'memory-kv', module: repoPlugin('memory-kv'), options: { persist: false } }]
  const { s, fake } = await startChat(t, { extra })
  await scenario(t, s, fake, 'memory')
  t.ok(await s.kernel.current!.app.registry.kvStores.first()!.get(`chat:summary:${(await s.json('/api/chat/sessions')).body.sessions[0].id as string}`), 'the summaries are in the key-value store')
})

t.test('memory-redis: the real Redis', async t => {
  const { redis, namespace } = await redisNamespace(t, 'agentd-test-list')
  const extra: PluginSpec[] = [{ name: 'memory-redis', module: repoPlugin('memory-redis'), options: { uri: REDIS, namespace } }]
  const { s, fake } = await startChat(t, { extra })
  const kv = s.kernel.current!.app.registry.kvStores.first()!
  // Commands fail fast while it connects; the chat would (correctly) fall back in process.
  await until('Redis to be connected', async () => (await kv.health()).status === 'healthy')
  // A list key and a foreign value under the summary prefix are skipped, not a failure.
  await redis.rpush(`${namespace}chat:summary:a-list`, 'x')
  await redis.set(`${namespace}chat:summary:foreign`, 'not json')
  await scenario(t, s, fake, 'redis')
  const keys = (await redis.keys(`${namespace}chat:summary:*`)).sort()
  t.equal(keys.length, 4, 'two summaries left plus the two foreign keys')
  t.ok(await redis.ttl(keys.find(k => !k.endsWith('a-list') && !k.endsWith('foreign'))!) > 0, 'summaries expire with their sessions')
})

t.test('a key-value store that cannot enumerate keys: the list is a 503 that says why; reading a session by id still works', async t => {
  const extra: PluginSpec[] = [{ name: 'fake-memory', module: fixturePlugin('fake-memory'), options: { kv: true } }]
  const { s, fake } = await startChat(t, { extra })
  fake.enqueue({ text: 'hello back' })
  const id = (await (await s.post('/api/agent/chat', { message: 'hello', use_memory: false })).json() as Json).session_id as string
  const r = await s.json('/api/chat/sessions')
  t.equal(r.status, 503)
  t.match(r.body, { code: 'AGENT_ERR_CHAT_SESSIONS_UNAVAILABLE', error: /"fake-kv" cannot list its keys/ })
  t.equal((await s.json(`/api/chat/sessions/${id}`)).body.session.title, 'hello')
})

t.test('a key-value store that is down: the in-process fallback\'s sessions are listed', async t => {
  const extra: PluginSpec[] = [{ name: 'fake-memory', module: fixturePlugin('fake-memory'), options: { kv: true, kv_fail: true, kv_entries: true } }]
  const { s, fake } = await startChat(t, { extra })
  fake.enqueue({ text: 'still here' })
  const id = (await (await s.post('/api/agent/chat', { message: 'during the outage', use_memory: false })).json() as Json).session_id as string
  const r = await s.json('/api/chat/sessions')
  t.equal(r.status, 200)
  t.same(r.body.sessions.map((x: Json) => [x.id, x.title]), [[id, 'during the outage']])
})
