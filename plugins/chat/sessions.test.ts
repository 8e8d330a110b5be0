import t from 'tap'
import pino from 'pino'
import { setTimeout as sleep } from 'node:timers/promises'
import { byNewest, FallbackSessionStore, LocalSessionStore, newSession, summarize, TITLE_LENGTH, type Session, type SessionStore, type SessionSummary } from './sessions.ts'

t.test('the in-process store evicts the least recently used past its size bound', async t => {
  const store = new LocalSessionStore({ ttlSeconds: 60, maxSessions: 2 })
  await store.save(newSession('a'))
  await store.save(newSession('b'))
  await store.get('a') // a is now the most recently used
  await store.save(newSession('c'))
  t.equal(store.size, 2)
  t.ok(await store.get('a'))
  t.equal(await store.get('b'), undefined, 'b was evicted')
  t.ok(await store.get('c'))
})

t.test('sessions expire after the TTL of idleness', async t => {
  const store = new LocalSessionStore({ ttlSeconds: 0.5, maxSessions: 10 })
  await store.save(newSession('a'))
  t.ok(await store.get('a'))
  await sleep(600) // a lower bound: time only passes, so the session is idle past its TTL
  t.equal(await store.get('a'), undefined)
})

t.test('stored sessions are copies: changing a returned session changes nothing until saved', async t => {
  const store = new LocalSessionStore({ ttlSeconds: 60, maxSessions: 10 })
  const s = newSession('a')
  await store.save(s)
  s.messages.push({ role: 'user', content: 'not saved' })
  const got = await store.get('a')
  t.same(got?.messages, [])
  got!.messages.push({ role: 'user', content: 'also not saved' })
  t.same((await store.get('a'))?.messages, [])
})

/** A primary store that can be taken down, like a Redis outage. */
class FlakyStore implements SessionStore {
  readonly backend = 'flaky'
  readonly data = new Map<string, Session>()
  down = false
  saves = 0
  async get (id: string): Promise<Session | undefined> {
    if (this.down) throw new Error('connection refused')
    return structuredClone(this.data.get(id))
  }

  async save (session: Session): Promise<void> {
    if (this.down) throw new Error('connection refused')
    this.saves++
    this.data.set(session.id, structuredClone(session))
  }

  async list (): Promise<SessionSummary[]> {
    if (this.down) throw new Error('connection refused')
    return [...this.data.values()].map(summarize)
  }

  async remove (id: string): Promise<boolean> {
    if (this.down) throw new Error('connection refused')
    return this.data.delete(id)
  }
}

const silent = pino({ level: 'silent' })
const at = (iso: string, content: string, id = 's1'): Session => ({ id, messages: [{ role: 'user', content }], created_at: '2024-01-01T00:00:00.000Z', updated_at: iso })

function stores (): { primary: FlakyStore, local: LocalSessionStore, store: FallbackSessionStore } {
  const primary = new FlakyStore()
  const local = new LocalSessionStore({ ttlSeconds: 60, maxSessions: 10 })
  return { primary, local, store: new FallbackSessionStore(primary, local, silent) }
}

t.test('fallback: turns saved during a primary outage win over the stale primary copy once it is back, and are written back', async t => {
  const { primary, local, store } = stores()
  await store.save(at('2024-01-01T10:00:00.000Z', 'before the outage'))
  primary.down = true
  await store.save(at('2024-01-01T10:05:00.000Z', 'during the outage'))
  t.same((await store.get('s1'))?.messages, [{ role: 'user', content: 'during the outage' }], 'served from the fallback while down')
  primary.down = false
  t.same((await store.get('s1'))?.messages, [{ role: 'user', content: 'during the outage' }], 'the newer in-process copy, not the stale primary one')
  t.equal(primary.data.get('s1')?.messages[0].content, 'during the outage', 'written back to the primary')
  t.equal(await local.get('s1'), undefined, 'and the in-process copy dropped')
})

t.test('fallback: a primary copy newer than the in-process one wins and is not rewritten', async t => {
  const { primary, local, store } = stores()
  await local.save(at('2024-01-01T10:00:00.000Z', 'old outage copy'))
  await primary.save(at('2024-01-01T11:00:00.000Z', 'newer in primary'))
  const savesBefore = primary.saves
  t.equal((await store.get('s1'))?.messages[0].content, 'newer in primary')
  t.equal(primary.saves, savesBefore, 'no write-back')
  t.equal(await local.get('s1'), undefined, 'the stale in-process copy is dropped')
})

t.test('fallback: only one side has the session', async t => {
  const { primary, local, store } = stores()
  await primary.save(at('2024-01-01T10:00:00.000Z', 'primary only', 'p'))
  await local.save(at('2024-01-01T10:00:00.000Z', 'local only', 'l'))
  t.equal((await store.get('p'))?.messages[0].content, 'primary only')
  t.equal((await store.get('l'))?.messages[0].content, 'local only')
  t.equal(primary.data.get('l')?.messages[0].content, 'local only', 'a session only in process is written back too')
  t.equal(await store.get('none'), undefined)
})

t.test('fallback: a failing write-back still serves the newer copy', async t => {
  const { primary, local, store } = stores()
  await primary.save(at('2024-01-01T10:00:00.000Z', 'stale'))
  await local.save(at('2024-01-01T10:05:00.000Z', 'fresh'))
  primary.save = async () => { throw new Error('READONLY replica') }
  t.equal((await store.get('s1'))?.messages[0].content, 'fresh')
  t.equal((await local.get('s1'))?.messages[0].content, 'fresh', 'kept in process until the primary takes it')
})

t.test('a summary: the first user message as title (one line, cut), counts, dates', async t => {
  const s: Session = { id: 'x', created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-02T00:00:00.000Z', messages: [
    { role: 'assistant', content: 'not this' }, { role: 'user', content: '  first\n  question ' }, { role: 'user', content: 'second' },
  ] }
  t.same(summarize(s), { id: 'x', title: 'first question', created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-02T00:00:00.000Z', message_count: 3 })
  const long = summarize({ ...s, messages: [{ role: 'user', content: 'y'.repeat(200) }] }).title
  t.equal(long.length, TITLE_LENGTH)
  t.ok(long.endsWith('…'))
  t.equal(summarize(newSession('e')).title, '', 'no user message yet')
})

t.test('the in-process store lists live sessions without touching their LRU order; remove forgets one', async t => {
  const store = new LocalSessionStore({ ttlSeconds: 60, maxSessions: 2 })
  await store.save(at('2024-01-01T10:00:00.000Z', 'a', 'a'))
  await store.save(at('2024-01-01T11:00:00.000Z', 'b', 'b'))
  t.same((await store.list()).sort(byNewest).map(x => [x.id, x.title]), [['b', 'b'], ['a', 'a']])
  await store.save(at('2024-01-01T12:00:00.000Z', 'c', 'c'))
  t.same((await store.list()).map(x => x.id).sort(), ['b', 'c'], 'listing did not make a the most recently used: it was evicted')
  t.equal(await store.remove('b'), true)
  t.equal(await store.remove('b'), false, 'already gone')
  t.same((await store.list()).map(x => x.id), ['c'])
})

t.test('fallback list: the primary\'s sessions and the in-process ones merged, the newer summary winning; only in-process ones while down', async t => {
  const { primary, local, store } = stores()
  await primary.save(at('2024-01-01T10:00:00.000Z', 'in primary', 'p'))
  await primary.save(at('2024-01-01T10:00:00.000Z', 'stale', 'both'))
  await local.save(at('2024-01-01T11:00:00.000Z', 'fresh', 'both'))
  await local.save(at('2024-01-01T09:00:00.000Z', 'in process', 'l'))
  t.same((await store.list()).sort(byNewest).map(x => [x.id, x.title]), [['both', 'fresh'], ['p', 'in primary'], ['l', 'in process']])
  primary.down = true
  t.same((await store.list()).sort(byNewest).map(x => x.id), ['both', 'l'], 'the in-process ones while the primary is down')
  await t.rejects(store.remove('p'), /connection refused/, 'a remove the primary cannot do is not reported as done')
  primary.down = false
  t.equal(await store.remove('both'), true)
  t.equal(await local.get('both'), undefined, 'removed from both sides')
  t.notOk(primary.data.has('both'))
})

t.test('sorting newest first breaks ties by id, so pages are stable', async t => {
  const x = (id: string, updated: string): SessionSummary => ({ id, title: id, created_at: updated, updated_at: updated, message_count: 1 })
  t.same([x('b', '2024-01-01T00:00:00Z'), x('a', '2024-01-01T00:00:00Z'), x('c', '2024-01-02T00:00:00Z')].sort(byNewest).map(s => s.id), ['c', 'a', 'b'])
})
