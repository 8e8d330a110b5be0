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
  t.same(plain.body, { status: 'healthy', ready: true, version: VERSION, api: { status: 'healthy' } })
  const withMemory = (await s.json('/api/health?include_memory=true')).body
  t.same(withMemory, { status: 'healthy', ready: true, version: VERSION, api: { status: 'healthy' } }, 'the kernel invents no memory section')
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
  // The contributor never answers, so an answer at all is the cap's; it must not come early.
  t.ok(took >= 250, `answered at the cap, not before (${Math.round(took)} ms)`)
  t.equal(r.body.status, 'degraded')
  t.same(r.body.search, { status: 'unhealthy', error: 'health of search did not answer within 300 ms' })
  t.same(r.body.jobs, { status: 'healthy', from: 'fine' })
})

t.test('the cap is 5 s unless AGENT_HEALTH_TIMEOUT_MS says otherwise', async t => {
  const s = await startKernel(t, { plugins: [] })
  t.equal(s.kernel.settings.healthTimeoutMs, 5000)
})

t.test('readiness: 503 until the serving generation is activated, then degraded while a section is starting, then ready', async t => {
  const { activateGate } = await import('./fixtures/gated-activate/index.ts')
  const gate = activateGate()
  const gated = new URL('./fixtures/gated-activate', import.meta.url).pathname
  const { Kernel } = await import('../../core/kernel.ts')
  const { Workspace } = await import('../helpers/workspace.ts')
  const { testEnv } = await import('../helpers/kernel.ts')
  const ws = new Workspace()
  ws.writePlugins([{ name: 'gated', module: gated }])
  const kernel = new Kernel({ cwd: ws.dir, env: testEnv(ws), watch: false })
  t.teardown(async () => { gate.open(); await kernel.close(); ws.remove() })
  const started = kernel.start()
  // The generation is swapped in (its routes answer) but activation waits on the gate.
  const { pollUntil } = await import('../helpers/poll.ts')
  const url = (): string => `http://127.0.0.1:${(kernel.server.address() as { port: number }).port}`
  t.equal(await pollUntil(() => kernel.api.generation(), n => n === 1), 1, 'the generation is swapped in')
  const before = await fetch(`${url()}/api/health`)
  t.equal(before.status, 503, 'not ready before activation')
  t.match(await before.json(), { status: 'starting', ready: false })
  const live = await fetch(`${url()}/api/health?live=true`)
  t.equal(live.status, 200, 'liveness answers at once')
  t.match(await live.json(), { status: 'alive' })

  gate.open()
  await started
  const degraded = await fetch(`${url()}/api/health`)
  t.equal(degraded.status, 200)
  t.match(await degraded.json(), { status: 'degraded', ready: false, starting: ['store'], store: { status: 'starting' } })

  gate.up = true
  const ready = await fetch(`${url()}/api/health`)
  t.match(await ready.json(), { status: 'healthy', ready: true, store: { status: 'healthy' } })
})
