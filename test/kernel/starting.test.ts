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
