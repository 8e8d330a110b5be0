import t from 'tap'
import { RateLimitCounters } from './rate-limit-store.ts'

t.test('counts per key within a window, then starts a new window', async t => {
  const c = new RateLimitCounters()
  t.same(c.hit('a', 1000, 0), { current: 1, ttl: 1000 })
  t.same(c.hit('a', 1000, 400), { current: 2, ttl: 600 })
  t.same(c.hit('b', 1000, 400), { current: 1, ttl: 1000 }, 'keys count apart')
  t.same(c.hit('a', 1000, 1000), { current: 1, ttl: 1000 }, 'window over: a fresh count')
})

t.test('store instances made for two generations share the counts', async t => {
  const c = new RateLimitCounters()
  const Store = c.storeClass()
  const first = new Store({})
  const second = new Store({})
  const incr = async (s: InstanceType<typeof Store>, key: string): Promise<number> => await new Promise(resolve => { s.incr(key, (_e, r) => { resolve(r!.current) }, 60_000, 3) })
  t.equal(await incr(first, '127.0.0.1'), 1)
  t.equal(await incr(first, '127.0.0.1'), 2)
  t.equal(await incr(second, '127.0.0.1'), 3)
  const route = second.child({ routeInfo: { method: 'POST', url: '/api/x' } } as never)
  t.equal(await incr(route, '127.0.0.1'), 1, 'a route with its own limit counts apart')
})

t.test('past maxKeys the oldest window is forgotten', async t => {
  const c = new RateLimitCounters(2)
  c.hit('a', 1000, 0); c.hit('b', 1000, 0); c.hit('c', 1000, 0)
  t.equal(c.size, 2)
  t.equal(c.hit('a', 1000, 1).current, 1, '"a" was evicted')
})
