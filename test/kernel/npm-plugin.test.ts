// A third party ships a plugin as an npm package; plugins.json names it by package name.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { Workspace } from '../helpers/workspace.ts'

t.test('a plugin loaded by npm package name, with its options validated and its version shown', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('node_modules/agentd-plugin-hello/package.json', JSON.stringify({ name: 'agentd-plugin-hello', version: '2.3.4', type: 'module', exports: { '.': { import: './index.js' } } }))
  ws.write('node_modules/agentd-plugin-hello/index.js', `
const hello = async (app, opts) => { app.get('/api/hello', async () => ({ greeting: opts.greeting, instance: opts.instance })) }
hello[Symbol.for('skip-override')] = true
hello[Symbol.for('plugin-meta')] = { name: 'agentd-plugin-hello' }
export default hello
export const options = { type: 'object', properties: { greeting: { type: 'string', default: 'hello' } }, additionalProperties: false }
`)
  const s = await startKernel(t, { ws, plugins: [{ name: 'hi', module: 'agentd-plugin-hello', options: { greeting: 'bonjour' } }] })
  t.same((await s.json('/api/hello')).body, { greeting: 'bonjour', instance: 'hi' })
  const p = (await s.json('/api/plugins')).body.plugins[0]
  t.same(p, { name: 'hi', module: 'agentd-plugin-hello', version: '2.3.4', enabled: true, status: 'loaded' })

  const reloaded = s.nextReload()
  ws.writePlugins([{ name: 'hi', module: 'agentd-plugin-hello', options: { greeting: 5 } }])
  await reloaded
  t.match((await s.json('/api/plugins')).body.last_reload.error, /invalid options: options\.greeting/, 'its options schema is enforced')
})

t.test('a disabled plugin is listed, not loaded', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'tools-builtin', module: new URL('../../plugins/tools-builtin', import.meta.url).pathname, enabled: false }] })
  const p = (await s.json('/api/plugins')).body.plugins[0]
  t.equal(p.status, 'disabled')
  t.equal(p.enabled, false)
})
