// With Redis configured, two servers count one allowance: the rate limit holds across a
// cluster (and across reloads). The real Redis at 127.0.0.1:6379, in a namespace of this test's own.
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'

const REDIS_URI = process.env.TEST_REDIS_URI ?? 'redis://127.0.0.1:6379'
const plugins = [{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }, { name: 'tools-api', module: repoPlugin('tools-api') }]

t.test('two servers on one Redis share the rate-limit counts; a reload keeps them', async t => {
  const namespace = `agentd-test-${randomBytes(6).toString('hex')}:`
  const env = { AGENT_RATE_LIMIT_ENABLED: 'true', AGENT_RATE_LIMIT: '5/m', REDIS_URI, AGENT_RATE_LIMIT_NAMESPACE: namespace }
  t.teardown(async () => {
    const r = new Redis(REDIS_URI)
    const keys = await r.keys(`${namespace}*`)
    if (keys.length > 0) await r.del(...keys)
    await r.quit()
  })
  const a = await startKernel(t, { plugins, env })
  const b = await startKernel(t, { plugins, env })
  for (let i = 0; i < 3; i++) t.equal((await a.json('/api/tools')).status, 200, `a ${i}`)
  await b.kernel.reload('test')
  for (let i = 0; i < 2; i++) t.equal((await b.json('/api/tools')).status, 200, `b ${i}`)
  const limited = await b.json('/api/tools')
  t.equal(limited.status, 429, 'the sixth request, counted across both servers, is refused')
  t.equal(limited.body.code, 'AGENT_ERR_RATE_LIMITED')
  t.equal((await a.json('/api/tools')).status, 429, 'on the other server too')
  t.ok(Number(limited.headers.get('retry-after')) > 0)
})

t.test('a Redis that is away does not fail requests: the limit is off until it is back', async t => {
  const s = await startKernel(t, { plugins, env: { AGENT_RATE_LIMIT_ENABLED: 'true', AGENT_RATE_LIMIT: '2/m', REDIS_URI: 'redis://127.0.0.1:1' } })
  for (let i = 0; i < 4; i++) t.equal((await s.json('/api/tools')).status, 200)
})
