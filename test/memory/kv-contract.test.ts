// The key-value store contract, run against every backend: in-process and the real
// Redis at 127.0.0.1:6379 (keys under a namespace unique to this run, removed after).
import t, { type Test } from 'tap'
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { until } from '../helpers/poll.ts'
import { LocalKvStore } from '../../plugins/memory-kv/local-store.ts'
import { RedisKvStore } from '../../plugins/memory-redis/redis-store.ts'
import type { KvStore } from '@agentd/sdk/contracts/memory-stores'

export const REDIS_URI = process.env.TEST_REDIS_URI ?? 'redis://127.0.0.1:6379'

const backends: Array<{ name: string, open: (t: Test) => Promise<KvStore> }> = [
  { name: 'memory', open: async () => new LocalKvStore({ maxKeys: 1000, maxListLength: 50 }) },
  {
    name: 'redis',
    open: async (t) => {
      const ns = `agentd-test-${randomBytes(6).toString('hex')}:`
      const s = new RedisKvStore({ uri: REDIS_URI, namespace: ns, maxListLength: 50, connectTimeoutMs: 2000 })
      await s.client.ping().catch(async () => { await sleep(200) })
      t.teardown(async () => { await s.deletePrefix(''); await s.close() })
      return s
    },
  },
]

for (const b of backends) {
  t.test(`kv store on ${b.name}`, async t => {
    const kv = await b.open(t)

    t.test('set/get round-trips JSON values; missing is undefined', async t => {
      await kv.set('a', { x: [1, 'two', null], y: 'ünïcode 日本' })
      t.same(await kv.get('a'), { x: [1, 'two', null], y: 'ünïcode 日本' })
      t.equal(await kv.get('nope'), undefined)
      await kv.set('n', 0)
      t.equal(await kv.get('n'), 0, 'falsy values survive')
    })

    t.test('delete says whether the key existed', async t => {
      await kv.set('d', 1)
      t.equal(await kv.delete('d'), true)
      t.equal(await kv.delete('d'), false)
      t.equal(await kv.get('d'), undefined)
    })

    t.test('TTL expires a key; a sliding read keeps it alive', async t => {
      // TTL 4 s; the sliding reads at about 2 s, the check as soon as the fixed key is seen
      // expired (4 s): each step has 2 s to spare on a loaded machine, and expiry is waited
      // for, not assumed after a sleep.
      await kv.set('ttl-fixed', 'x', { ttlSeconds: 4 })
      await kv.set('ttl-slide', 'y', { ttlSeconds: 4 })
      await kv.pushList('ttl-list', 1, { ttlSeconds: 4 })
      await sleep(2000)
      t.equal(await kv.get('ttl-slide', { slide: true }), 'y')
      t.same(await kv.getList('ttl-list', { slide: true }), [1])
      t.equal(await kv.get('ttl-fixed'), 'x', 'not expired before its time')
      await until('the fixed key to expire', async () => await kv.get('ttl-fixed') === undefined, 15_000)
      t.equal(await kv.get('ttl-slide'), 'y', 'slid: alive past the TTL it was set with')
      t.same(await kv.getList('ttl-list'), [1], 'list slid too')
    })

    t.test('lists append newest last and stay capped', async t => {
      for (let i = 0; i < 7; i++) await kv.pushList('l', { i }, { max: 5 })
      t.same(await kv.getList('l'), [2, 3, 4, 5, 6].map(i => ({ i })))
      t.same(await kv.getList('empty'), [])
      for (let i = 0; i < 60; i++) await kv.pushList('big', i)
      t.equal((await kv.getList('big')).length, 50, 'the store-wide bound applies')
    })

    t.test('deletePrefix takes the prefix literally (no glob) and counts keys', async t => {
      await kv.set('ch:a*:1', 1)
      await kv.set('ch:a*:2', 2)
      await kv.pushList('ch:a*:list', 3, { ttlSeconds: 60 })
      await kv.set('ch:ab:1', 4)
      await kv.set('ch:a?:1', 5)
      t.equal(await kv.deletePrefix('ch:a*:'), 3)
      t.equal(await kv.get('ch:ab:1'), 4)
      t.equal(await kv.get('ch:a?:1'), 5)
      t.same(await kv.getList('ch:a*:list'), [])
    })

    t.test('entries: the live plain keys of a prefix taken literally, with their values; lists and expired keys left out; no TTL slid', async t => {
      await kv.set('en:a*:1', { n: 1 })
      await kv.set('en:a*:2', 'two', { ttlSeconds: 60 })
      await kv.pushList('en:a*:list', 3)
      await kv.set('en:ab:1', 4)
      await kv.set('en:a*:gone', 5, { ttlSeconds: 1 })
      await until('the short-lived key to expire', async () => await kv.get('en:a*:gone') === undefined, 15_000)
      const found = await kv.entries!('en:a*:')
      t.same(found.sort((x, y) => x.key.localeCompare(y.key)), [{ key: 'en:a*:1', value: { n: 1 } }, { key: 'en:a*:2', value: 'two' }])
      t.same(await kv.entries!('en:none:'), [])
      found[0].value = 'changed'
      t.same(await kv.get('en:a*:1'), { n: 1 }, 'the values handed out are copies')
    })

    t.test('health is healthy and names the backend', async t => {
      t.same(await kv.health(), { status: 'healthy', backend: b.name })
    })
  })
}

t.test('the in-process store evicts least recently used keys beyond its bound', async t => {
  const kv = new LocalKvStore({ maxKeys: 3 })
  await kv.set('a', 1); await kv.set('b', 2); await kv.set('c', 3)
  await kv.get('a')
  await kv.set('d', 4)
  t.equal(await kv.get('b'), undefined, 'b was least recently used')
  t.equal(await kv.get('a'), 1)
  t.equal(kv.size, 3)
})

t.test('the in-process store hands out copies', async t => {
  const kv = new LocalKvStore()
  const v = { n: 1 }
  await kv.set('k', v)
  v.n = 2
  const got = await kv.get<{ n: number }>('k')
  t.equal(got?.n, 1)
})

t.test('Redis: a value that is not valid JSON reads as missing (and is reported), not as "store unavailable"', async t => {
  const ns = `agentd-test-${randomBytes(6).toString('hex')}:`
  const warnings: string[] = []
  const kv = new RedisKvStore({ uri: REDIS_URI, namespace: ns, maxListLength: 50, connectTimeoutMs: 2000, log: { warn: (_o, msg) => { warnings.push(msg) } } })
  t.teardown(async () => { await kv.deletePrefix(''); await kv.close() })
  t.equal((await kv.health()).status, 'healthy', 'connected')
  await kv.client.set(`${ns}bad`, '{not json')
  await kv.client.set(`${ns}foreign`, '"a plain string"')
  t.equal(await kv.get('bad'), undefined)
  t.equal(await kv.get('foreign'), undefined, 'valid JSON but not our envelope')
  await kv.pushList('list', { ok: 1 })
  await kv.client.rpush(`${ns}list`, 'garbage{')
  await kv.pushList('list', { ok: 2 })
  t.same(await kv.getList('list'), [{ ok: 1 }, { ok: 2 }], 'the corrupt item is skipped')
  t.equal(warnings.length, 3)
  t.match(warnings[0], /not valid JSON/)
  t.equal((await kv.health()).status, 'healthy')
})
