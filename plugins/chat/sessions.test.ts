import t from 'tap'
import { LocalSessionStore, newSession } from './sessions.ts'

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
  const store = new LocalSessionStore({ ttlSeconds: 0.05, maxSessions: 10 })
  await store.save(newSession('a'))
  t.ok(await store.get('a'))
  await new Promise(resolve => setTimeout(resolve, 80))
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
