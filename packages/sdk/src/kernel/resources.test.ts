import t from 'tap'
import { ResourcePool, ScopedResources, stableStringify } from './resources.ts'

t.test('same kind and options share one instance; the last release disposes it', async t => {
  const pool = new ResourcePool()
  const disposed: number[] = []
  let n = 0
  const spec = { kind: 'db', options: { url: 'x', size: 2 }, create: () => ({ id: ++n }), dispose: (v: { id: number }) => { disposed.push(v.id) } }
  const a = await pool.acquire(spec)
  const b = await pool.acquire({ ...spec, options: { size: 2, url: 'x' } })
  t.equal(a.value, b.value, 'key order does not matter')
  await a.release()
  t.same(disposed, [])
  await a.release()
  t.same(disposed, [], 'a double release counts once')
  await b.release()
  t.same(disposed, [1])
  t.same(pool.list(), [])
})

t.test('concurrent acquires of a new key create once', async t => {
  const pool = new ResourcePool()
  let creates = 0
  const spec = { kind: 'model', options: {}, create: async () => { creates++; await new Promise(resolve => setTimeout(resolve, 20)); return {} } }
  await Promise.all([pool.acquire(spec), pool.acquire(spec), pool.acquire(spec)])
  t.equal(creates, 1)
})

t.test('a failed creation is not cached: the next acquire tries again', async t => {
  const pool = new ResourcePool()
  let attempt = 0
  const spec = { kind: 'conn', options: {}, create: () => { if (++attempt === 1) throw new Error('down'); return 'up' } }
  await t.rejects(pool.acquire(spec), /down/)
  t.equal((await pool.acquire(spec)).value, 'up')
})

t.test('a scope releases everything it acquired', async t => {
  const pool = new ResourcePool()
  const scope = new ScopedResources(pool)
  await scope.acquire({ kind: 'a', options: 1, create: () => 1 })
  await scope.acquire({ kind: 'b', options: 1, create: () => 2 })
  t.equal(pool.list().length, 2)
  await scope.releaseAll()
  t.equal(pool.list().length, 0)
})

t.test('stableStringify sorts keys and skips undefined', async t => {
  t.equal(stableStringify({ b: 1, a: [1, { d: 2, c: undefined }] }), '{"a":[1,{"d":2}],"b":1}')
})
