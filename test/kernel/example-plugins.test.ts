// The two example plugins end to end over HTTP: tools-builtin (a tool source) behind
// tools-api (a route plugin).
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'

const plugins = (timezone = 'Asia/Kolkata') => [
  { name: 'tools-builtin', module: repoPlugin('tools-builtin'), options: { default_timezone: timezone } },
  { name: 'tools-api', module: repoPlugin('tools-api') },
]

interface CallResult { tool: string, server: string, content: string, is_error: boolean }

/** One server for the tests that only send requests (the last two reload their own). */
const shared = await startKernel(t, { plugins: plugins() })

t.test('GET /api/tools lists the builtin tools with their schemas', async t => {
  const s = shared
  const r = await s.json('/api/tools')
  t.equal(r.status, 200)
  t.equal(r.body.count, 2)
  t.same(r.body.tools.map((x: { name: string }) => x.name), ['current_time', 'calculate'])
  for (const tool of r.body.tools) {
    t.equal(tool.server, 'tools-builtin')
    t.equal(tool.input_schema.type, 'object')
    t.ok(tool.description.length > 20, `${tool.name} is described`)
  }
  t.equal((await s.json('/api/tools?source=tools-builtin')).body.count, 2)
})

t.test('POST /api/tools/call runs calculate', async t => {
  const s = shared
  const r = await s.post('/api/tools/call', { name: 'calculate', arguments: { expression: '2 * (3 + 4) ^ 2 - sqrt(16)' } })
  t.equal(r.status, 200)
  const body = await r.json() as CallResult
  t.same(body, { tool: 'calculate', server: 'tools-builtin', content: JSON.stringify({ expression: '2 * (3 + 4) ^ 2 - sqrt(16)', result: 94 }), is_error: false })
  const bad = await (await s.post('/api/tools/call', { name: 'calculate', arguments: { expression: '1 / (' } })).json() as CallResult
  t.equal(bad.is_error, true, 'a bad expression is a tool error, not an HTTP error')
  t.match(bad.content, /calculate failed/)
})

t.test('POST /api/tools/call runs current_time, in the configured default zone or the one asked', async t => {
  const s = shared
  const before = Date.now()
  const r = await s.post('/api/tools/call', { name: 'current_time', arguments: {} })
  t.equal(r.status, 200)
  const body = await r.json() as CallResult
  t.equal(body.is_error, false)
  const now = JSON.parse(body.content) as { timezone: string, utc_offset: string, utc: string, iso: string }
  t.equal(now.timezone, 'Asia/Kolkata', 'default_timezone from plugins.json')
  t.equal(now.utc_offset, '+05:30')
  t.ok(Math.abs(Date.parse(now.utc) - before) < 60_000, 'it is the current time')
  t.equal(Date.parse(now.iso), Math.floor(Date.parse(now.utc) / 1000) * 1000, 'local ISO time and UTC are the same instant')
  const utc = JSON.parse((await (await s.post('/api/tools/call', { name: 'current_time', arguments: { timezone: 'UTC' } })).json() as CallResult).content) as { utc_offset: string }
  t.equal(utc.utc_offset, '+00:00')
})

t.test('an unknown tool name is a 404 that says where the list is', async t => {
  const s = shared
  const r = await s.post('/api/tools/call', { name: 'nope', arguments: {} })
  t.equal(r.status, 404)
  t.match((await r.json() as { error: string }).error, /GET \/api\/tools/)
})

t.test('a default_timezone that is not an IANA zone fails the load with a clear reason', async t => {
  const s = await startKernel(t, { plugins: plugins() })
  const reloaded = s.nextReload()
  s.ws.writePlugins(plugins('Mars/Olympus_Mons'))
  await reloaded
  const list = (await s.json('/api/plugins')).body
  t.equal(list.generation, 1, 'the previous generation keeps serving')
  t.match(list.last_reload.error, /Plugin "tools-builtin" failed to start: options\.default_timezone: "Mars\/Olympus_Mons" is not an IANA time zone/)
  t.equal(list.plugins.find((p: { name: string }) => p.name === 'tools-builtin').status, 'failed')
  t.equal((await s.json('/api/tools')).body.count, 2, 'still served')
})

t.test('tools-api takes no options: any given are refused by name', async t => {
  const s = await startKernel(t, { plugins: plugins() })
  const reloaded = s.nextReload()
  s.ws.writePlugins([plugins()[0], { name: 'tools-api', module: repoPlugin('tools-api'), options: { prefix: '/x' } }])
  await reloaded
  t.match((await s.json('/api/plugins')).body.last_reload.error, /Plugin "tools-api" has invalid options: .*prefix/)
})
