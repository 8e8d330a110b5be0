// Live reload: a generation swap under load loses no request, a stream started on the
// old generation finishes there, and the old generation closes only after it drained.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { fixturePlugin, repoPlugin } from '../helpers/workspace.ts'
import { journal } from '../fixtures/plugins/probe/index.ts'
import { namedGate } from '../helpers/gate.ts'
import { until } from '../helpers/poll.ts'

const plugins = (tag: string, extra: Record<string, unknown> = {}) => [
  { name: 'tools-builtin', module: repoPlugin('tools-builtin') },
  { name: 'probe', module: fixturePlugin('probe'), options: { tag, ...extra } },
]

t.test('five plugins.json changes under continuous requests: zero failures', async t => {
  const s = await startKernel(t, { plugins: plugins('v0') })
  let stop = false
  const failures: string[] = []
  const tagsSeen = new Set<string>()
  let count = 0
  const client = async (): Promise<void> => {
    while (!stop) {
      try {
        const res = await s.get('/api/probe/tag')
        if (res.status !== 200) failures.push(`status ${res.status}`)
        else tagsSeen.add((await res.json() as { tag: string }).tag)
        count++
      } catch (err) { failures.push((err as Error).message) }
    }
  }
  const clients = [client(), client(), client(), client()]
  // Between two changes the clients make at least 10 more requests, however slow the machine.
  const moreRequests = async (): Promise<void> => { const from = count; await until('10 more requests', () => count >= from + 10, 30_000) }
  for (let i = 1; i <= 5; i++) {
    await moreRequests()
    const reloaded = s.nextReload()
    s.ws.writePlugins(plugins(`v${i}`))
    await reloaded
    t.equal(s.kernel.api.lastReload()?.ok, true, `reload ${i} succeeded`)
  }
  await moreRequests()
  stop = true
  await Promise.all(clients)
  t.same(failures, [], `no failed request among ${count}`)
  t.ok(tagsSeen.has('v0') && tagsSeen.has('v5'), 'requests were served by old and new generations')
  t.equal(s.kernel.api.generation(), 6)
})

t.test('a stream started on the old generation completes on it; the old one closes after it drains', async t => {
  // The stream holds after its first chunk until the swap is done.
  const held = namedGate('reload-old-stream', t)
  const s = await startKernel(t, { plugins: plugins('old', { chunks: 8, chunk_ms: 1, gate: 'reload-old-stream' }) })
  journal().length = 0
  const res = await s.get('/api/probe/stream', { headers: { accept: 'text/event-stream' } })
  t.equal(res.status, 200)
  const reader = res.body!.getReader()
  const first = await reader.read()
  t.match(new TextDecoder().decode(first.value), /event: chunk/, 'stream began on the old generation')

  const outcome = await s.kernel.reload('test')
  t.equal(outcome.ok, true)
  const tag = await (await s.get('/api/probe/tag')).json() as { tag: string, generation: number }
  t.equal(tag.generation, 2, 'new requests go to the new generation while the stream runs')
  held.open()

  let text = new TextDecoder().decode(first.value)
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
  }
  t.match(text, /event: done/, 'the stream finished')
  t.notMatch(text, /"generation":2/, 'every chunk came from the old generation')
  await s.kernel.settled()
  const all = journal().map(e => `${e.generation}:${e.event}`)
  const at = (event: string): number => all.indexOf(event)
  for (const e of ['1:deactivate', '2:activate', '1:stream-end', '1:close']) t.ok(at(e) >= 0, `${e} happened: ${all.join(', ')}`)
  t.ok(at('1:deactivate') < at('2:activate'), 'the old generation\'s background work stopped before the new one\'s started')
  t.ok(at('1:deactivate') < at('1:stream-end'), 'deactivate happens at swap, before the drain')
  t.ok(at('1:stream-end') < at('1:close'), 'onClose ran after the stream ended')
})

t.test('a stream longer than the drain timeout is cut and the old generation still closes', async t => {
  // The stream holds after its first chunk until teardown: only the drain timeout can end the wait.
  namedGate('reload-endless-stream', t)
  const s = await startKernel(t, { plugins: plugins('slow', { gate: 'reload-endless-stream' }), env: { AGENT_DRAIN_TIMEOUT_MS: '300' } })
  journal().length = 0
  const res = await s.get('/api/probe/stream', { headers: { accept: 'text/event-stream' } })
  const reader = res.body!.getReader()
  await reader.read()
  await s.kernel.reload('test')
  await s.kernel.settled()
  t.ok(journal().some(e => e.generation === 1 && e.event === 'close'), 'old generation closed')
  t.notOk(journal().some(e => e.generation === 1 && e.event === 'stream-end'), 'closed while the stream still held: the drain gave up')
  await reader.read().catch(() => undefined)
  await reader.cancel().catch(() => undefined)
})
