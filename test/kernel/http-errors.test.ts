// Error bodies of DECISIONS.md for the kernel's own failure modes.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'

const plugins = [{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }, { name: 'tools-api', module: repoPlugin('tools-api') }]
/** One server for the tests that only send requests to these plugins. */
const shared = await startKernel(t, { plugins })

t.test('unknown path -> 404 body', async t => {
  const s = shared
  const r = await s.json('/api/nothing-here')
  t.equal(r.status, 404)
  t.same(Object.keys(r.body).sort(), ['code', 'error', 'request_id', 'statusCode'])
  t.equal(r.body.code, 'AGENT_ERR_NOT_FOUND')
  t.equal(r.body.statusCode, 404)
})

t.test('known path, wrong method -> 405 with Allow', async t => {
  const s = shared
  const r = await s.json('/api/tools/call', { method: 'GET' })
  t.equal(r.status, 405)
  t.equal(r.headers.get('allow'), 'POST, OPTIONS')
  t.equal(r.body.code, 'AGENT_ERR_METHOD_NOT_ALLOWED')
})

t.test('malformed JSON -> 400', async t => {
  const s = shared
  const res = await s.post('/api/tools/call', '{"name": ')
  t.equal(res.status, 400)
  const body = await res.json() as { code: string, error: string }
  t.equal(body.code, 'AGENT_ERR_MALFORMED_JSON')
})

t.test('wrong types and unknown keys -> 400 with details by path', async t => {
  const s = shared
  const res = await s.post('/api/tools/call', { name: 7, surprise: true })
  t.equal(res.status, 400)
  const body = await res.json() as { code: string, details: Array<{ path: string, message: string }> }
  t.equal(body.code, 'AGENT_ERR_VALIDATION')
  t.ok(body.details.some(d => d.path === 'body.name' && /string/.test(d.message)), 'names body.name')
  t.ok(body.details.some(d => /unknown key\(s\): surprise/.test(d.message)), 'names the unknown key')
})

t.test('a query string is converted, not rejected for being text', async t => {
  const s = shared
  t.equal((await s.json('/api/health?include_memory=true')).status, 200)
  t.equal((await s.json('/api/health?include_memory=maybe')).status, 400)
})

t.test('a plugin that throws a plain Error gets a 500 that leaks nothing', async t => {
  const s = await startKernel(t, { plugins: [] })
  // A plain Fastify plugin: a workspace in /tmp cannot import the project's node_modules.
  s.ws.write('oops/index.js', `const oops = async (app) => { app.get('/api/oops', async () => { throw new Error('secret internal detail at /home/x') }) }
oops[Symbol.for('skip-override')] = true
export default oops`)
  s.ws.writePlugins([{ name: 'oops', module: './oops' }])
  t.equal((await s.kernel.reload('test')).ok, true)
  const r = await s.json('/api/oops')
  t.equal(r.status, 500)
  t.equal(r.body.code, 'AGENT_ERR_INTERNAL')
  t.notMatch(JSON.stringify(r.body), /secret|home|stack/)
})

t.test('OpenAPI at /docs is generated from the route schemas', async t => {
  const s = shared
  const doc = (await s.json('/docs/json')).body
  t.equal(doc.openapi.slice(0, 2), '3.')
  t.ok(doc.paths['/api/tools/call'].post.requestBody, 'a plugin route with its body schema')
  t.ok(doc.paths['/api/health'].get, 'a core route')
})
