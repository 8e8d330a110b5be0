// Request ids: a UUID per request, or the caller's X-Request-Id when well-formed, returned
// in X-Request-Id, written in error bodies and on the request's log lines (here the access
// log's, turned on by AGENT_ACCESS_LOG). One server: the kernel's routes and the telemetry plugin.
import t from 'tap'
import http from 'node:http'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { until } from '../helpers/poll.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const s = await startKernel(t, {
  plugins: [{ name: 'telemetry', module: repoPlugin('telemetry'), options: { metrics: false } }],
  env: { AGENT_ACCESS_LOG: 'true' },
  logLevel: 'info',
})

t.test('without X-Request-Id each request gets a UUID of its own, returned in X-Request-Id', async t => {
  const a = (await s.get('/api/index')).headers.get('x-request-id')
  const b = (await s.get('/api/index')).headers.get('x-request-id')
  t.match(a, UUID)
  t.match(b, UUID)
  t.not(a, b)
})

t.test('a well-formed X-Request-Id is kept; a malformed one is replaced', async t => {
  const kept = await s.get('/api/index', { headers: { 'x-request-id': 'lb-7f3a.42:edge_1' } })
  t.equal(kept.headers.get('x-request-id'), 'lb-7f3a.42:edge_1')
  for (const bad of ['has space', 'x'.repeat(129), '"quoted"', '-leading-dash']) {
    const res = await s.get('/api/index', { headers: { 'x-request-id': bad } })
    t.match(res.headers.get('x-request-id'), UUID, `${bad.slice(0, 20)} is replaced`)
  }
})

t.test('an error body names the request id, the same as the header', async t => {
  const res = await s.get('/api/no-such-route', { headers: { 'x-request-id': 'trace-me-404' } })
  t.equal(res.status, 404)
  t.equal(res.headers.get('x-request-id'), 'trace-me-404')
  t.match(await res.json(), { code: 'AGENT_ERR_NOT_FOUND', request_id: 'trace-me-404' })
  // A Host off the allow-list, sent with node:http (fetch does not let a caller set Host).
  const refused = await new Promise<{ status: number, header: unknown, body: string }>((resolve, reject) => {
    const req = http.request(s.url + '/api/index', { headers: { host: 'evil.example', 'x-request-id': 'trace-me-403' } }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => { body += c.toString() })
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, header: res.headers['x-request-id'], body }) })
    })
    req.on('error', reject)
    req.end()
  })
  t.equal(refused.status, 403, 'refused by the kernel before any generation')
  t.equal(refused.header, 'trace-me-403')
  t.match(JSON.parse(refused.body), { request_id: 'trace-me-403' })
})

t.test('the access log writes one line per request with its request id, route, status and time', async t => {
  await s.get('/api/index', { headers: { 'x-request-id': 'access-log-1' } })
  await until('the access log line', () => s.logs.some(l => l.request_id === 'access-log-1'))
  const lines = s.logs.filter(l => l.request_id === 'access-log-1')
  t.equal(lines.length, 1, 'one line')
  t.match(lines[0], { msg: 'request done', method: 'GET', route: '/api/index', status: 200, ms: Number })
})
