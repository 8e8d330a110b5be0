// The endpoints' contract (DECISIONS.md): bad input, unknown servers, connect and
// disconnect of one or all, and names made unique when two servers offer the same tool.
import t from 'tap'
import { startMcp, everything, isConnected, pidAlive } from './helpers.ts'
import { pollUntil, until } from '../helpers/poll.ts'
import { startFixtureServer } from '../fixtures/mcp/server.ts'

interface ConnectBody { status: string, server: string, tools_count: number, resources_count: number, error?: string }

t.test('connect and disconnect: bad input and unknown servers', async t => {
  const s = await startMcp(t, { a: everything({ auto_connect: false }) })
  for (const route of ['/api/mcp/connect', '/api/mcp/disconnect']) {
    const neither = await s.post(route, {})
    t.equal(neither.status, 400, `${route} with neither field`)
    t.match(await neither.json(), { code: 'AGENT_ERR_MCP_NO_TARGET', statusCode: 400, error: /"server"/ })
    const both = await s.post(route, { server: 'a', all: true })
    t.equal(both.status, 400, `${route} with both`)
    const extra = await s.post(route, { server: 'a', command: 'rm -rf /' })
    t.equal(extra.status, 400, `${route} takes no command`)
    t.match(await extra.json(), { code: 'AGENT_ERR_VALIDATION', details: [{ message: /unknown key\(s\): command/ }] })
    const wrongType = await s.post(route, { server: 42 })
    t.equal(wrongType.status, 400)
    const unknown = await s.post(route, { server: 'nope' })
    t.equal(unknown.status, 404, `${route} unknown server`)
    t.match(await unknown.json(), { code: 'AGENT_ERR_MCP_UNKNOWN_SERVER', error: /No tool server named "nope".*configured: a/ })
  }
  t.equal((await s.json('/api/mcp/tools?server=nope')).status, 404)
  t.equal((await s.json('/api/mcp/resources?server=nope')).status, 404)
})

t.test('answers name mcp_servers.json relative to the working folder, never by its absolute path', async t => {
  const s = await startMcp(t, { a: everything({ auto_connect: false }) })
  const unknown = await s.post('/api/mcp/connect', { server: 'nope' })
  const { error } = await unknown.json() as { error: string }
  t.match(error, /No tool server named "nope" in mcp_servers\.json;/)
  t.notMatch(error, s.ws.dir, 'the folder it runs in is not named')
  s.ws.write('mcp_servers.json', '{ not json')
  const { config_error: configError } = await pollUntil(async () => (await s.json<{ config_error?: string }>('/api/mcp/servers')).body, b => b.config_error !== undefined)
  t.match(configError, /^mcp_servers\.json is not valid JSON/)
  t.notMatch(configError, s.ws.dir)
})

t.test('disconnecting a server that is not connected answers 200 with the same body', async t => {
  const s = await startMcp(t, { a: everything({ auto_connect: false }) })
  t.equal((await s.server('a'))?.status, 'disconnected')
  const r = await s.post('/api/mcp/disconnect', { server: 'a' })
  t.equal(r.status, 200)
  t.same(await r.json(), { status: 'disconnected', server: 'a' })
})

t.test('connect one, then disconnect it: counts, status, no reconnect', async t => {
  const s = await startMcp(t, { a: everything({ auto_connect: false }) }, { logLevel: 'info' })
  const r = await s.post('/api/mcp/connect', { server: 'a' })
  t.equal(r.status, 200)
  const body = await r.json() as ConnectBody
  t.match(body, { status: 'connected', server: 'a' })
  t.ok(body.tools_count >= 5 && body.resources_count > 0)
  const first = await s.server('a')
  t.ok(first?.pid !== undefined && first.connected_at !== undefined)
  const again = await (await s.post('/api/mcp/connect', { server: 'a' })).json() as ConnectBody
  t.equal(again.status, 'connected', 'connecting a connected server is a no-op')
  const second = await s.server('a')
  t.equal(second?.pid, first?.pid, 'the same process')
  t.equal(second?.connected_at, first?.connected_at, 'not reconnected')
  const d = await s.post('/api/mcp/disconnect', { server: 'a' })
  t.same(await d.json(), { status: 'disconnected', server: 'a' })
  const row = await s.server('a')
  t.match(row, { status: 'disconnected', tools: [], tools_count: 0 })
  t.equal((await s.json('/api/mcp/tools')).body.count, 0)
  // A lost connection schedules its reconnect when the child's end is seen; once the child
  // is gone that moment has passed, and nothing may be scheduled.
  await until('the stdio child to exit', () => !pidAlive(first!.pid!))
  const after = await s.server('a')
  t.equal(after?.status, 'disconnected', 'a manual disconnect is not undone by auto_reconnect')
  t.equal(after?.next_retry_at, undefined, 'no reconnect is scheduled')
  t.notOk(s.logs.some(l => l.msg === 'reconnecting after a delay'), 'none was logged')
})

t.test('connect all and disconnect all report per server', async t => {
  const s = await startMcp(t, {
    a: everything({ auto_connect: false }),
    broken: { command: '/nonexistent/mcp-server', auto_connect: false, auto_reconnect: false, timeout: 2 },
    off: everything({ enabled: false }),
  })
  const r = await s.post('/api/mcp/connect', { all: true })
  t.equal(r.status, 200)
  const { results } = await r.json() as { results: Record<string, unknown> }
  t.match(results.a, { status: 'connected', tools_count: Number })
  t.match(results.broken, { status: 'error', error: /connect failed/ })
  t.notOk('off' in results, 'a disabled server is not connected by all')
  const off = await s.post('/api/mcp/connect', { server: 'off' })
  t.equal(off.status, 400, 'DECISIONS.md keeps 409 for "already exists"')
  t.match(await off.json(), { code: 'AGENT_ERR_MCP_SERVER_DISABLED', error: /"off" is disabled.*set "enabled": true/ })
  const d = await s.post('/api/mcp/disconnect', { all: true })
  t.same(await d.json(), { results: { a: { status: 'disconnected' }, broken: { status: 'disconnected' }, off: { status: 'disconnected' } } })
})

t.test('an invalid entry is its own error; the others connect', async t => {
  const s = await startMcp(t, {
    good: everything(),
    nourl: { transport: 'sse' },
    unset: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer ${AGENTD_TEST_UNSET_TOKEN}' } },
  })
  await s.waitFor('good', isConnected, 'connected')
  t.match(await s.server('nourl'), { status: 'error', error: /servers\.nourl\.url is required for transport "sse"/ })
  t.match(await s.server('unset'), { status: 'error', error: /\$\{AGENTD_TEST_UNSET_TOKEN\} not set/ })
  const r = await (await s.post('/api/mcp/connect', { server: 'unset' })).json()
  t.match(r, { status: 'error', error: /not set/ })
})

t.test('two servers offering the same tool names: both qualified, each routed to its server', async t => {
  const fx1 = await startFixtureServer('streamable_http', 'one')
  const fx2 = await startFixtureServer('sse', 'two')
  t.teardown(fx1.close)
  t.teardown(fx2.close)
  const s = await startMcp(t, { one: { url: fx1.url, timeout: 5 }, two: { transport: 'sse', url: fx2.url, timeout: 5 } })
  await s.waitFor('one', isConnected, 'connected')
  await s.waitFor('two', isConnected, 'connected')
  const { body } = await s.json('/api/mcp/tools')
  const names = body.tools.map((x: { name: string }) => x.name).sort()
  t.ok(names.includes('one__greet') && names.includes('two__greet'), names.join(','))
  t.notOk(names.includes('greet'))
  t.equal(new Set(names).size, names.length, 'names are unique')
  t.match(body.tools.find((x: { name: string }) => x.name === 'two__greet'), { server: 'two', original_name: 'greet' })
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  t.same(await source.callTool('one__greet', { name: 'X' }), { content: 'Hello, X! (from one)', isError: false })
  t.same(await source.callTool('two__greet', { name: 'X' }), { content: 'Hello, X! (from two)', isError: false })
  // Disconnect one: the other's names need no qualifier any more (the qualified form still works).
  t.equal(fx1.openSessions(), 1)
  await s.post('/api/mcp/disconnect', { server: 'one' })
  t.equal(fx1.openSessions(), 0, 'the streamable HTTP session was ended on the server')
  const after = (await s.json('/api/mcp/tools')).body.tools.map((x: { name: string }) => x.name)
  t.ok(after.includes('greet'))
  t.same(await source.callTool('two__greet', { name: 'Y' }), { content: 'Hello, Y! (from two)', isError: false })
})

t.test('GET /api/health has an mcp section: degraded while a wanted server is in error', async t => {
  const s = await startMcp(t, { a: everything(), b: everything({ auto_connect: false }) })
  await s.waitFor('a', isConnected, 'connected')
  const ok = await s.json('/api/health')
  t.match(ok.body, { status: 'healthy', mcp: { status: 'healthy', servers: { a: { status: 'connected' }, b: { status: 'disconnected' } } } })
  s.writeServers({ a: everything(), b: everything({ auto_connect: false }), bad: { transport: 'sse' } })
  await s.waitFor('bad', x => x.status === 'error', 'error')
  const bad = await s.json('/api/health')
  t.match(bad.body, { status: 'degraded', mcp: { status: 'degraded', servers: { bad: { status: 'error', error: /url is required/ } } } })
})

t.test('a disabled entry with an unset ${VAR}: disconnected, not connected by all, health stays healthy', async t => {
  const s = await startMcp(t, {
    a: everything({ auto_connect: false }),
    off: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer ${AGENTD_TEST_UNSET_TOKEN}' }, enabled: false },
  })
  t.match(await s.server('off'), { status: 'disconnected', enabled: false })
  t.notOk((await s.server('off'))?.error, 'the unset variable is not an error while the entry is disabled')
  const health = await s.json('/api/health')
  t.match(health.body, { status: 'healthy', mcp: { status: 'healthy', servers: { off: { status: 'disconnected' } } } })
  const all = await (await s.post('/api/mcp/connect', { all: true })).json() as { results: Record<string, unknown> }
  t.same(Object.keys(all.results), ['a'], 'connect all skips the disabled entry')
  t.equal((await s.server('off'))?.status, 'disconnected')
  const one = await s.post('/api/mcp/connect', { server: 'off' })
  t.equal(one.status, 400)
  // Enabling it resolves the variable: now it is that server's error, and health says so.
  s.writeServers({
    a: everything({ auto_connect: false }),
    off: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer ${AGENTD_TEST_UNSET_TOKEN}' } },
  })
  const row = await s.waitFor('off', x => x.status === 'error', 'error once enabled')
  t.match(row.error, /\$\{AGENTD_TEST_UNSET_TOKEN\} not set/)
  t.match((await s.json('/api/health')).body, { status: 'degraded' })
})

t.test('a disabled entry that is invalid shows its error but does not degrade health', async t => {
  const s = await startMcp(t, { off: { transport: 'sse', enabled: false } })
  t.match(await s.server('off'), { status: 'error', enabled: false, error: /url is required/ })
  t.match((await s.json('/api/health')).body, { status: 'healthy', mcp: { status: 'healthy' } })
  const all = await (await s.post('/api/mcp/connect', { all: true })).json()
  t.same(all, { results: {} })
})
