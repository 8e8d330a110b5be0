// The resource pool across reloads: same options -> same instance; changed options ->
// a new instance, and the old one disposed once its generation has closed.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { fixturePlugin } from '../helpers/workspace.ts'
import { journal } from '../fixtures/plugins/probe/index.ts'

t.test('a resource whose options did not change survives a reload (same instance)', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'probe', module: fixturePlugin('probe'), options: { tag: 'one', resource: 'db-a' } }] })
  const before = (await s.json('/api/probe/resource')).body
  const reloaded = s.nextReload()
  s.ws.writePlugins([{ name: 'probe', module: fixturePlugin('probe'), options: { tag: 'two', resource: 'db-a' } }])
  await reloaded
  await s.kernel.settled()
  t.equal((await s.json('/api/probe/tag')).body.tag, 'two', 'the new generation serves')
  const after = (await s.json('/api/probe/resource')).body
  t.equal(after.id, before.id, 'same instance')
  t.notOk(journal().some(e => e.event === 'disposed' && e.detail === before.id), 'not disposed')
  t.same(s.kernel.pool.list().filter(r => r.kind === 'probe-resource').map(r => r.refs), [1], 'held once, by the new generation')
})

t.test('a resource whose options changed is replaced and the old one disposed', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'probe', module: fixturePlugin('probe'), options: { resource: 'db-a' } }] })
  const before = (await s.json('/api/probe/resource')).body
  const reloaded = s.nextReload()
  s.ws.writePlugins([{ name: 'probe', module: fixturePlugin('probe'), options: { resource: 'db-b' } }])
  await reloaded
  await s.kernel.settled()
  const after = (await s.json('/api/probe/resource')).body
  t.not(after.id, before.id, 'a new instance')
  t.equal(after.key, 'db-b')
  t.ok(journal().some(e => e.event === 'disposed' && e.detail === before.id), 'the old one was disposed')
})

t.test('a failed reload releases what the half-built generation acquired', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'probe', module: fixturePlugin('probe'), options: { resource: 'db-a' } }], watch: false })
  s.ws.writePlugins([
    { name: 'probe', module: fixturePlugin('probe'), options: { resource: 'db-new' } },
    { name: 'throws', module: fixturePlugin('throws') },
  ])
  const outcome = await s.kernel.reload('test')
  t.equal(outcome.ok, false)
  t.same(s.kernel.pool.list().map(r => r.key.split(':')[0]), ['probe-resource'], 'only the serving generation\'s resource is held')
})

t.test('shutdown disposes every resource', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'probe', module: fixturePlugin('probe'), options: { resource: 'db-z' } }] })
  const r = (await s.json('/api/probe/resource')).body
  await s.kernel.close()
  t.ok(journal().some(e => e.event === 'disposed' && e.detail === r.id))
  t.same(s.kernel.pool.list(), [])
})
