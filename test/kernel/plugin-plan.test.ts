// How plugins.json becomes a plan: every module is imported, then every plugin's options
// are validated, and only then is anything registered. AGENT_PLUGINS_FILE picks the file.
import t from 'tap'
import { planPlugins } from '../../core/plugin-loader.ts'
import { startKernel } from '../helpers/kernel.ts'
import { Workspace } from '../helpers/workspace.ts'

// A plain plugin module (a workspace in /tmp cannot import the project's node_modules)
// that leaves a mark on globalThis when its body runs.
const marking = (mark: string, schema?: unknown): string => `const p = async (app, opts) => {
  (globalThis.__planMarks ??= []).push(${JSON.stringify(mark)})
  app.get('/api/${mark}', async () => ({ opts }))
}
p[Symbol.for('skip-override')] = true
export default p
${schema === undefined ? '' : `export const options = ${JSON.stringify(schema)}`}
`
const marks = (): string[] => ((globalThis as { __planMarks?: string[] }).__planMarks ??= [])
const strictSchema = { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false }

t.test('every module is imported before any options are checked', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('a/index.js', marking('a', strictSchema))
  ws.write('broken/index.js', 'throw new Error("broken at import")\nexport default async () => {}\n')
  ws.writePlugins([{ name: 'a', module: './a', options: { n: 'not a number' } }, { name: 'broken', module: './broken' }])
  // Plugin "a" comes first and its options are wrong, yet the failure reported is the
  // import of "broken": all imports ran before the first options check.
  await t.rejects(planPlugins(ws.pluginsFile, '0'), { message: /Plugin "broken": cannot load module "\.\/broken": broken at import/ })
})

t.test('every plugin\'s options are checked before any plugin registers', async t => {
  const s = await startKernel(t, { plugins: [] })
  s.ws.write('first/index.js', marking('first', strictSchema))
  s.ws.write('second/index.js', marking('second', strictSchema))
  marks().length = 0
  s.ws.writePlugins([{ name: 'first', module: './first', options: { n: 1 } }, { name: 'second', module: './second', options: { n: 'two' } }])
  const outcome = await s.kernel.reload('test')
  t.equal(outcome.ok, false)
  t.match(outcome.error, /Plugin "second" has invalid options: options\.n/)
  t.same(marks(), [], 'the valid plugin before it was never registered')
})

t.test('an option the module\'s schema does not declare is refused, even without additionalProperties: false', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('loose/index.js', marking('loose', { type: 'object', properties: { timezone: { type: 'string', default: 'UTC' } } }))
  ws.writePlugins([{ name: 'loose', module: './loose', options: { timezon: 'Europe/Paris' } }])
  await t.rejects(planPlugins(ws.pluginsFile, '0'), { message: /Plugin "loose" has invalid options: options: unknown key\(s\): timezon\. Remove them or check their spelling/ })
})

t.test('options given to a module with no options schema load, with a warning in the log', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('free/index.js', marking('free'))
  const s = await startKernel(t, { ws, plugins: [{ name: 'free', module: './free', options: { anything: 1 } }], watch: false, logLevel: 'info' })
  const served = (await s.json<{ opts: Record<string, unknown> }>('/api/free')).body
  t.same(served.opts, { anything: 1, instance: 'free' }, 'passed through as given')
  t.match(s.logs.find(l => l.level === 40 && l.plugin === 'free'), { msg: /module "\.\/free" declares no options schema, so its options \(anything\) are passed through unchecked/ })
})

t.test('AGENT_PLUGINS_FILE selects the plugins file (relative to the working directory)', async t => {
  const ws = new Workspace()
  ws.write('other/index.js', marking('other'))
  ws.writePlugins([])
  ws.write('conf/my-plugins.json', JSON.stringify({ plugins: [{ name: 'other', module: '../other' }] }))
  const s = await startKernel(t, { ws, env: { AGENT_PLUGINS_FILE: 'conf/my-plugins.json' } })
  t.teardown(() => { ws.remove() })
  t.equal(s.kernel.settings.pluginsFile, `${ws.dir}/conf/my-plugins.json`)
  t.same((await s.json('/api/plugins')).body.plugins.map((p: { name: string }) => p.name), ['other'], 'loaded from that file, not plugins.json')
  t.equal((await s.json('/api/other')).status, 200, 'module paths resolve against that file\'s folder')
})
