// X-API-Key and rate limiting: off by default, really enforced when on.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { Kernel } from '../../core/kernel.ts'
import { Workspace } from '../helpers/workspace.ts'
import { testEnv } from '../helpers/kernel.ts'

const plugins = [{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }, { name: 'tools-api', module: repoPlugin('tools-api') }]

t.test('no key needed by default', async t => {
  const s = await startKernel(t, { plugins })
  t.equal((await s.json('/api/tools')).status, 200)
})

t.test('with AGENT_API_KEY_REQUIRED: missing or wrong key 401, right key passes, health and preflight stay open', async t => {
  const s = await startKernel(t, { plugins, env: { AGENT_API_KEY_REQUIRED: 'true', AGENT_API_KEY: 's3cret-key' } })
  const missing = await s.json('/api/tools')
  t.equal(missing.status, 401)
  t.equal(missing.body.code, 'AGENT_ERR_UNAUTHORIZED')
  t.equal((await s.json('/api/tools', { headers: { 'x-api-key': 's3cret-kez' } })).status, 401)
  t.equal((await s.json('/api/tools', { headers: { 'x-api-key': 's3cret-key-longer' } })).status, 401)
  t.equal((await s.json('/api/tools', { headers: { 'x-api-key': 's3cret-key' } })).status, 200)
  t.equal((await s.json('/api/health')).status, 200)
  const pre = await s.get('/api/tools', { method: 'OPTIONS', headers: { origin: 'http://x.test', 'access-control-request-method': 'GET' } })
  t.equal(pre.status, 204)
})

t.test('AGENT_API_KEY_REQUIRED without a key refuses to start, saying what to set', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  t.throws(() => new Kernel({ cwd: ws.dir, env: testEnv(ws, { AGENT_API_KEY_REQUIRED: 'true' }), watch: false }), /AGENT_API_KEY is not set/)
})

t.test('with AGENT_RATE_LIMIT_ENABLED: the N+1th request in the window gets 429 with Retry-After', async t => {
  const s = await startKernel(t, { plugins, env: { AGENT_RATE_LIMIT_ENABLED: 'true', AGENT_RATE_LIMIT: '3/m' } })
  for (let i = 0; i < 3; i++) t.equal((await s.json('/api/tools')).status, 200)
  const limited = await s.json('/api/tools')
  t.equal(limited.status, 429)
  t.equal(limited.body.code, 'AGENT_ERR_RATE_LIMITED')
  t.match(limited.body.error, /3 requests per 3\/m/)
  t.ok(Number(limited.headers.get('retry-after')) > 0, 'Retry-After in seconds')
})

t.test('rate limit counts survive a reload: limited, reload, still limited', async t => {
  const s = await startKernel(t, { plugins, env: { AGENT_RATE_LIMIT_ENABLED: 'true', AGENT_RATE_LIMIT: '3/m' } })
  for (let i = 0; i < 3; i++) t.equal((await s.json('/api/tools')).status, 200)
  t.equal((await s.json('/api/tools')).status, 429, 'limited')
  const outcome = await s.kernel.reload('test')
  t.equal(outcome.ok, true)
  t.equal(outcome.generation, 2, 'a new generation serves')
  const after = await s.json('/api/tools')
  t.equal(after.status, 429, 'still limited: the new generation did not get a fresh allowance')
  t.equal(after.body.code, 'AGENT_ERR_RATE_LIMITED')
})

t.test('rate limit off by default', async t => {
  const s = await startKernel(t, { plugins })
  for (let i = 0; i < 120; i++) {
    const r = await s.get('/api/index')
    await r.arrayBuffer()
    if (r.status !== 200) { t.fail(`request ${i} got ${r.status}`); return }
  }
  t.pass('120 requests, none limited')
})
