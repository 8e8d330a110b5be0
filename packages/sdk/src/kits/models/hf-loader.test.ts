// The hub fetch's body watchdog: a download that stalls is cut, one that keeps moving or
// a reader that starts late is not. And transformers.js progress events -> load percent.
import t from 'tap'
import { hubProgress, localModelPath, watchBody, type HubProgressInfo } from './hf-loader.ts'
import { LazyModel, type LogSink } from './lazy-model.ts'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { setTimeout as sleep } from 'node:timers/promises'

// Timing here is by timer order, not by the clock: a read's watchdog and the source's next
// piece are timers started in the same tick, and Node runs expired timers in order of
// expiry with promise jobs in between, so a piece due sooner than the watchdog always
// clears it first, however late a loaded machine runs both.

/** A body that sends `chunks` pieces `gapMs` apart, then (unless `stallAfter`) ends. */
function source (chunks: number, gapMs: number, stall = false): ReadableStream<Uint8Array> {
  let sent = 0
  return new ReadableStream<Uint8Array>({
    async pull (ctl) {
      if (sent === chunks) { if (!stall) ctl.close(); else await new Promise(() => undefined); return }
      await sleep(gapMs)
      sent++
      ctl.enqueue(new Uint8Array([sent]))
    },
  }, { highWaterMark: 0 })
}

async function readAll (s: ReadableStream<Uint8Array>): Promise<number[]> {
  const out: number[] = []
  for await (const c of s) out.push(...c)
  return out
}

t.test('a body that stalls calls onStall after the time limit', async t => {
  let stalled = 0
  let onStall!: () => void
  const stall = new Promise<void>(resolve => { onStall = resolve })
  const reader = watchBody(source(2, 5, true), 100, () => { stalled++; onStall() }).getReader()
  t.same((await reader.read()).value, new Uint8Array([1]))
  t.same((await reader.read()).value, new Uint8Array([2]))
  t.equal(stalled, 0, 'not while pieces keep coming')
  const next = reader.read()
  await stall
  t.equal(stalled, 1, 'onStall once the read waited past 100 ms')
  void next.catch(() => undefined)
  await reader.cancel()
})

t.test('a download that keeps moving is never cut, however long it takes', async t => {
  let stalled = 0
  t.same(await readAll(watchBody(source(8, 40, false), 100, () => { stalled++ })), [1, 2, 3, 4, 5, 6, 7, 8])
  t.equal(stalled, 0, '8 pieces 40 ms apart (320 ms) under a 100 ms limit')
})

t.test('a reader that starts late is not taken for a stalled hub', async t => {
  let stalled = 0
  const body = watchBody(source(2, 1, false), 50, () => { stalled++ })
  await sleep(150)
  t.same(await readAll(body), [1, 2])
  t.equal(stalled, 0)
})

// The events transformers.js 4 sends for a two-file model (config.json 1 kB, model.onnx
// 3 kB), in its order: per file `initiate`, `download`, `progress`, `done`, with the
// aggregate `progress_total` before each per-file `progress`; `ready` at the end.
const EVENTS: HubProgressInfo[] = [
  { status: 'initiate', file: 'config.json' },
  { status: 'download', file: 'config.json' },
  { status: 'progress_total', progress: 25, loaded: 1000, total: 4000 },
  { status: 'progress', file: 'config.json', progress: 100, loaded: 1000, total: 1000 },
  { status: 'done', file: 'config.json' },
  { status: 'initiate', file: 'onnx/model.onnx' },
  { status: 'progress_total', progress: 50, loaded: 2000, total: 4000 },
  { status: 'progress', file: 'onnx/model.onnx', progress: 33.3, loaded: 1000, total: 3000 },
  { status: 'progress_total', progress: 100, loaded: 4000, total: 4000 },
  { status: 'progress', file: 'onnx/model.onnx', progress: 100, loaded: 3000, total: 3000 },
  { status: 'done', file: 'onnx/model.onnx' },
  { status: 'ready' },
]

t.test('only progress_total and ready move the percent; per-file progress does not', async t => {
  t.same(EVENTS.map(hubProgress), [
    undefined, undefined, { percent: 25 }, undefined, undefined,
    undefined, { percent: 50 }, undefined, { percent: 100 }, undefined, undefined, { percent: 100 },
  ])
})

t.test('odd values are bounded or ignored', async t => {
  t.same(hubProgress({ status: 'progress_total', progress: 100.0000001 }), { percent: 100 })
  t.same(hubProgress({ status: 'progress_total', progress: -1 }), { percent: 0 })
  t.equal(hubProgress({ status: 'progress_total', progress: Number.NaN }), undefined)
  t.equal(hubProgress({ status: 'progress_total' }), undefined)
})

t.test('the mapped events drive the load status: rising percent while loading, never back', async t => {
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as LogSink
  let step!: () => void
  const seen: Array<number | undefined> = []
  const m = new LazyModel({
    model: 'm',
    what: 'test model',
    log: quiet,
    load: async (on) => {
      // A late file joins the total: progress_total drops from 50 to 40, the bar does not.
      const events = [...EVENTS.slice(0, 7), { status: 'progress_total', progress: 40 }, ...EVENTS.slice(7, 11)]
      for (const e of events) {
        const p = hubProgress(e)
        if (p !== undefined) on(p)
        await new Promise<void>(resolve => { step = resolve })
      }
      return 'model'
    },
  })
  const loaded = m.get()
  for (let i = 0; i < 12; i++) {
    await new Promise(resolve => setImmediate(resolve))
    seen.push(m.status().progress)
    step()
  }
  t.equal(await loaded, 'model')
  t.same(seen, [0, 0, 25, 25, 25, 25, 50, 50, 50, 100, 100, 100])
})

t.test('a relative model folder becomes absolute (transformers.js reads a relative one as a hub id)', async t => {
  const root = mkdtempSync(path.join(tmpdir(), 'agentd-local-model-'))
  t.teardown(() => { rmSync(root, { recursive: true, force: true }) })
  mkdirSync(path.join(root, 'models', 'nllb'), { recursive: true })
  writeFileSync(path.join(root, 'models', 'nllb', 'config.json'), '{}')
  const cwd = process.cwd()
  process.chdir(root)
  t.teardown(() => { process.chdir(cwd) })
  t.equal(localModelPath('models/nllb', 'Xenova/nllb-200-distilled-600M'), path.join(root, 'models', 'nllb'))
})
