// One attempt's abort controller: aborted by the caller's signal, or by the timeout.
// For a stream the timeout is an idle timeout: every chunk calls `touch()`, so a slow but
// steady stream is never cut, and a stream that stalls is cut `timeoutMs` after its last
// chunk (up to an eighth of it later: see #check). Knowing *why* it aborted is what turns
// the SDK's abort error into a 504 or 499.
export class Deadline {
  readonly controller = new AbortController()
  readonly timeoutMs: number
  readonly #parent: AbortSignal | undefined
  readonly #onParentAbort = (): void => { this.controller.abort(this.#parent?.reason) }
  readonly #step: number
  #timer: NodeJS.Timeout | undefined
  #timedOut = false
  /** When the clock last saw the stream move (or the attempt start). */
  #last = 0
  /** Chunks and resumes so far, and how many the clock had seen at #last. */
  #moves = 0
  #seen = 0
  #paused = false

  constructor (timeoutMs: number, parent?: AbortSignal) {
    this.timeoutMs = timeoutMs
    this.#step = Math.max(1, Math.ceil(timeoutMs / 8))
    this.#parent = parent
    if (parent?.aborted === true) this.controller.abort(parent.reason)
    else parent?.addEventListener('abort', this.#onParentAbort, { once: true })
    this.#last = performance.now()
    this.#timer = setTimeout(this.#check, this.#step)
  }

  // A chunk only counts (`touch()`, `resume()`: a field increment, no clock read: reading
  // the clock per token was ~1.3% of a long stream's CPU, bench/providers.bench.ts). The
  // clock looks every eighth of the timeout: a stream that moved since it last looked is
  // alive as of now, so a stall is cut between `timeoutMs` and 9/8 of it after its last chunk.
  readonly #check = (): void => {
    const now = performance.now()
    if (this.#paused || this.#moves !== this.#seen) { this.#seen = this.#moves; this.#last = now }
    const idle = now - this.#last
    if (idle < this.timeoutMs) { this.#timer = setTimeout(this.#check, Math.min(this.#step, this.timeoutMs - idle)); return }
    this.#timedOut = true
    this.controller.abort(new Error(`no answer within ${this.timeoutMs} ms`))
  }

  get signal (): AbortSignal { return this.controller.signal }
  /** True when the timeout fired (rather than the caller aborting). */
  get timedOut (): boolean { return this.#timedOut }
  get callerAborted (): boolean { return this.#parent?.aborted === true }

  /** Restart the idle clock: a chunk arrived. */
  touch (): void { this.#moves++ }

  /** Stop the idle clock while the consumer holds a chunk: its slowness is not the upstream's silence. */
  pause (): void { this.#paused = true }

  /** The consumer asked for more: the upstream's clock starts again from now. */
  resume (): void { this.#paused = false; this.#moves++ }

  /** Stop the clock and unlink from the caller's signal. Idempotent. */
  dispose (): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
    this.#parent?.removeEventListener('abort', this.#onParentAbort)
  }
}
