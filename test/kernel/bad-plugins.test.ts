// Every way plugins.json can be wrong leaves the running generation serving and says why.
import t, { type Test } from 'tap'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { fixturePlugin, repoPlugin } from '../helpers/workspace.ts'

const good = [
  { name: 'tools-builtin', module: repoPlugin('tools-builtin') },
  { name: 'probe', module: fixturePlugin('probe'), options: { tag: 'good' } },
]

async function breakWith (t: Test, mutate: (s: Started) => void): Promise<{ s: Started, plugins: any }> {
  const s = await startKernel(t, { plugins: good })
  const reloaded = s.nextReload()
  mutate(s)
  await reloaded
  const tag = await s.json('/api/probe/tag')
  t.equal(tag.status, 200, 'the old generation still serves')
  t.equal(tag.body.tag, 'good')
  const plugins = (await s.json('/api/plugins')).body
  t.equal(plugins.generation, 1, 'no new generation was swapped in')
  t.equal(plugins.last_reload.ok, false)
  return { s, plugins }
}

t.test('syntax error in plugins.json', async t => {
  const { plugins } = await breakWith(t, s => s.ws.write('plugins.json', '{ "plugins": [ { "name": "x", '))
  t.match(plugins.last_reload.error, /not valid JSON/)
})

t.test('schema error in plugins.json', async t => {
  const { plugins } = await breakWith(t, s => s.ws.write('plugins.json', JSON.stringify({ plugins: [{ name: 'x', modul: './x' }] })))
  t.match(plugins.last_reload.error, /does not match its schema/)
  t.match(plugins.last_reload.error, /module/, 'names the missing field')
})

t.test('schema error in a plugin\'s options', async t => {
  const { plugins } = await breakWith(t, s => s.ws.writePlugins([{ ...good[1], options: { tag: 42 } }]))
  t.match(plugins.last_reload.error, /Plugin "probe" has invalid options: options\.tag/)
  t.equal(plugins.plugins.find((p: { name: string }) => p.name === 'probe').status, 'failed')
})

t.test('unknown module', async t => {
  const { plugins } = await breakWith(t, s => s.ws.writePlugins([...good, { name: 'ghost', module: './plugins/does-not-exist' }, { name: 'ghost-pkg', module: 'agentd-plugin-that-does-not-exist' }]))
  t.match(plugins.last_reload.error, /Plugin "ghost": cannot find module/)
  const ghost = plugins.plugins.find((p: { name: string }) => p.name === 'ghost')
  t.equal(ghost.status, 'failed')
  t.equal(ghost.module, './plugins/does-not-exist')
})

t.test('a module that does not compile', async t => {
  const { plugins } = await breakWith(t, s => {
    s.ws.write('broken/index.ts', 'export default function (\n  this is not TypeScript\n')
    s.ws.writePlugins([...good, { name: 'broken', module: './broken' }])
  })
  t.match(plugins.last_reload.error, /Plugin "broken": cannot load module/)
})

t.test('a plugin whose init throws', async t => {
  const { plugins } = await breakWith(t, s => s.ws.writePlugins([...good, { name: 'throws', module: fixturePlugin('throws') }]))
  t.match(plugins.last_reload.error, /Plugin "throws" failed to start: cannot reach the thing/)
  t.equal(plugins.plugins.find((p: { name: string }) => p.name === 'throws').status, 'failed')
})

t.test('a dependency cycle', async t => {
  const { plugins } = await breakWith(t, s => s.ws.writePlugins([
    { name: 'a', module: fixturePlugin('probe'), dependencies: ['b'] },
    { name: 'b', module: fixturePlugin('probe'), dependencies: ['c'] },
    { name: 'c', module: fixturePlugin('probe'), dependencies: ['a'] },
  ]))
  t.match(plugins.last_reload.error, /dependency cycle: a -> b -> c -> a/)
})

t.test('a dependency on a disabled plugin', async t => {
  const { plugins } = await breakWith(t, s => s.ws.writePlugins([
    { name: 'a', module: fixturePlugin('probe'), dependencies: ['b'] },
    { name: 'b', module: fixturePlugin('probe'), enabled: false },
  ]))
  t.match(plugins.last_reload.error, /depends on "b", which is disabled/)
})

t.test('POST /api/plugins/reload answers 422 with the reason and keeps serving', async t => {
  const s = await startKernel(t, { plugins: good, watch: false })
  s.ws.writePlugins([...good, { name: 'throws', module: fixturePlugin('throws') }])
  const res = await s.json('/api/plugins/reload', { method: 'POST' })
  t.equal(res.status, 422)
  t.equal(res.body.code, 'AGENT_ERR_UNPROCESSABLE')
  t.match(res.body.error, /previous generation keeps serving.*Plugin "throws" failed to start/)
  t.equal((await s.json('/api/probe/tag')).status, 200)
})

t.test('fixing the file recovers: the next reload succeeds and clears the failure', async t => {
  const { s } = await breakWith(t, s => s.ws.writePlugins([...good, { name: 'throws', module: fixturePlugin('throws') }]))
  const reloaded = s.nextReload()
  s.ws.writePlugins(good)
  await reloaded
  const plugins = (await s.json('/api/plugins')).body
  t.equal(plugins.last_reload.ok, true)
  t.equal(plugins.generation, 2)
  t.notOk(plugins.plugins.some((p: { status: string }) => p.status === 'failed'))
})

t.test('a broken plugins.json at start still serves core routes and reports why', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'throws', module: fixturePlugin('throws') }] })
  t.equal((await s.json('/api/health')).status, 200)
  const plugins = (await s.json('/api/plugins')).body
  t.equal(plugins.last_reload.ok, false)
  t.equal(plugins.plugins[0].status, 'failed')
})
