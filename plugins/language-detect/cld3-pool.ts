// cld3 in worker threads: detection leaves the request thread free for HTTP work, so on a
// machine with spare cores the endpoint keeps up with (or beats) one thread calling the
// library directly. Each request goes to the worker with the fewest in flight.
import { Worker } from 'node:worker_threads'
import type { DetectionBackend, RawGuess } from './backend.ts'
import { MAX_BYTES, MIN_BYTES } from './cld3-backend.ts'

interface Reply { id?: number, ready?: boolean, guess?: RawGuess, error?: string }
interface Slot { worker: Worker, inflight: number }

const WORKER_URL = new URL('./cld3-worker.mjs', import.meta.url)

async function startWorker (): Promise<Worker> {
  const worker = new Worker(WORKER_URL, { workerData: { minBytes: MIN_BYTES, maxBytes: MAX_BYTES } })
  await new Promise<void>((resolve, reject) => {
    const onMessage = (m: Reply): void => { if (m.ready === true) { cleanup(); resolve() } }
    const onError = (err: Error): void => { cleanup(); reject(err) }
    const onExit = (code: number): void => { cleanup(); reject(new Error(`cld3 worker exited with code ${code} while starting`)) }
    const cleanup = (): void => { worker.off('message', onMessage); worker.off('error', onError); worker.off('exit', onExit) }
    worker.on('message', onMessage).once('error', onError).once('exit', onExit)
  })
  return worker
}

export async function loadCld3Pool (size: number): Promise<DetectionBackend> {
  const started = await Promise.allSettled(Array.from({ length: size }, startWorker))
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed !== undefined) {
    await Promise.all(started.map(async r => { if (r.status === 'fulfilled') await r.value.terminate() }))
    throw failed.reason
  }
  const slots: Slot[] = started.map(r => ({ worker: (r as PromiseFulfilledResult<Worker>).value, inflight: 0 }))
  const pending = new Map<number, { resolve: (g: RawGuess) => void, reject: (e: Error) => void, slot: Slot }>()
  let seq = 0
  let closed = false
  for (const slot of slots) {
    slot.worker.on('message', (m: Reply) => {
      if (m.id === undefined) return
      const p = pending.get(m.id)
      if (p === undefined) return
      pending.delete(m.id)
      p.slot.inflight--
      if (m.guess !== undefined) p.resolve(m.guess)
      else p.reject(new Error(m.error ?? 'cld3 worker answered nothing'))
    })
    // A worker that dies fails what it had in flight instead of leaving it hanging.
    slot.worker.once('exit', (code) => {
      for (const [id, p] of pending) {
        if (p.slot !== slot) continue
        pending.delete(id)
        p.reject(new Error(closed ? 'the detector was unloaded' : `a cld3 worker exited (code ${code})`))
      }
      slot.inflight = Number.POSITIVE_INFINITY
    })
  }
  return {
    guess: async (text) => {
      const slot = slots.reduce((a, b) => b.inflight < a.inflight ? b : a)
      if (!Number.isFinite(slot.inflight)) throw new Error('every cld3 worker has exited; reload the plugin')
      const id = ++seq
      slot.inflight++
      return await new Promise<RawGuess>((resolve, reject) => {
        pending.set(id, { resolve, reject, slot })
        slot.worker.postMessage({ id, text })
      })
    },
    dispose: async () => {
      closed = true
      await Promise.all(slots.map(async s => await s.worker.terminate()))
    },
  }
}
