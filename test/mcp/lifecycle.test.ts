// Connections over time: a killed stdio server turns `error` and reconnects by itself;
// an edit of mcp_servers.json reconnects only the changed server; a reload of
// plugins.json keeps every connection; a silent server fails within its timeout.
import t from 'tap'
import { startMcp, everything, isConnected, pidAlive } from './helpers.ts'
import { startFixtureServer } from '../fixtures/mcp/server.ts'
import { startSilentServer } from '../helpers/silent-server.ts'
import { pollUntil, until } from '../helpers/poll.ts'
import { repoPlugin } from '../helpers/workspace.ts'

t.test('killing the stdio server: status error, then it reconnects by itself', async t => {
  const s = await startMcp(t, { everything: everything() })
  const before = await s.waitFor('everything', isConnected, 'connected')
  process.kill(before.pid!, 'SIGKILL')
  const down = await s.waitFor('everything', x => x.status === 'error', 'error', 5000)
  t.match(down.error, /connection lost/)
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  const after = await s.waitFor('everything', x => x.status === 'connected' && x.pid !== before.pid, 'reconnected with a new process', 15_000)
  t.not(after.pid, before.pid)
  t.same(await source.callTool('echo', { message: 'back' }), { content: 'Echo: back', isError: false })
})

t.test('a call while the server is down is a tool error, not a failure', async t => {
  // Reconnection far away, so the outage lasts through the call.
  const s = await startMcp(t, { everything: everything() }, { mcpOptions: { reconnect_initial_ms: 60_000, reconnect_max_ms: 60_000 } })
  const before = await s.waitFor('everything', isConnected, 'connected')
  process.kill(before.pid!, 'SIGKILL')
  await s.waitFor('everything', x => x.status === 'error', 'error', 5000)
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  // Its tools stay listed, marked `error`, so the model's tool set does not flicker.
  t.equal((await source.listTools()).find(x => x.name === 'echo')?.status, 'error')
  t.notMatch(source.toolsPrompt?.() ?? '', /- echo/, 'the tools prompt offers only available tools')
  const r = await source.callTool('echo', { message: 'x' })
  t.equal(r.isError, true)
  t.match(r.content, /tool server "everything" is unavailable \(connection lost/)
})

t.test('editing mcp_servers.json reconnects only the changed server', async t => {
  const fx = await startFixtureServer('streamable_http')
  t.teardown(fx.close)
  const s = await startMcp(t, { a: everything(), b: everything(), web: { url: fx.url, timeout: 5 } })
  const a1 = await s.waitFor('a', isConnected, 'connected')
  const b1 = await s.waitFor('b', isConnected, 'connected')
  const w1 = await s.waitFor('web', isConnected, 'connected')
  const sessions = fx.sessions()
  // Change b only (its env), add c, keep a and web as they were.
  s.writeServers({ a: everything(), b: everything({ env: { SOME_SETTING: 'changed' } }), web: { url: fx.url, timeout: 5 }, c: everything() })
  const b2 = await s.waitFor('b', x => x.status === 'connected' && x.pid !== b1.pid, 'reconnected')
  await s.waitFor('c', isConnected, 'connected (added)')
  const a2 = await s.server('a')
  const w2 = await s.server('web')
  t.equal(a2?.pid, a1.pid, 'a keeps its process')
  t.equal(a2?.connected_at, a1.connected_at, 'a was not reconnected')
  t.equal(w2?.connected_at, w1.connected_at, 'web was not reconnected')
  t.equal(fx.sessions(), sessions, 'web opened no new session')
  t.not(b2.pid, b1.pid)
  // Remove c: it is disconnected and gone.
  s.writeServers({ a: everything(), b: everything({ env: { SOME_SETTING: 'changed' } }), web: { url: fx.url, timeout: 5 } })
  await until('c to be removed', async () => (await s.server('c')) === undefined)
  t.equal((await s.server('a'))?.pid, a1.pid, 'a still untouched')
})

t.test('a malformed mcp_servers.json keeps the running servers and says why', async t => {
  const s = await startMcp(t, { a: everything() })
  const a1 = await s.waitFor('a', isConnected, 'connected')
  s.ws.write('mcp_servers.json', '{ "servers": { "a": ')
  const body = await pollUntil(async () => (await s.json<{ config_error?: string }>('/api/mcp/servers')).body, b => b.config_error !== undefined)
  t.match(body.config_error, /is not valid JSON/)
  t.equal((await s.server('a'))?.pid, a1.pid)
})

t.test('a reload of plugins.json keeps the connections', async t => {
  const s = await startMcp(t, { a: everything() })
  const a1 = await s.waitFor('a', isConnected, 'connected')
  const gen = s.kernel.api.generation()
  const r = await s.post('/api/plugins/reload', {})
  t.equal(r.status, 200)
  await s.kernel.settled()
  t.equal(s.kernel.api.generation(), gen + 1)
  const a2 = await s.server('a')
  t.equal(a2?.status, 'connected')
  t.equal(a2?.pid, a1.pid)
  t.equal(a2?.connected_at, a1.connected_at)
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  t.same(await source.callTool('echo', { message: 'same' }), { content: 'Echo: same', isError: false })
  // The watcher survives the swap: an edit after the reload still applies.
  s.writeServers({ a: everything(), b: everything() })
  await s.waitFor('b', isConnected, 'connected after an edit')
})

t.test('a server that never answers fails within its timeout with status error', async t => {
  const silent = await startSilentServer(t)
  const s = await startMcp(t, { mute: { transport: 'streamable_http', url: silent.url('/mcp'), timeout: 1, auto_connect: false, auto_reconnect: false } })
  const started = Date.now()
  const r = await s.post('/api/mcp/connect', { server: 'mute' })
  const took = Date.now() - started
  t.equal(r.status, 200)
  const body = await r.json() as { status: string, error?: string }
  t.match(body, { status: 'error', server: 'mute', tools_count: 0, resources_count: 0 })
  t.match(body.error, /did not answer within 1 s/)
  // The server never answers, so an answer at all is the time limit's; it must not come early.
  t.ok(took >= 900, `failed after ${took} ms, not before the limit`)
  t.equal((await s.server('mute'))?.status, 'error')
})

t.test('a stdio server that never answers fails within its timeout too', async t => {
  const s = await startMcp(t, { mute: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], timeout: 1, auto_reconnect: false } })
  const row = await s.waitFor('mute', x => x.status === 'error', 'error', 20_000)
  t.match(row.error, /did not answer within 1 s/)
})

t.test('an HTTP server that dies is noticed by the keep-alive ping and reconnected when it is back', async t => {
  let fx = await startFixtureServer('streamable_http')
  t.teardown(async () => { await fx.close() })
  const s = await startMcp(t, { web: { url: fx.url, timeout: 2 } }, { mcpOptions: { ping_interval_seconds: 0.2 } })
  const first = await s.waitFor('web', isConnected, 'connected')
  const port = fx.port
  await fx.close()
  const down = await s.waitFor('web', x => x.status === 'error', 'error (without any call)', 20_000)
  t.match(down.error, /connection lost: ping failed/)
  fx = await startFixtureServer('streamable_http', 'fixture', port)
  const back = await s.waitFor('web', isConnected, 'reconnected', 10_000)
  t.not(back.connected_at, first.connected_at)
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  t.same(await source.callTool('greet', { name: 'again' }), { content: 'Hello, again! (from fixture)', isError: false })
})

t.test('removing the plugin from plugins.json disconnects its servers and ends their processes', async t => {
  const s = await startMcp(t, { a: everything() })
  const a = await s.waitFor('a', isConnected, 'connected')
  s.ws.writePlugins([{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }])
  const r = await s.post('/api/plugins/reload', {})
  t.equal(r.status, 200)
  await s.kernel.settled()
  t.equal((await s.json('/api/mcp/servers')).status, 404, 'the routes are gone')
  await until('the stdio child to exit', () => !pidAlive(a.pid!))
  t.notOk(s.kernel.pool.list().some(e => e.kind === 'mcp-manager'), 'nothing left in the pool')
})
