// Health a load balancer can trust across live reloads: the next generation answers
// requests before its own activation, and /api/health must not call a serving process
// down meanwhile (readiness is the kernel's once a plugin generation has served).
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { pollUntil, until } from '../helpers/poll.ts'
import { activateGate, closeActivateGate } from './fixtures/gated-activate/index.ts'

const gated = new URL('./fixtures/gated-activate', import.meta.url).pathname

t.test('health stays 200 through forced reloads', async t => {
  const first = activateGate()
  first.up = true
  first.open()
  const s = await startKernel(t, { plugins: [{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }, { name: 'gated', module: gated }] })
  t.teardown(() => { activateGate().open() })

  t.test('between the swap and the next generation\'s activation', async t => {
    const held = closeActivateGate()
    const reloading = s.kernel.reload('test: held activation')
    // The next generation serves (its number is current) while its activate() waits on the gate.
    await pollUntil(() => s.kernel.api.generation(), n => n === 2)
    t.equal(s.kernel.current?.lifecycle.activated, false, 'the serving generation is not activated yet')
    const r = await s.json('/api/health')
    t.equal(r.status, 200, 'not 503 starting: the process serves')
    t.match(r.body, { status: 'healthy', ready: true, store: { status: 'healthy' } })
    held.open()
    t.equal((await reloading).ok, true)
  })

  t.test('thousands of requests across five POST /api/plugins/reload: zero non-2xx', async t => {
    let stop = false
    let count = 0
    const failures: string[] = []
    const client = async (): Promise<void> => {
      while (!stop) {
        try {
          const res = await s.get('/api/health')
          if (res.status < 200 || res.status > 299) failures.push(`${res.status} ${await res.text()}`)
          else await res.arrayBuffer()
          count++
        } catch (err) { failures.push((err as Error).message) }
      }
    }
    const clients = [client(), client(), client(), client()]
    // Paced by requests made, not by time.
    const more = async (n: number): Promise<void> => { const from = count; await until(`${n} more health requests`, () => count >= from + n, 60_000) }
    for (let i = 0; i < 5; i++) {
      await more(300)
      // Each new generation's activation is held until the clients have asked 100 times
      // more: requests certainly meet the window between the swap and the activation.
      const held = closeActivateGate()
      const generation = s.kernel.api.generation()
      const reloaded = s.post('/api/plugins/reload', {})
      await pollUntil(() => s.kernel.api.generation(), n => n === generation + 1)
      await more(100)
      held.open()
      t.equal((await reloaded).status, 200, `reload ${i + 1}`)
    }
    await more(400)
    stop = true
    await Promise.all(clients)
    t.ok(count >= 2400, `${count} health requests`)
    t.same(failures.slice(0, 5), [], `no failed health request among ${count} (${failures.length} failed)`)
  })
})
