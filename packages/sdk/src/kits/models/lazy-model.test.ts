// The lazy model: one load for concurrent first callers, progress, error then retry.
import t from 'tap'
import { LazyModel, ModelUnavailableError, type LogSink, type ModelLoader } from './lazy-model.ts'

function sink (): LogSink & { lines: string[] } {
  const lines: string[] = []
  const log = (_obj: unknown, msg?: string): void => { lines.push(msg ?? '') }
  return { lines, info: log, warn: log, error: log } as unknown as LogSink & { lines: string[] }
}

function deferred<T> (): { promise: Promise<T>, resolve: (v: T) => void, reject: (e: Error) => void } {
  let resolve!: (v: T) => void
  let reject!: (e: Error) => void
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  return { promise, resolve, reject }
}

t.test('status is not_loaded until the first get', async t => {
  const m = new LazyModel({ model: 'm', what: 'test model', load: async () => 1, log: sink() })
  t.same(m.status(), { status: 'not_loaded', model: 'm' })
  t.equal(m.loads, 0)
})

t.test('concurrent first callers share one load', async t => {
  const d = deferred<string>()
  let calls = 0
  const load: ModelLoader<string> = async () => { calls++; return await d.promise }
  const m = new LazyModel({ model: 'm', what: 'test model', load, log: sink() })
  const all = Promise.all([m.get(), m.get(), m.get(), m.get()])
  t.equal(m.status().status, 'loading')
  d.resolve('model')
  t.same(await all, ['model', 'model', 'model', 'model'])
  t.equal(calls, 1)
  t.equal(m.status().status, 'healthy')
})

t.test('progress shows in status and in the log, in steps of 10%', async t => {
  const d = deferred<number>()
  const log = sink()
  let report!: (p: number) => void
  const m = new LazyModel({ model: 'm', what: 'test model', load: async (on) => { report = p => { on({ percent: p }) }; return await d.promise }, log })
  const p = m.get()
  await new Promise(resolve => setImmediate(resolve))
  report(3); report(12.5); report(14); report(57.26)
  t.same(m.status(), { status: 'loading', model: 'm', progress: 57.3 })
  d.resolve(1)
  await p
  t.same(log.lines.filter(l => l.includes('%')), ['loading test model m: 3%', 'loading test model m: 13%', 'loading test model m: 57%'])
})

t.test('a failed load is reported as error with the explanation, then retried by the next caller', async t => {
  let attempt = 0
  const m = new LazyModel({
    model: 'm',
    what: 'test model',
    load: async () => { if (++attempt === 1) throw new Error('fetch failed'); return 'ok' },
    log: sink(),
    explain: (err) => `m could not be fetched (${(err as Error).message}); set MODEL_DIR`,
  })
  const err = await m.get().catch((e: unknown) => e)
  t.ok(err instanceof ModelUnavailableError)
  t.equal((err as Error).message, 'm could not be fetched (fetch failed); set MODEL_DIR')
  t.same(m.status(), { status: 'error', model: 'm', error: 'm could not be fetched (fetch failed); set MODEL_DIR' })
  t.equal(await m.get(), 'ok')
  t.equal(attempt, 2)
  t.equal(m.status().status, 'healthy')
})

t.test('dispose releases the loaded model', async t => {
  const disposed: string[] = []
  const m = new LazyModel({ model: 'm', what: 'test model', load: async () => 'x', log: sink(), dispose: v => { disposed.push(v) } })
  await m.get()
  await m.dispose()
  t.same(disposed, ['x'])
  await t.rejects(m.get(), ModelUnavailableError)
})

t.test('a loader that throws synchronously reports error and is retried, not stuck in loading', async t => {
  let attempt = 0
  // Not async on purpose: the throw happens before any promise exists.
  const load = ((): Promise<string> => {
    if (++attempt === 1) throw new Error('bad options')
    return Promise.resolve('ok')
  }) as ModelLoader<string>
  const m = new LazyModel({ model: 'm', what: 'test model', load, log: sink() })
  const err = await m.get().catch((e: unknown) => e)
  t.ok(err instanceof ModelUnavailableError)
  t.match(m.status(), { status: 'error', error: /bad options/ }, 'error, not loading')
  t.equal(await m.get(), 'ok', 'the next caller starts a new load')
  t.equal(attempt, 2)
  t.equal(m.status().status, 'healthy')
})
