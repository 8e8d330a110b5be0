// cld3 in worker threads, the default (plugin option `workers`). A detection is ~150 us of
// CPU; in the request thread a burst of them holds up every other request and chat
// stream served by the same event loop. In workers the loop only parses HTTP and passes
// messages, and with spare cores throughput scales past one thread.
//
// One queue for the whole pool. A worker takes work while it has fewer than PIPELINE
// messages in flight: an idle pool sends a request at once (one message each way), a
// busy one sends whatever queued meanwhile as one batch (fewer messages, fewer wake-ups
// of the loop). A worker that dies is replaced. What it had in flight is retried once,
// alone on a worker with nothing else in flight, so a text that crashes cld3 takes down
// only itself; a second crash answers 503 (ModelUnavailableError).
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { DetectionBackend, RawGuess } from './backend.ts'
import { MAX_BYTES, MIN_BYTES } from './cld3-backend.ts'
import { ModelUnavailableError, type LogSink } from '@agentd/sdk/kits/models'

/** The second message waits in the worker's port while it works on the first, so the worker does not idle while the loop is busy elsewhere. */
const PIPELINE = 2
/** At most this many texts in one message. */
const MAX_BATCH = 64
/** Waits before starting a replacement again after a failed start (the last one repeats). */
const RESTART_BACKOFF_MS = [100, 1000, 5000, 30_000]

export const WORKER_URL = new URL('./cld3-worker.mjs', import.meta.url)

/** `workers: "auto"`: one core left to the event loop, at least one worker, at most four (cld3 is fast; more rarely pays). */
export function poolSize (option: 'auto' | number, cores = availableParallelism()): number {
  return option === 'auto' ? Math.max(1, Math.min(4, cores - 1)) : option
}

/** What the worker answers per text (cld3-worker.mjs). */
type Result = { id: number, guess: RawGuess } | { id: number, error: string }

interface Job {
  id: number
  text: string
  /** Already lost once with a crashed worker: the next loss is final. */
  retried: boolean
  resolve: (g: RawGuess) => void
  reject: (e: Error) => void
}

interface Slot {
  worker: Worker | undefined
  /** Messages sent and not answered yet. */
  messages: number
  /** A retry is in flight: nothing else goes to this worker until it answers. */
  exclusive: boolean
  jobs: Map<number, Job>
  /** A replacement is starting. */
  starting: Promise<void> | undefined
  /** A replacement is scheduled after a failed start. */
  timer: NodeJS.Timeout | undefined
}

export interface Cld3Pool extends DetectionBackend {
  guess: (text: string) => Promise<RawGuess>
  /** Thread ids of the running workers. */
  threads: () => number[]
  /** Workers replaced after a crash or exit so far. */
  restarts: () => number
}

export interface Cld3PoolOptions {
  log?: LogSink
  /** The worker script; tests pass one that crashes on request. */
  workerUrl?: URL
}

async function startWorker (url: URL): Promise<Worker> {
  // The worker is plain JavaScript and imports only cld3-asm: it needs none of the parent's
  // preloads (a TypeScript loader under the tests and `npm run dev`, ~1 s of CPU a worker).
  const worker = new Worker(url, { workerData: { minBytes: MIN_BYTES, maxBytes: MAX_BYTES }, execArgv: [] })
  await new Promise<void>((resolve, reject) => {
    const onMessage = (m: unknown): void => { if ((m as { ready?: boolean }).ready === true) { cleanup(); resolve() } }
    const onError = (err: Error): void => { cleanup(); reject(err) }
    const onExit = (code: number): void => { cleanup(); reject(new Error(`cld3 worker exited with code ${code} while starting`)) }
    const cleanup = (): void => { worker.off('message', onMessage); worker.off('error', onError); worker.off('exit', onExit) }
    worker.on('message', onMessage).on('error', onError).on('exit', onExit)
  })
  return worker
}

const unloaded = (): ModelUnavailableError => new ModelUnavailableError('cld3', 'The language detector was unloaded (the server is closing or reloading); retry the request.')

export async function loadCld3Pool (size: number, opts: Cld3PoolOptions = {}): Promise<Cld3Pool> {
  if (size < 1) throw new Error(`a cld3 worker pool needs at least one worker, not ${size}`)
  const url = opts.workerUrl ?? WORKER_URL
  const started = await Promise.allSettled(Array.from({ length: size }, async () => await startWorker(url)))
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed !== undefined) {
    await Promise.all(started.map(async r => { if (r.status === 'fulfilled') await r.value.terminate() }))
    throw failed.reason
  }
  const pool = new WorkerPool(url, opts.log, started.map(r => (r as PromiseFulfilledResult<Worker>).value))
  return {
    guess: async (text) => await pool.guess(text),
    threads: () => pool.slots.flatMap(s => s.worker === undefined ? [] : [s.worker.threadId]),
    restarts: () => pool.restarts,
    dispose: async () => { await pool.dispose() },
  }
}

class WorkerPool {
  readonly queue: Job[] = []
  readonly slots: Slot[] = []
  seq = 0
  closed = false
  restarts = 0
  failures = 0
  lastStartError = ''

  constructor (readonly url: URL, readonly log: LogSink | undefined, workers: Worker[]) {
    for (const worker of workers) {
      const slot: Slot = { worker: undefined, messages: 0, exclusive: false, jobs: new Map(), starting: undefined, timer: undefined }
      this.slots.push(slot)
      this.attach(slot, worker)
    }
  }

  available (): boolean { return this.slots.some(s => s.worker !== undefined || s.starting !== undefined) }

  async guess (text: string): Promise<RawGuess> {
    if (this.closed) throw unloaded()
    if (!this.available()) throw this.noWorker()
    return await new Promise<RawGuess>((resolve, reject) => {
      this.queue.push({ id: ++this.seq, text, retried: false, resolve, reject })
      this.pump()
    })
  }

  attach (slot: Slot, worker: Worker): void {
    slot.worker = worker
    worker.on('message', (results: Result[]) => {
      slot.messages--
      slot.exclusive = false
      for (const r of results) {
        const job = slot.jobs.get(r.id)
        if (job === undefined) continue
        slot.jobs.delete(r.id)
        if ('guess' in r) job.resolve(r.guess)
        else job.reject(new Error(`cld3 failed on this text: ${r.error}`))
      }
      this.pump()
    })
    // Without a listener an uncaught exception in the worker would be thrown in this
    // thread and end the server; here it is logged and 'exit' replaces the worker.
    worker.on('error', (err) => { this.log?.error({ err: err.message, threadId: worker.threadId }, 'a cld3 worker thread crashed') })
    worker.once('exit', (code) => { this.onExit(slot, worker, code) })
  }

  onExit (slot: Slot, worker: Worker, code: number): void {
    if (slot.worker !== worker) return
    slot.worker = undefined
    slot.messages = 0
    slot.exclusive = false
    const lost = [...slot.jobs.values()]
    slot.jobs.clear()
    if (this.closed) {
      for (const job of lost) job.reject(unloaded())
      return
    }
    this.restarts++
    this.log?.warn({ code, lost: lost.length }, 'a cld3 worker thread exited; starting a replacement')
    const retry: Job[] = []
    for (const job of lost) {
      if (!job.retried) { job.retried = true; retry.push(job); continue }
      job.reject(new ModelUnavailableError('cld3', `A cld3 worker thread stopped twice while detecting this text (exit code ${code}) and was replaced. ` +
        'Retry the request; if this same text fails every time, detect it with the plugin option workers: 0 to see the error.'))
    }
    this.queue.unshift(...retry)
    this.respawn(slot)
  }

  respawn (slot: Slot): void {
    slot.starting = startWorker(this.url).then(async (worker) => {
      slot.starting = undefined
      if (this.closed) { await worker.terminate(); return }
      this.failures = 0
      this.attach(slot, worker)
      this.pump()
    }, (err: Error) => {
      slot.starting = undefined
      if (this.closed) return
      const wait = RESTART_BACKOFF_MS[Math.min(this.failures, RESTART_BACKOFF_MS.length - 1)]
      this.failures++
      this.lastStartError = err.message
      this.log?.error({ err: err.message, retryInMs: wait }, 'a replacement cld3 worker thread could not start')
      slot.timer = setTimeout(() => { slot.timer = undefined; this.respawn(slot) }, wait)
      if (!this.available()) {
        for (const job of this.queue.splice(0)) job.reject(this.noWorker())
      }
    })
  }

  noWorker (): ModelUnavailableError {
    return new ModelUnavailableError('cld3', `No cld3 worker thread is running: the last start failed (${this.lastStartError}); ` +
      'another start follows within 30 s. Retry the request, or set the plugin option workers: 0 to detect in the request thread.')
  }

  /** The slot and jobs of the next message, or undefined when no worker has room. */
  nextBatch (): { slot: Slot, batch: Job[] } | undefined {
    const head = this.queue[0]
    if (head.retried) {
      // Alone, on a worker with nothing in flight: if it crashes again, nothing else is lost.
      const slot = this.slots.find(s => s.worker !== undefined && s.messages === 0)
      if (slot === undefined) return undefined
      slot.exclusive = true
      return { slot, batch: this.queue.splice(0, 1) }
    }
    let slot: Slot | undefined
    let alive = 0
    for (const s of this.slots) {
      if (s.worker === undefined) continue
      alive++
      if (!s.exclusive && s.messages < PIPELINE && (slot === undefined || s.messages < slot.messages)) slot = s
    }
    if (slot === undefined) return undefined
    // A fair share of the queue, so the other workers get some when they free up.
    let n = Math.min(MAX_BATCH, Math.ceil(this.queue.length / alive))
    for (let i = 1; i < n; i++) if (this.queue[i].retried) { n = i; break }
    return { slot, batch: this.queue.splice(0, n) }
  }

  /** Hands queued jobs to workers with room: at once when idle, in batches when busy. */
  pump (): void {
    while (this.queue.length > 0) {
      const next = this.nextBatch()
      if (next === undefined) return
      const { slot, batch } = next
      const ids = new Array<number>(batch.length)
      const texts = new Array<string>(batch.length)
      for (let i = 0; i < batch.length; i++) {
        slot.jobs.set(batch[i].id, batch[i])
        ids[i] = batch[i].id
        texts[i] = batch[i].text
      }
      slot.messages++
      slot.worker!.postMessage({ ids, texts }) // eslint-disable-line @typescript-eslint/no-non-null-assertion -- nextBatch picks a slot with a worker
    }
  }

  async dispose (): Promise<void> {
    this.closed = true
    for (const s of this.slots) clearTimeout(s.timer)
    for (const job of this.queue.splice(0)) job.reject(unloaded())
    // In-flight jobs are failed by each worker's exit; replacements still starting end
    // themselves when they see `closed`, and are awaited so no thread outlives close.
    await Promise.all(this.slots.map(async s => { await s.worker?.terminate(); await s.starting }))
  }
}
