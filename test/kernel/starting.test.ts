// The port is bound before plugins load: while the first generation builds, requests get
// a clear 503 with Retry-After instead of a refused connection.
import t from 'tap'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { Kernel } from '../../core/kernel.ts'
import { Workspace, fixturePlugin } from '../helpers/workspace.ts'
import { testEnv } from '../helpers/kernel.ts'

t.test('503 "starting" while the first generation builds, then served', async t => {
  const ws = new Workspace()
  ws.writePlugins([{ name: 'probe', module: fixturePlugin('probe'), options: { init_delay_ms: 600 } }])
  const kernel = new Kernel({ cwd: ws.dir, env: testEnv(ws), watch: false })
  t.teardown(async () => { await kernel.close(); ws.remove() })
  const started = kernel.start()
  await once(kernel.server, 'listening')
  const url = `http://127.0.0.1:${(kernel.server.address() as AddressInfo).port}`
  const early = await fetch(`${url}/api/health`)
  t.equal(early.status, 503)
  t.equal(early.headers.get('retry-after'), '1')
  t.equal((await early.json() as { code: string }).code, 'AGENT_ERR_STARTING')
  await started
  t.equal((await fetch(`${url}/api/probe/tag`)).status, 200)
})

t.test('serve early: /api/index answers while the plugins load; their routes say which are starting, then answer', async t => {
  const ws = new Workspace()
  ws.writePlugins([{ name: 'probe', module: fixturePlugin('probe'), options: { init_delay_ms: 600 } }])
  const kernel = new Kernel({ cwd: ws.dir, env: testEnv(ws), watch: false })
  t.teardown(async () => { await kernel.close(); ws.remove() })
  const started = kernel.start()
  const { pollUntil } = await import('../helpers/poll.ts')
  // The early generation (number 0, the kernel's own routes) is in before the plugins are.
  const index = await pollUntil(async () => {
    try { return (await fetch(`http://127.0.0.1:${(kernel.server.address() as AddressInfo).port}/api/index`)).status } catch { return 0 }
  }, status => status === 200)
  t.equal(index, 200, '/api/index answers while the probe plugin is still loading')
  t.equal(kernel.api.generation(), 0, 'the plugin generation is not in yet')
  const url = `http://127.0.0.1:${(kernel.server.address() as AddressInfo).port}`
  const early = await fetch(`${url}/api/probe/tag`)
  t.equal(early.status, 503, 'a plugin route is "starting", not a 404')
  t.match(await early.json(), { code: 'AGENT_ERR_STARTING', error: /^The server is starting \(loading plugins(: probe)?\); retry in a moment\.$/ })
  // While plugins.json is read and the modules imported, no name is known yet; once the
  // probe registers (it holds its registration 600 ms), the answer names it.
  const named = await pollUntil(async () => await (await fetch(`${url}/api/probe/tag`)).json() as { error?: string }, b => b.error?.includes('probe') === true)
  t.match(named, { error: 'The server is starting (loading plugins: probe); retry in a moment.', code: 'AGENT_ERR_STARTING', statusCode: 503, request_id: /^[0-9a-f-]{36}$/ }, 'naming the plugin still loading')
  await started
  t.equal(kernel.api.generation(), 1)
  t.equal((await fetch(`${url}/api/probe/tag`)).status, 200)
  t.equal((await fetch(`${url}/api/nothing-here`)).status, 404, 'once loaded, an unknown path is a 404 again')
})
