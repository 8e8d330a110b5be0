// The kernel's own routes: /api/index, and /api/health with no plugin (no section: the
// translation and memory sections are their plugins'), the degraded roll-up, and the
// per-contributor cap.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { VERSION } from '../../core/kernel.ts'

const section = new URL('./fixtures/health-section', import.meta.url).pathname

t.test('/api/index names the service, its version and the docs', async t => {
  const s = await startKernel(t, { plugins: [] })
  const r = await s.json('/api/index')
  t.equal(r.status, 200)
  t.same(r.body, { message: 'agentd: a self-hosted agent server. See /docs for the API.', version: VERSION, docs: '/docs' })
})

t.test('with no plugins: healthy, and no capability section (each section is its plugin\'s)', async t => {
  const s = await startKernel(t, { plugins: [] })
  const plain = await s.json('/api/health')
  t.equal(plain.status, 200)
  t.same(plain.body, { status: 'healthy', version: VERSION, api: { status: 'healthy' } })
  const withMemory = (await s.json('/api/health?include_memory=true')).body
  t.same(withMemory, { status: 'healthy', version: VERSION, api: { status: 'healthy' } }, 'the kernel invents no memory section')
})

t.test('a contributor replaces its default section; one that fails makes the whole answer degraded', async t => {
  const s = await startKernel(t, {
    plugins: [
      { name: 'tr', module: section, options: { section: 'translation', mode: 'healthy' } },
      { name: 'jobs', module: section, options: { section: 'jobs', mode: 'throw' } },
    ],
  })
  const r = await s.json('/api/health')
  t.equal(r.status, 200, 'health answers 200 even when degraded')
  t.equal(r.body.status, 'degraded')
  t.same(r.body.translation, { status: 'healthy', from: 'tr' }, 'the contributor replaced the default')
  t.same(r.body.jobs, { status: 'unhealthy', error: 'jobs backend unreachable' })
  t.same(r.body.api, { status: 'healthy' })
})

t.test('a contributor reporting unhealthy also degrades; an opt-in one only counts when asked', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'mem', module: section, options: { section: 'memory', mode: 'unhealthy', opt_in: 'include_memory' } }] })
  t.equal((await s.json('/api/health')).body.status, 'healthy', 'not asked for memory: not checked')
  const asked = (await s.json('/api/health?include_memory=true')).body
  t.equal(asked.status, 'degraded')
  t.same(asked.memory, { status: 'unhealthy', from: 'mem' })
})

t.test('a contributor that does not answer is reported unhealthy at the cap; the others still answer', async t => {
  const s = await startKernel(t, {
    env: { AGENT_HEALTH_TIMEOUT_MS: '300' },
    plugins: [
      { name: 'stuck', module: section, options: { section: 'search', mode: 'hang' } },
      { name: 'fine', module: section, options: { section: 'jobs', mode: 'healthy' } },
    ],
  })
  const started = performance.now()
  const r = await s.json('/api/health')
  const took = performance.now() - started
  t.ok(took >= 250 && took < 4000, `answered at the cap, not before and not much after (${Math.round(took)} ms)`)
  t.equal(r.body.status, 'degraded')
  t.same(r.body.search, { status: 'unhealthy', error: 'health of search did not answer within 300 ms' })
  t.same(r.body.jobs, { status: 'healthy', from: 'fine' })
})

t.test('the cap is 5 s unless AGENT_HEALTH_TIMEOUT_MS says otherwise', async t => {
  const s = await startKernel(t, { plugins: [] })
  t.equal(s.kernel.settings.healthTimeoutMs, 5000)
})
