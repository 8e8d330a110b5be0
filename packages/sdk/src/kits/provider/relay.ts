// Relays an upstream stream (an SDK's, or any async iterable of events) through a
// provider's assembler, with the deadline semantics
// every provider shares: silence is timed between upstream events (not while our
// consumer holds a chunk), an aborted SDK stream says why, and a consumer that stops
// early closes the upstream request.
//
// A hand-written async iterator rather than an async generator: it is the only layer
// between the SDK's stream and the consumer, and on the per-token path a generator's
// resumption machinery (a request queue and an extra promise per yield, twice when one
// generator delegates to another) costs more than the relaying itself
// (bench/providers.bench.ts compares against the raw SDK stream). For the same reason
// `next()` is not an async function: a suspended async function keeps its whole frame in
// a heap object, ~500 bytes per call for a method this size, which on a 2,000-token
// stream was 15% more garbage than the SDK's own stream makes, and the scavenges it
// caused were most of the cost of the layer. A `then` on the upstream's promise, with
// callbacks bound once per stream, allocates one promise per part.
import type { StreamPart } from '../../contracts/provider.ts'
import type { Deadline } from './deadline.ts'
import { classify, classifyMidStream, isProviderError, type UpstreamContext } from './upstream-error.ts'

export interface StreamAssembler<E> {
  /** One upstream event in; a part out when there is something to say (several, rarely: text and reasoning in one event). */
  push: (event: E) => StreamPart | readonly StreamPart[] | undefined
  /** The closing parts, after the upstream ended: whole tool calls, reasoning signature, then `finish`. */
  finish: () => readonly StreamPart[]
}

/** The upstream stream and its deadline, once the request has been answered (the SDK's retries done). */
export interface Connected<E> { upstream: AsyncIterable<E>, deadline: Deadline }

/**
 * The provider's stream: `connect` runs on the first `next()` (like a generator's body,
 * nothing happens before the consumer starts reading); its errors pass through as they are
 * (`attempt` has classified them).
 */
export function relayStream<E> (connect: () => Promise<Connected<E>>, assembler: StreamAssembler<E>, ctx: UpstreamContext): AsyncIterableIterator<StreamPart> {
  return new Relay(connect, assembler, ctx)
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined })
const EMPTY: readonly StreamPart[] = Object.freeze([])
const isPart = (p: StreamPart | readonly StreamPart[]): p is StreamPart => !Array.isArray(p)

class Relay<E> implements AsyncIterableIterator<StreamPart> {
  readonly #connect: () => Promise<Connected<E>>
  readonly #assembler: StreamAssembler<E>
  readonly #ctx: UpstreamContext
  #it: AsyncIterator<E> | undefined
  #deadline: Deadline | undefined
  /** No more parts from upstream: finished, failed, or stopped by the consumer. */
  #over = false
  /** Parts still to hand on from one push (or from finish). */
  #queue: readonly StreamPart[] = EMPTY
  #queued = 0

  constructor (connect: () => Promise<Connected<E>>, assembler: StreamAssembler<E>, ctx: UpstreamContext) {
    this.#connect = connect
    this.#assembler = assembler
    this.#ctx = ctx
  }

  [Symbol.asyncIterator] (): this { return this }

  next (): Promise<IteratorResult<StreamPart>> {
    if (this.#queued < this.#queue.length) return Promise.resolve({ done: false, value: this.#queue[this.#queued++] })
    if (this.#over) return Promise.resolve(DONE)
    const d = this.#deadline
    if (d === undefined) return this.#first()
    // The consumer asked for more: the upstream's silence is timed again from now.
    d.resume()
    return this.#pull(d)
  }

  /** The first read: connect (its errors pass through as they are), then read on. */
  async #first (): Promise<IteratorResult<StreamPart>> {
    let c: Connected<E>
    try {
      c = await this.#connect()
    } catch (err) {
      this.#over = true
      throw err
    }
    this.#deadline = c.deadline
    this.#it = c.upstream[Symbol.asyncIterator]()
    return await this.#pull(c.deadline)
  }

  /** The next upstream event, through the assembler. */
  #pull (d: Deadline): Promise<IteratorResult<StreamPart>> {
    try {
      return (this.#it as AsyncIterator<E>).next().then(this.#onEvent, this.#onError)
    } catch (err) {
      return Promise.reject(this.#failure(err, d))
    }
  }

  readonly #onEvent = (r: IteratorResult<E>): IteratorResult<StreamPart> | Promise<IteratorResult<StreamPart>> => {
    const d = this.#deadline as Deadline
    try {
      if (r.done === true) {
        // The SDK ends a stream quietly when it is aborted; say why.
        if (d.signal.aborted) throw classify(d.signal.reason, this.#ctx, d)
        this.#over = true
        d.dispose()
        return this.#hand(this.#assembler.finish())
      }
      const out = this.#assembler.push(r.value)
      if (out === undefined || (!isPart(out) && out.length === 0)) {
        // An event with nothing to say: the upstream is alive, read on.
        d.touch()
        return this.#pull(d)
      }
      // Time the consumer spends before asking for more is not the upstream's silence
      // (paused, the clock needs no touch: `resume` restarts it).
      d.pause()
      return isPart(out) ? { done: false, value: out } : this.#hand(out)
    } catch (err) {
      throw this.#failure(err, d)
    }
  }

  readonly #onError = (err: unknown): never => { throw this.#failure(err, this.#deadline as Deadline) }

  /** A failure ends the stream and closes the request; what the consumer is given. */
  #failure (err: unknown, d: Deadline): unknown {
    this.#stop(d)
    return isProviderError(err) ? err : classifyMidStream(err, this.#ctx, d)
  }

  #hand (parts: readonly StreamPart[]): IteratorResult<StreamPart> {
    if (parts.length === 0) return DONE
    this.#queue = parts
    this.#queued = 1
    return { done: false, value: parts[0] }
  }

  /** The consumer stopped early (break, or a failure on its side): close the upstream request. */
  async return (): Promise<IteratorResult<StreamPart>> {
    if (!this.#over && this.#deadline !== undefined) {
      this.#stop(this.#deadline)
      // The abort above already closed the request; the SDK's own cleanup may still throw about it.
      try { await this.#it?.return?.() } catch {}
    }
    this.#over = true
    this.#queue = EMPTY
    return DONE
  }

  #stop (d: Deadline): void {
    this.#over = true
    d.dispose()
    if (!d.signal.aborted) d.controller.abort()
  }
}
