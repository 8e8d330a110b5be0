// The offline extractor off the request thread. Its work is CPU alone (compromise and
// regular expressions, ~2 ms a sentence): in the server's thread ~50k characters held
// every request and chat stream up for a second or more. Here one worker thread does it,
// started on the first extraction and ended after a while without work, so a server that
// never consolidates offline pays nothing, and the worker's memory (compromise, ~30 MB)
// is given back between runs. An aborted extraction (the job's timeout, a shutdown) ends
// the worker when nothing else is waiting on it, so its CPU stops too; a worker that
// dies fails what it had and the next extraction starts another.
import { Worker, type WorkerOptions } from 'node:worker_threads'
import type { Extraction, ExtractionTurn, Extractor } from './extraction.ts'
import type { WorkRequest } from './offline-worker.ts'

// Compiled (`npm start`) the worker is offline-worker.js beside this file. Under tsx (tests,
// `npm run dev`) it is the TypeScript source, and tsx's hooks do not reach a worker on
// Node 20 (its --import runs there, the .ts still fails to load): a two-line bootstrap
// registers tsx in the worker (tsx's own API) before importing the source.
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './offline-worker.ts' : './offline-worker.js', import.meta.url)

function startWorker (url: URL, options: WorkerOptions): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options)
  const tsx = import.meta.resolve('tsx/esm/api')
  const boot = `import(${JSON.stringify(tsx)}).then(m => { m.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(boot, { ...options, eval: true })
}

/** A worker left without work this long ends. */
const IDLE_MS = 30_000
/** Heap cap of the worker: a crafted text that would exhaust it ends the worker, not the server. */
const MAX_OLD_GENERATION_MB = 512

type Answer = { id: number, extraction: Extraction } | { id: number, error: string }

interface Pending { resolve: (e: Extraction) => void, reject: (e: Error) => void }

export interface OfflineWorkerOptions { idleMs?: number, workerUrl?: URL }

export class OfflineWorkerExtractor implements Extractor {
  readonly name = 'offline' as const
  readonly #idleMs: number
  readonly #url: URL
  #worker: Worker | undefined
  #pending = new Map<number, Pending>()
  #next = 0
  #idle: NodeJS.Timeout | undefined
  #starts = 0

  constructor (o: OfflineWorkerOptions = {}) {
    this.#idleMs = o.idleMs ?? IDLE_MS
    this.#url = o.workerUrl ?? WORKER_URL
  }

  /** Workers started so far (a test's view of the lifecycle). */
  get starts (): number { return this.#starts }
  /** The running worker's thread id, if one runs. */
  get threadId (): number | undefined { return this.#worker?.threadId }

  async extract (turns: ExtractionTurn[], signal?: AbortSignal): Promise<Extraction> {
    signal?.throwIfAborted()
    const worker = this.#ensure()
    const id = ++this.#next
    return await new Promise<Extraction>((resolve, reject) => {
      const onAbort = (): void => {
        this.#pending.delete(id)
        reject(signal?.reason instanceof Error ? signal.reason : new Error('extraction aborted'))
        // Nothing else waits on the worker: end it, so the aborted work stops using a core.
        if (this.#pending.size === 0) this.#stop()
      }
      const done = (): void => { signal?.removeEventListener('abort', onAbort) }
      this.#pending.set(id, {
        resolve: (e) => { done(); resolve(e) },
        reject: (e) => { done(); reject(e) },
      })
      signal?.addEventListener('abort', onAbort, { once: true })
      worker.postMessage({ id, turns } satisfies WorkRequest)
    })
  }

  /** Ends the worker (the plugin's onClose); what waited on it fails. */
  async close (): Promise<void> {
    this.#fail(new Error('the offline extractor was closed'))
    this.#stop()
  }

  #ensure (): Worker {
    if (this.#idle !== undefined) { clearTimeout(this.#idle); this.#idle = undefined }
    if (this.#worker !== undefined) return this.#worker
    const worker = startWorker(this.#url, { resourceLimits: { maxOldGenerationSizeMb: MAX_OLD_GENERATION_MB } })
    this.#starts++
    // Never what keeps the process alive: a pending extraction is its caller's business.
    worker.unref()
    worker.on('message', (a: Answer) => {
      const p = this.#pending.get(a.id)
      if (p === undefined) return // aborted meanwhile
      this.#pending.delete(a.id)
      if ('error' in a) p.reject(new Error(`offline extraction failed: ${a.error}`))
      else p.resolve(a.extraction)
      if (this.#pending.size === 0) this.#armIdle()
    })
    worker.on('error', (err) => { if (this.#worker === worker) { this.#worker = undefined; this.#fail(new Error(`the offline extractor's worker failed: ${err.message}`)) } })
    worker.on('exit', (code) => { if (this.#worker === worker) { this.#worker = undefined; this.#fail(new Error(`the offline extractor's worker stopped (exit code ${code})`)) } })
    this.#worker = worker
    return worker
  }

  #armIdle (): void {
    this.#idle = setTimeout(() => { this.#idle = undefined; if (this.#pending.size === 0) this.#stop() }, this.#idleMs)
    this.#idle.unref()
  }

  #stop (): void {
    if (this.#idle !== undefined) { clearTimeout(this.#idle); this.#idle = undefined }
    const w = this.#worker
    this.#worker = undefined
    if (w !== undefined) void w.terminate()
  }

  #fail (err: Error): void {
    const pending = [...this.#pending.values()]
    this.#pending.clear()
    for (const p of pending) p.reject(err)
  }
}
