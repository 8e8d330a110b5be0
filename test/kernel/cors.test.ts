// CORS (@fastify/cors in every generation): pages served from this machine may call the
// API, other origins may not unless AGENT_CORS_ORIGINS lets them, and a preflight on any
// path gets its 204 either way.
import t from 'tap'
import { startKernel, testEnv } from '../helpers/kernel.ts'
import { repoPlugin, Workspace } from '../helpers/workspace.ts'
import { Kernel } from '../../core/kernel.ts'

const plugins = [{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }, { name: 'tools-api', module: repoPlugin('tools-api') }]
const preflight = (origin: string, method = 'POST'): RequestInit => ({ method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, x-api-key' } })

t.test('a page on localhost, 127.0.0.1 or [::1] (any port, http or https) gets preflight and response headers', async t => {
  const s = await startKernel(t, { plugins })
  for (const origin of ['http://localhost:5173', 'https://127.0.0.1:8443', 'http://[::1]:3000', 'http://localhost']) {
    const pre = await s.get('/api/tools/call', preflight(origin))
    t.equal(pre.status, 204, `${origin}: preflight 204`)
    t.equal(pre.headers.get('content-length'), '0')
    t.equal(pre.headers.get('access-control-allow-origin'), origin)
    t.equal(pre.headers.get('access-control-allow-credentials'), 'true')
    t.match(pre.headers.get('access-control-allow-methods'), /\bPOST\b/)
    t.equal(pre.headers.get('access-control-allow-headers'), 'content-type, x-api-key')
    t.equal(pre.headers.get('access-control-max-age'), '600')
    t.match(pre.headers.get('vary'), /Origin/)
  }
  const actual = await s.post('/api/tools/call', { name: 'calculate', arguments: { expression: '1 + 1' } }, { headers: { 'content-type': 'application/json', origin: 'http://localhost:5173' } })
  t.equal(actual.status, 200)
  t.equal(actual.headers.get('access-control-allow-origin'), 'http://localhost:5173')
  t.equal(actual.headers.get('access-control-allow-credentials'), 'true')
  t.match(actual.headers.get('vary'), /Origin/)
  const missing = await s.get('/api/nothing-here', { headers: { origin: 'http://localhost:5173' } })
  t.equal(missing.status, 404)
  t.equal(missing.headers.get('access-control-allow-origin'), 'http://localhost:5173', 'errors are readable by an allowed page too')
})

t.test('a foreign origin (any other web page) gets no Access-Control-Allow-Origin', async t => {
  const s = await startKernel(t, { plugins })
  for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'http://127.0.0.1.nip.io:8080', 'null']) {
    const pre = await s.get('/api/config/update', preflight(origin))
    t.equal(pre.status, 204, `${origin}: the preflight is still answered`)
    t.equal(pre.headers.get('access-control-allow-origin'), null, `${origin}: not allowed`)
    const actual = await s.get('/api/tools', { headers: { origin } })
    t.equal(actual.status, 200)
    t.equal(actual.headers.get('access-control-allow-origin'), null, `${origin}: the browser may not read the answer`)
  }
  const plain = await s.get('/api/index')
  t.equal(plain.headers.get('access-control-allow-origin'), null, 'no Origin (curl, a server): no CORS header')
})

t.test('AGENT_CORS_ORIGINS adds origins (exact or with a * wildcard); the loopback default stays', async t => {
  const s = await startKernel(t, { plugins, env: { AGENT_CORS_ORIGINS: 'https://app.example.com, https://*.tools.example/' } })
  for (const origin of ['https://app.example.com', 'https://a.tools.example', 'http://localhost:3000']) {
    t.equal((await s.get('/api/tools', { headers: { origin } })).headers.get('access-control-allow-origin'), origin, `${origin} allowed`)
  }
  for (const origin of ['https://app.example.com.evil.test', 'http://app.example.com', 'https://evil.example']) {
    t.equal((await s.get('/api/tools', { headers: { origin } })).headers.get('access-control-allow-origin'), null, `${origin} refused`)
  }
})

t.test('AGENT_CORS_ORIGINS=* allows any origin', async t => {
  const s = await startKernel(t, { plugins, env: { AGENT_CORS_ORIGINS: '*' } })
  const pre = await s.get('/api/tools/call', preflight('https://anywhere.example'))
  t.equal(pre.status, 204)
  t.equal(pre.headers.get('access-control-allow-origin'), 'https://anywhere.example')
  const actual = await s.get('/api/tools', { headers: { origin: 'https://anywhere.example' } })
  t.equal(actual.headers.get('access-control-allow-origin'), 'https://anywhere.example', 'reflected (a credentialed request cannot use a literal *)')
})

t.test('a preflight on an unknown path, or without Origin, is still answered', async t => {
  const s = await startKernel(t, { plugins })
  const pre = await s.get('/api/anything/at/all', preflight('http://localhost:5173'))
  t.equal(pre.status, 204)
  t.equal(pre.headers.get('access-control-allow-origin'), 'http://localhost:5173')
  const bare = await s.get('/api/anything/at/all', { method: 'OPTIONS' })
  t.equal(bare.status, 204, 'a bare OPTIONS (curl) gets the same 204, not a 400')
})

t.test('a malformed AGENT_CORS_ORIGINS refuses to start, saying how to write it', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  t.throws(() => new Kernel({ cwd: ws.dir, env: testEnv(ws, { AGENT_CORS_ORIGINS: 'app.example.com' }), watch: false }), /AGENT_CORS_ORIGINS: "app\.example\.com" is not an origin; write scheme:\/\/host/)
})

t.test('an SSE stream carries the CORS headers too (EventSource from an allowed page)', async t => {
  const probe = new URL('../fixtures/plugins/probe', import.meta.url).pathname
  const s = await startKernel(t, { plugins: [{ name: 'probe', module: probe, options: { chunks: 2, chunk_ms: 10 } }] })
  const res = await s.get('/api/probe/stream', { headers: { accept: 'text/event-stream', origin: 'http://localhost:5173' } })
  t.match(res.headers.get('content-type'), /text\/event-stream/)
  t.equal(res.headers.get('access-control-allow-origin'), 'http://localhost:5173')
  t.match(await res.text(), /event: done/)
})
