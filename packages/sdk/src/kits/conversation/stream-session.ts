// What every streamed answer of a conversation shares, whatever its wire format (agentd's
// SSE events, OpenAI's chunks, a later protocol's): a client that goes away aborts the
// model and tool calls; writes wait for 'drain' but never past that abort; a comment line
// keeps proxies from closing a stream that waits on a slow model; memory is stored once the
// stream has closed, off the request path; a failure after the first byte is reported in
// the stream (by the caller's format) unless the client left.
import type { ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { toErrorBody } from '../../kernel/error-body.ts'
import type { ErrorBody } from '../../kernel/errors.ts'
import { logFailure } from '../../kernel/failure-log.ts'

export class StreamSession {
  readonly #res: ServerResponse
  readonly #abort = new AbortController()
  /** Settles when the client has gone away: a write waiting for 'drain' on a closed socket never would. */
  readonly aborted: Promise<void>
  readonly #onClose = (): void => { if (!this.#res.writableFinished) this.#abort.abort(new Error('the client closed the stream')) }
  readonly #cork: boolean
  #corked = false
  #heartbeat: NodeJS.Timeout | undefined

  /** `cork`: a burst of writes in one tick leaves in one syscall (tokens arrive in bursts). */
  constructor (res: ServerResponse, opts: { cork?: boolean } = {}) {
    this.#res = res
    this.#cork = opts.cork === true
    res.once('close', this.#onClose)
    this.aborted = new Promise<void>(resolve => { this.#abort.signal.addEventListener('abort', () => { resolve() }, { once: true }) })
  }

  get signal (): AbortSignal { return this.#abort.signal }

  readonly #uncork = (): void => { this.#corked = false; this.#res.uncork() }

  /**
   * Writes a pre-formatted piece: the per-token path, so a promise only when the socket asks
   * the loop to wait for 'drain' (which the abort also ends).
   */
  write (text: string): Promise<void> | undefined {
    const res = this.#res
    if (this.#abort.signal.aborted || res.writableEnded) return undefined
    if (this.#cork && !this.#corked) { this.#corked = true; res.cork(); process.nextTick(this.#uncork) }
    if (res.write(text)) return undefined
    return Promise.race([new Promise<void>(resolve => { res.once('drain', resolve) }), this.aborted])
  }

  /** A comment line every `ms` (unref'd) while the stream is open. */
  heartbeat (ms: number): void {
    this.#heartbeat = setInterval(() => { if (!this.#res.writableEnded) this.#res.write(': ping\n\n') }, ms)
    this.#heartbeat.unref()
  }

  /** Runs `fn` once the stream has closed (at once if it has). */
  afterClose (fn: () => void): void {
    const res = this.#res
    if (res.destroyed || res.writableFinished) fn()
    else res.once('close', fn)
  }

  /** A failure after the stream began: nothing when the client left, else logged (5xx) and reported through `report`. */
  async fail (err: unknown, log: FastifyBaseLogger, ids: Record<string, unknown>, report: (body: ErrorBody) => Promise<void> | void): Promise<void> {
    if (this.#abort.signal.aborted) {
      log.debug(ids, 'stream cancelled by the client')
      return
    }
    const body = toErrorBody(err)
    logFailure(log, err, body, 'stream failed', ids)
    await report(body)
  }

  /** Stops the heartbeat and the close listener (the stream's handler has finished). */
  end (): void {
    clearInterval(this.#heartbeat)
    this.#res.off('close', this.#onClose)
  }
}
