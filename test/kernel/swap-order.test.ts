// At a swap, the old generation's background work stops before the new generation's
// starts (so a scheduler never runs twice), and a deactivate that never finishes cannot
// hold the reload past its timeout.
import t, { type Test } from 'tap'
import { Kernel } from '../../core/kernel.ts'
import { Workspace } from '../helpers/workspace.ts'
import { testEnv } from '../helpers/kernel.ts'
import { journal } from '../fixtures/plugins/probe/index.ts'

const fixture = new URL('./fixtures/slow-deactivate', import.meta.url).pathname

async function start (t: Test, options: Record<string, unknown>, deactivateTimeoutMs?: number): Promise<Kernel> {
  const ws = new Workspace()
  ws.writePlugins([{ name: 'slow', module: fixture, options }])
  const kernel = new Kernel({ cwd: ws.dir, env: testEnv(ws), watch: false, deactivateTimeoutMs })
  t.teardown(async () => { await kernel.close(); ws.remove() })
  await kernel.start()
  return kernel
}

t.test('the old generation\'s deactivate completes before the new generation activates', async t => {
  const kernel = await start(t, { tag: 'order', deactivate_ms: 250 })
  journal().length = 0
  t.equal((await kernel.reload('test')).ok, true)
  const events = journal().filter(e => e.tag === 'order').map(e => `${e.generation}:${e.event}`)
  t.same(events, ['1:deactivate-start', '1:deactivate-done', '2:activate'], 'strictly in this order, all done when reload resolves')
})

t.test('a deactivate that never finishes is given up after the timeout; the new generation still activates', async t => {
  const kernel = await start(t, { tag: 'hang', hang: true }, 300)
  journal().length = 0
  const started = performance.now()
  const outcome = await kernel.reload('test')
  const took = performance.now() - started
  t.equal(outcome.ok, true)
  t.equal(outcome.generation, 2)
  // The deactivate never finishes, so resolving at all is the timeout's doing; not before it.
  t.ok(took >= 250, `reload waited for the timeout (${Math.round(took)} ms)`)
  const events = journal().filter(e => e.tag === 'hang').map(e => `${e.generation}:${e.event}`)
  t.same(events, ['1:deactivate-start', '2:activate'])
})
