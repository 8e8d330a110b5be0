// The SDK-written fixture server over streamable HTTP and over SSE on loopback: both
// connect, list and call; a `http` server falls back from streamable HTTP to SSE only when
// there is no streamable endpoint (a 401 is reported as it is).
import t from 'tap'
import { startMcp, isConnected } from './helpers.ts'
import { startFixtureServer, type FixtureTransport } from '../fixtures/mcp/server.ts'

for (const kind of ['streamable_http', 'sse'] as FixtureTransport[]) {
  t.test(`${kind}: connects, lists tools and resources, calls a tool`, async t => {
    const fx = await startFixtureServer(kind)
    t.teardown(fx.close)
    const s = await startMcp(t, { fx: { transport: kind, url: fx.url, timeout: 5 } })
    const row = await s.waitFor('fx', isConnected, 'connected')
    t.equal(row.transport, kind)
    t.equal(row.active_transport, kind)
    t.same(row.tools.sort(), ['add', 'fail', 'greet', 'picture', 'slow'])
    t.equal(row.resources_count, 1)
    const res = await s.json('/api/mcp/resources')
    t.same(res.body, { resources: [{ uri: 'fixture://note', name: 'note', description: 'A short note.', mime_type: 'text/plain', server: 'fx' }], count: 1 })
    const source = s.kernel.current!.app.registry.toolSources.get('mcp')
    t.same(await source.callTool('greet', { name: 'Ada' }), { content: 'Hello, Ada! (from fixture)', isError: false })
    t.same(await source.callTool('add', { a: 2, b: 40 }), { content: '42', isError: false })
  })
}

t.test('transport "http" falls back from streamable HTTP to SSE', async t => {
  const fx = await startFixtureServer('sse')
  t.teardown(fx.close)
  const s = await startMcp(t, { legacy: { url: fx.url, timeout: 5 } })
  const row = await s.waitFor('legacy', isConnected, 'connected')
  t.equal(row.transport, 'http')
  t.equal(row.active_transport, 'sse')
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  t.same(await source.callTool('greet', { name: 'SSE' }), { content: 'Hello, SSE! (from fixture)', isError: false })
})

t.test('transport "http" uses streamable HTTP when the server has it', async t => {
  const fx = await startFixtureServer('streamable_http')
  t.teardown(fx.close)
  const s = await startMcp(t, { modern: { url: fx.url, timeout: 5 } })
  const row = await s.waitFor('modern', isConnected, 'connected')
  t.equal(row.active_transport, 'streamable_http')
})

t.test('transport "http": a 401 from streamable HTTP is the error, with no SSE attempt', async t => {
  const fx = await startFixtureServer('streamable_http', 'fixture', 0, { requireBearer: 'right-token-1234' })
  t.teardown(fx.close)
  const s = await startMcp(t, { locked: { url: fx.url, headers: { Authorization: 'Bearer wrong-token-1234' }, timeout: 5, auto_reconnect: false } })
  const row = await s.waitFor('locked', x => x.status === 'error', 'error')
  t.match(row.error, /HTTP 401/)
  t.match(row.error, /headers/, 'says where to fix it')
  t.notMatch(row.error, /sse/i, 'no confusing SSE error')
  t.equal(fx.lastHeaders()['content-type'], 'application/json', 'the last request was the streamable HTTP POST (an SSE GET has no body)')
})

t.test('transport "http" with the right token connects over streamable HTTP', async t => {
  const fx = await startFixtureServer('streamable_http', 'fixture', 0, { requireBearer: 'right-token-1234' })
  t.teardown(fx.close)
  const s = await startMcp(t, { locked: { url: fx.url, headers: { Authorization: 'Bearer right-token-1234' }, timeout: 5 } })
  const row = await s.waitFor('locked', isConnected, 'connected')
  t.equal(row.active_transport, 'streamable_http')
})
