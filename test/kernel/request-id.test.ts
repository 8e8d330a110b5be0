// Request ids: a UUID per request (or the caller's X-Request-Id when well-formed), returned
// as X-Request-Id on every answer (a stream's included), in error bodies and on the
// request's log lines.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { raw } from '../security/agentd.ts'

const plugins = [{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }, { name: 'tools-api', module: repoPlugin('tools-api') }]
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

t.test('every answer carries a fresh UUID; a well-formed incoming id is kept, a malformed one replaced', async t => {
  const s = await startKernel(t, { plugins })
  const a = (await s.get('/api/tools')).headers.get('x-request-id') ?? ''
  const b = (await s.get('/api/tools')).headers.get('x-request-id') ?? ''
  t.match(a, UUID)
  t.not(a, b, 'one per request')
  t.equal((await s.get('/api/tools', { headers: { 'x-request-id': 'lb-7f3a:42' } })).headers.get('x-request-id'), 'lb-7f3a:42', 'the load balancer\'s id kept')
  t.match((await s.get('/api/tools', { headers: { 'x-request-id': 'bad id\twith spaces' } })).headers.get('x-request-id'), UUID, 'a malformed one replaced')
  t.match((await s.get('/api/tools', { headers: { 'x-request-id': 'x'.repeat(200) } })).headers.get('x-request-id'), UUID, 'an overlong one replaced')
})

t.test('error bodies carry the request id; refusals before any route too', async t => {
  const s = await startKernel(t, { plugins })
  const missing = await s.get('/api/nothing', { headers: { 'x-request-id': 'trace-1' } })
  t.equal(missing.status, 404)
  t.match(await missing.json(), { code: 'AGENT_ERR_NOT_FOUND', request_id: 'trace-1' })
  const bad = await s.post('/api/tools/call', { nope: 1 })
  t.equal((await bad.json() as { request_id: string }).request_id, bad.headers.get('x-request-id'))
  const port = Number(new URL(s.url).port)
  const refused = await raw(port, 'GET', '/api/tools', { host: 'attacker.example', 'x-request-id': 'trace-2' })
  t.equal(refused.status, 403)
  t.equal(refused.json?.request_id, 'trace-2')
  t.equal(refused.headers['x-request-id'], 'trace-2')
})

t.test('the request\'s log lines carry its id', async t => {
  const s = await startKernel(t, { plugins, logLevel: 'debug' })
  // A bad body: the error handler logs the refusal (at debug) with the request's logger.
  await s.post('/api/tools/call', { nope: 1 }, { headers: { 'content-type': 'application/json', 'x-request-id': 'trace-log-3' } })
  t.ok(s.logs.some(l => (l as { reqId?: string }).reqId === 'trace-log-3'), 'a line with reqId trace-log-3')
})
