// One attempt's abort controller: aborted by the caller's signal, or by the timeout.
// For a stream the timeout is an idle timeout: every chunk calls `touch()`, so a slow but
// steady stream is never cut, and a stream that stalls is cut `timeoutMs` after its last
// chunk. Knowing *why* it aborted is what turns the SDK's abort error into a 504 or 499.
export class Deadline {
  readonly controller = new AbortController()
  readonly timeoutMs: number
  readonly #parent: AbortSignal | undefined
  readonly #onParentAbort = (): void => { this.controller.abort(this.#parent?.reason) }
  #timer: NodeJS.Timeout | undefined
  #timedOut = false
  #last = 0
  #paused = false

  constructor (timeoutMs: number, parent?: AbortSignal) {
    this.timeoutMs = timeoutMs
    this.#parent = parent
    if (parent?.aborted === true) this.controller.abort(parent.reason)
    else parent?.addEventListener('abort', this.#onParentAbort, { once: true })
    this.#last = performance.now()
    this.#timer = setTimeout(this.#check, timeoutMs)
  }

  // Fires at most once per timeout period; a stream that is moving only gets rescheduled,
  // so `touch()` per chunk is a clock read, not timer work.
  readonly #check = (): void => {
    const idle = this.#paused ? 0 : performance.now() - this.#last
    if (idle < this.timeoutMs) { this.#timer = setTimeout(this.#check, this.timeoutMs - idle); return }
    this.#timedOut = true
    this.controller.abort(new Error(`no answer within ${this.timeoutMs} ms`))
  }

  get signal (): AbortSignal { return this.controller.signal }
  /** True when the timeout fired (rather than the caller aborting). */
  get timedOut (): boolean { return this.#timedOut }
  get callerAborted (): boolean { return this.#parent?.aborted === true }

  /** Restart the idle clock: a chunk arrived. */
  touch (): void { this.#last = performance.now() }

  /** Stop the idle clock while the consumer holds a chunk: its slowness is not the upstream's silence. */
  pause (): void { this.#paused = true }

  /** The consumer asked for more: the upstream's clock starts again from now. */
  resume (): void { this.#paused = false; this.#last = performance.now() }

  /** Stop the clock and unlink from the caller's signal. Idempotent. */
  dispose (): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
    this.#parent?.removeEventListener('abort', this.#onParentAbort)
  }
}
