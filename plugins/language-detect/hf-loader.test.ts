// The hub fetch's body watchdog: a download that stalls is cut, one that keeps moving or
// a reader that starts late is not.
import t from 'tap'
import { watchBody } from './hf-loader.ts'

const sleep = async (ms: number): Promise<void> => { await new Promise(resolve => setTimeout(resolve, ms)) }

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
  const reader = watchBody(source(2, 5, true), 100, () => { stalled++ }).getReader()
  t.same((await reader.read()).value, new Uint8Array([1]))
  t.same((await reader.read()).value, new Uint8Array([2]))
  const next = reader.read()
  await sleep(250)
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
