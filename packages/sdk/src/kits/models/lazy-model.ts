// A model that loads on first use. Concurrent first callers share one load; progress is
// logged and reported by status(); a failed load is remembered as `error` (with the
// reason) and the next caller tries again. Held in the resource pool, so one instance
// (and the loaded model in it) survives live reloads with unchanged options.
import type { FastifyBaseLogger } from 'fastify'
import type { ModelStatus } from '../../contracts/language.ts'

export interface LoadProgress {
  /** 0-100 over everything the load fetches and reads. */
  percent: number
  /** File being fetched or read, when known. */
  file?: string
}

export type ModelLoader<T> = (onProgress: (p: LoadProgress) => void) => Promise<T>

export type LogSink = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>

export interface LazyModelOptions<T> {
  /** What is loaded, for logs and status (model id or folder). */
  model: string
  /** Shown in logs: "translation model", "language detection model". */
  what: string
  load: ModelLoader<T>
  log: LogSink
  dispose?: (value: T) => Promise<void> | void
  /** Turns a load failure into the sentence users see: what failed and how to fix it. */
  explain?: (err: unknown) => string
}

export class ModelUnavailableError extends Error {
  readonly model: string
  constructor (model: string, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'ModelUnavailableError'
    this.model = model
  }
}

export class LazyModel<T> {
  readonly model: string
  readonly #opts: LazyModelOptions<T>
  #value: T | undefined
  #loading: Promise<T> | undefined
  #progress = 0
  #loggedStep = -1
  #error: string | undefined
  #disposed = false
  /** How many loads were started (for tests and health). */
  loads = 0

  constructor (opts: LazyModelOptions<T>) {
    this.model = opts.model
    this.#opts = opts
  }

  get loaded (): boolean { return this.#value !== undefined }

  /** The loaded model, or undefined while none is (never starts a load). */
  get current (): T | undefined { return this.#value }

  status (): ModelStatus {
    if (this.#value !== undefined) return { status: 'healthy', model: this.model }
    if (this.#loading !== undefined) return { status: 'loading', model: this.model, progress: Math.round(this.#progress * 10) / 10 }
    if (this.#error !== undefined) return { status: 'error', model: this.model, error: this.#error }
    return { status: 'not_loaded', model: this.model }
  }

  /** The loaded model; starts the load if none is running. Rejects with ModelUnavailableError. */
  async get (): Promise<T> {
    if (this.#value !== undefined) return this.#value
    if (this.#disposed) throw new ModelUnavailableError(this.model, `The ${this.#opts.what} ${this.model} was unloaded; retry the request.`)
    if (this.#loading === undefined) {
      const loading = this.#start()
      this.#loading = loading
      // Cleared here, not in #start: a loader that throws synchronously settles #start
      // before it returns, and a `finally` inside it would clear #loading before this
      // assignment stored the (already rejected) promise: stuck in `loading` for good.
      // This reaction is registered first, so callers see the cleared state.
      const clear = (): void => { if (this.#loading === loading) this.#loading = undefined }
      void loading.then(clear, clear)
    }
    return await this.#loading
  }

  /** Resolves when the running load (if any) settles; never rejects. */
  async settled (): Promise<void> { await this.#loading?.catch(() => undefined) }

  async #start (): Promise<T> {
    const { log, what } = this.#opts
    this.loads++
    this.#progress = 0
    this.#loggedStep = -1
    const started = performance.now()
    log.info({ model: this.model }, `loading ${what} ${this.model}`)
    try {
      const value = await this.#opts.load(p => { this.#onProgress(p) })
      if (this.#disposed) { await this.#opts.dispose?.(value); throw new Error('unloaded while loading') }
      this.#value = value
      this.#error = undefined
      log.info({ model: this.model, ms: Math.round(performance.now() - started) }, `${what} ${this.model} loaded`)
      return value
    } catch (err) {
      const message = this.#opts.explain?.(err) ?? `The ${what} ${this.model} could not be loaded: ${(err as Error).message}`
      this.#error = message
      log.error({ model: this.model, err: (err as Error).message }, message)
      throw new ModelUnavailableError(this.model, message, err)
    }
  }

  #onProgress (p: LoadProgress): void {
    if (!Number.isFinite(p.percent)) return
    this.#progress = Math.max(this.#progress, Math.min(100, p.percent))
    const step = Math.floor(this.#progress / 10)
    if (step > this.#loggedStep) {
      this.#loggedStep = step
      this.#opts.log.info({ model: this.model, progress: Math.round(this.#progress), file: p.file }, `loading ${this.#opts.what} ${this.model}: ${Math.round(this.#progress)}%`)
    }
  }

  async dispose (): Promise<void> {
    this.#disposed = true
    const v = this.#value
    this.#value = undefined
    if (v !== undefined) await this.#opts.dispose?.(v)
  }
}
