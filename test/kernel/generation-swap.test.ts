// The generation swap, rule by rule (issue 22, mutation testing): what a swap and a failed
// reload log and report, the plugin list while a reload has failed, files a plugin asks to
// be watched, disabled plugins, hook points nobody runs, a reload during shutdown, and the
// old generation's drain: closed as soon as its last request ends, cut (and logged) past
// the drain timeout. Streams are held by gates; nothing here waits on a clock.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { fixturePlugin, Workspace } from '../helpers/workspace.ts'
import { journal } from '../fixtures/plugins/probe/index.ts'
import { namedGate } from '../helpers/gate.ts'
import { until } from '../helpers/poll.ts'

/** A plain plugin module written into the workspace (it cannot import the project's packages). */
const plainPlugin = (body: string): string => `const p = async (app, opts) => {\n${body}\n}\np[Symbol.for('skip-override')] = true\nexport default p\n`

const probe = (tag: string, extra: Record<string, unknown> = {}): { name: string, module: string, options: Record<string, unknown> } =>
  ({ name: 'probe', module: fixturePlugin('probe'), options: { tag, ...extra } })

t.test('a swap is logged with its generation, reason and duration; the outcome says the same', async t => {
  const s = await startKernel(t, { plugins: [probe('a')], watch: false, logLevel: 'info' })
  const outcome = await s.kernel.reload('by the test')
  t.match(outcome, { ok: true, reason: 'by the test', generation: 2, duration_ms: Number })
  const line = s.logs.find(l => l.msg === 'generation swapped in' && l.generation === 2)
  t.match(line, { reason: 'by the test', duration_ms: outcome.duration_ms })
  t.match(s.logs.find(l => /^agentd .* listening on http:\/\/127\.0\.0\.1:\d+ \(API docs at http:\/\/127\.0\.0\.1:\d+\/docs\)$/.test(l.msg)), { level: 30 }, 'the start is logged with the address')
})

t.test('a failed reload is logged with its reason and error; the failed plugin replaces its entry in the list', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('first/index.js', plainPlugin("app.get('/api/first', async () => ({ ok: true }))"))
  const s = await startKernel(t, { ws, plugins: [{ name: 'first', module: './first' }, probe('a')], watch: false, logLevel: 'info' })
  // A new module file (an imported module is cached by its path), same plugin name.
  ws.write('first-broken/index.js', plainPlugin("throw new Error('first broke')"))
  ws.writePlugins([{ name: 'first', module: './first-broken' }, probe('a')])
  const outcome = await s.kernel.reload('edit')
  t.match(outcome, { ok: false, reason: 'edit', generation: 1, error: /Plugin "first" failed to start: first broke/ })
  t.match(s.logs.find(l => l.msg === 'reload failed; the previous generation keeps serving'), { level: 50, reason: 'edit', error: /first broke/ })
  const list = (await s.json<{ plugins: Array<{ name: string, status: string, error?: string }> }>('/api/plugins')).body.plugins
  t.same(list.map(p => [p.name, p.status]), [['first', 'failed'], ['probe', 'loaded']], 'the first entry is the failed one, in its place, and the others stay')
  t.match(list[0].error, /first broke/)
  t.equal((await s.get('/api/first')).status, 200, 'the previous generation still serves it')
})

t.test('a plugin that fails in a reload and is new to the list is added at the end', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('late/index.js', plainPlugin("throw new Error('late broke')"))
  const s = await startKernel(t, { ws, plugins: [probe('a')], watch: false })
  ws.writePlugins([probe('a'), { name: 'late', module: './late' }])
  t.equal((await s.kernel.reload('add late')).ok, false)
  const list = (await s.json<{ plugins: Array<{ name: string, status: string }> }>('/api/plugins')).body.plugins
  t.same(list.map(p => [p.name, p.status]), [['probe', 'loaded'], ['late', 'failed']])
})

t.test('a file a plugin asks to be watched reloads when it changes', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  const extra = ws.write('extra.txt', 'one')
  ws.write('watcher/index.js', plainPlugin(`app.lifecycle.reloadOn(${JSON.stringify(extra)})`))
  const s = await startKernel(t, { ws, plugins: [{ name: 'watcher', module: './watcher' }] })
  const reloaded = s.nextReload()
  ws.write('extra.txt', 'two')
  await reloaded
  t.match(s.kernel.api.lastReload(), { ok: true, reason: /file changed: extra\.txt/ })
})

t.test('watched files rewritten with the same bytes are logged as unchanged, with the event\'s reason', async t => {
  const s = await startKernel(t, { plugins: [probe('a')], logLevel: 'debug' })
  s.ws.writePlugins([probe('a')])
  await until('the watcher to compare', () => s.logs.some(l => l.msg === 'watched files unchanged; no reload'))
  t.match(s.logs.find(l => l.msg === 'watched files unchanged; no reload'), { reason: /^file changed: plugins\.json/ })
  t.equal(s.kernel.api.generation(), 1)
})

t.test('a disabled plugin is listed as disabled and not registered', async t => {
  const s = await startKernel(t, { plugins: [{ ...probe('a'), enabled: false }], watch: false, logLevel: 'debug' })
  const list = (await s.json<{ plugins: Array<{ name: string, status: string }> }>('/api/plugins')).body.plugins
  t.same(list.map(p => [p.name, p.status]), [['probe', 'disabled']])
  t.equal((await s.get('/api/probe/tag')).status, 404)
  t.notOk(s.logs.some(l => l.msg === 'plugin registered' && l.plugin === 'probe'))
})

t.test('each registered plugin is logged with how long it took (at debug)', async t => {
  const started = performance.now()
  const s = await startKernel(t, { plugins: [probe('a')], watch: false, logLevel: 'debug' })
  const took = performance.now() - started
  const line = s.logs.find(l => l.msg === 'plugin registered' && l.plugin === 'probe')
  t.ok(line !== undefined, 'logged')
  const ms = line?.ms as number
  t.ok(ms >= 0 && ms <= took, `${ms} ms, within the start that contained it (${Math.round(took)} ms)`)
})

t.test('a handler on a hook point no loaded plugin runs is warned about', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('listener/index.js', plainPlugin("app.hooks.declare('known:point')\napp.hooks.on('nobody:runs', async () => {})"))
  const s = await startKernel(t, { ws, plugins: [{ name: 'listener', module: './listener' }], watch: false, logLevel: 'info' })
  t.match(s.logs.find(l => l.hook === 'nobody:runs'), { level: 40, msg: 'a plugin subscribed to hook point "nobody:runs", which no loaded plugin runs', declared: ['known:point'] })
})

t.test('failures in activate, deactivate and close are logged with the plugin, and the swap goes on', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('fragile/index.js', plainPlugin(`
app.lifecycle.add({ name: opts.instance, activate: () => { if (app.kernel.generation() >= 1) throw new Error('activate broke') }, deactivate: () => { throw new Error('deactivate broke') } })
app.addHook('onClose', async () => { throw new Error('close broke') })`))
  const s = await startKernel(t, { ws, plugins: [{ name: 'fragile', module: './fragile' }], watch: false, logLevel: 'info' })
  t.equal((await s.kernel.reload('again')).ok, true)
  await s.kernel.settled()
  t.match(s.logs.find(l => l.msg === 'plugin activate failed'), { level: 50, plugin: 'fragile', err: { message: 'activate broke' } })
  t.match(s.logs.find(l => l.msg === 'plugin deactivate failed'), { level: 50, plugin: 'fragile', generation: 1, err: { message: 'deactivate broke' } })
  t.match(s.logs.find(l => l.msg === 'closing old generation failed'), { level: 50, err: { message: 'close broke' } })
  t.equal(s.kernel.api.generation(), 2)
})

t.test('a deactivate past its time limit is logged with the generation and the limit', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'slow', module: new URL('./fixtures/slow-deactivate', import.meta.url).pathname, options: { tag: 'gs', hang: true } }], watch: false, logLevel: 'info', deactivateTimeoutMs: 200 })
  t.equal((await s.kernel.reload('swap')).ok, true)
  t.match(s.logs.find(l => l.msg === 'deactivate did not finish in time; going on without it'), { level: 40, generation: 1, timeout_ms: 200 })
})

t.test('a reload asked for during shutdown does nothing and says why', async t => {
  const s = await startKernel(t, { plugins: [probe('a')], watch: false })
  await s.kernel.close()
  t.match(await s.kernel.reload('late'), { ok: false, reason: 'late', error: 'the server is shutting down', generation: 1 })
})

t.test('the old generation closes as soon as its last request ends, not at the drain timeout', async t => {
  // Two streams on the old generation, each held by a gate; a drain timeout of ten minutes.
  const a = namedGate('swap-drain-a', t)
  const b = namedGate('swap-drain-b', t)
  const s = await startKernel(t, { plugins: [{ name: 'pa', module: fixturePlugin('probe'), options: { tag: 'pa', gate: 'swap-drain-a', chunks: 3, chunk_ms: 1 } }, { name: 'pb', module: fixturePlugin('probe'), options: { tag: 'pb', gate: 'swap-drain-b', chunks: 3, chunk_ms: 1 } }], watch: false, env: { AGENT_DRAIN_TIMEOUT_MS: '600000' }, logLevel: 'info' })
  journal().length = 0
  const open = async (p: string): Promise<ReadableStreamDefaultReader<Uint8Array>> => {
    const reader = (await s.get(p, { headers: { accept: 'text/event-stream' } })).body!.getReader()
    await reader.read() // the first chunk: the stream now waits at its gate
    return reader
  }
  const readAll = async (r: ReadableStreamDefaultReader<Uint8Array>): Promise<string> => {
    let text = ''
    for (;;) { const { done, value } = await r.read(); if (done) return text; text += new TextDecoder().decode(value) }
  }
  const ra = await open('/api/pa/stream')
  const rb = await open('/api/pb/stream')
  t.equal((await s.kernel.reload('swap')).ok, true)
  a.open()
  t.match(await readAll(ra), /event: done/)
  b.open()
  t.match(await readAll(rb), /event: done/)
  await s.kernel.settled()
  const events = journal().filter(e => e.generation === 1).map(e => `${e.tag}:${e.event}`)
  const at = (e: string): number => events.indexOf(e)
  t.ok(at('pb:stream-end') >= 0 && at('pa:close') > at('pb:stream-end'), `closed after the last stream ended, not the first: ${events.join(', ')}`)
  t.notOk(s.logs.some(l => l.msg === 'drain timeout: cut requests still open on the old generation'), 'nothing was cut')
})

t.test('a request still open at the drain timeout is cut, and the cut is logged with its count', async t => {
  namedGate('swap-drain-cut', t) // never opened: only the drain timeout ends the wait
  const s = await startKernel(t, { plugins: [probe('cut', { gate: 'swap-drain-cut' })], watch: false, env: { AGENT_DRAIN_TIMEOUT_MS: '200' }, logLevel: 'info' })
  const reader = (await s.get('/api/probe/stream', { headers: { accept: 'text/event-stream' } })).body!.getReader()
  await reader.read()
  t.equal((await s.kernel.reload('swap')).ok, true)
  await s.kernel.settled()
  t.match(s.logs.find(l => l.msg === 'drain timeout: cut requests still open on the old generation'), { level: 40, generation: 1, cut: 1 })
  await reader.cancel().catch(() => undefined)
})

t.test('before the first generation: every request is a 503 "starting" with Retry-After, and the plugin list is empty', async t => {
  const { Kernel } = await import('../../core/kernel.ts')
  const { testEnv } = await import('../helpers/kernel.ts')
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.writePlugins([])
  const kernel = new Kernel({ cwd: ws.dir, env: testEnv(ws), watch: false })
  t.teardown(async () => { await kernel.close() })
  t.same(kernel.pluginStatuses(), [])
  // The server listens before start() builds anything (start binds first, then builds).
  await new Promise<void>(resolve => kernel.server.listen(0, '127.0.0.1', resolve))
  const { port } = kernel.server.address() as { port: number }
  const res = await fetch(`http://127.0.0.1:${port}/api/index`)
  t.equal(res.status, 503)
  t.equal(res.headers.get('retry-after'), '1')
  t.match(res.headers.get('content-type'), 'application/json')
  const body = await res.json() as { request_id?: string }
  t.same(body, { error: 'The server is starting (loading plugins); retry in a moment.', code: 'AGENT_ERR_STARTING', statusCode: 503, request_id: res.headers.get('x-request-id') })
  t.match(body.request_id, /^[0-9a-f-]{36}$/, 'a request id even before any generation')
})

t.test('what planning warns about is logged with the plugin', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('free/index.js', plainPlugin(''))
  const s = await startKernel(t, { ws, plugins: [{ name: 'free', module: './free', options: { anything: 1 } }], watch: false, logLevel: 'info' })
  t.match(s.logs.find(l => l.plugin === 'free' && l.level === 40), { msg: /declares no options schema/ })
})
