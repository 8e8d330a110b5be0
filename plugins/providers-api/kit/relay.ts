// Relays an SDK stream through a provider's chunk assembler, with the deadline semantics
// every provider shares: silence is timed between upstream events (not while our
// consumer holds a chunk), an aborted SDK stream says why, and a consumer that stops
// early closes the upstream request.
//
// A hand-written async iterator rather than an async generator: it is the only layer
// between the SDK's stream and the consumer, and on the per-token path a generator's
// resumption machinery (a request queue and an extra promise per yield, twice when one
// generator delegates to another) costs more than the relaying itself
// (bench/providers.bench.ts compares against the raw SDK stream).
import type { StreamChunk } from '@agentd/sdk/contracts/provider'
import type { Deadline } from './deadline.ts'
import { classify, classifyMidStream, type UpstreamContext } from './upstream-error.ts'

/** Errors already classified by the kit carry an AGENT_ERR_PROVIDER_ code. */
export const isProviderError = (err: unknown): boolean => String((err as { code?: unknown } | undefined)?.code ?? '').startsWith('AGENT_ERR_PROVIDER_')

export interface StreamAssembler<E> {
  /** One upstream event in; a chunk out when there is something to say. */
  push: (event: E) => StreamChunk | undefined
  /** The closing chunk (finish reason, assembled tool calls, usage). */
  finish: () => StreamChunk
}

/** The upstream stream and its deadline, once the request has been answered (retries done). */
export interface Connected<E> { upstream: AsyncIterable<E>, deadline: Deadline }

/**
 * The provider's stream: `connect` runs on the first `next()` (like a generator's body,
 * nothing happens before the consumer starts reading); its errors pass through as they are
 * (the retry wrapper has classified them).
 */
export function relayStream<E> (connect: () => Promise<Connected<E>>, assembler: StreamAssembler<E>, ctx: UpstreamContext): AsyncIterableIterator<StreamChunk> {
  return new Relay(connect, assembler, ctx)
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined })

class Relay<E> implements AsyncIterableIterator<StreamChunk> {
  readonly #connect: () => Promise<Connected<E>>
  readonly #assembler: StreamAssembler<E>
  readonly #ctx: UpstreamContext
  #it: AsyncIterator<E> | undefined
  #deadline: Deadline | undefined
  /** No more chunks: finished, failed, or stopped by the consumer. */
  #over = false

  constructor (connect: () => Promise<Connected<E>>, assembler: StreamAssembler<E>, ctx: UpstreamContext) {
    this.#connect = connect
    this.#assembler = assembler
    this.#ctx = ctx
  }

  [Symbol.asyncIterator] (): this { return this }

  async next (): Promise<IteratorResult<StreamChunk>> {
    if (this.#over) return DONE
    let d = this.#deadline
    if (d === undefined) {
      let c: Connected<E>
      try {
        c = await this.#connect()
      } catch (err) {
        this.#over = true
        throw err
      }
      this.#deadline = d = c.deadline
      this.#it = c.upstream[Symbol.asyncIterator]()
    } else {
      // The consumer asked for more: the upstream's silence is timed again from now.
      d.resume()
    }
    const it = this.#it as AsyncIterator<E>
    try {
      for (;;) {
        const r = await it.next()
        if (r.done === true) {
          // The SDK ends a stream quietly when it is aborted; say why.
          if (d.signal.aborted) throw classify(d.signal.reason, this.#ctx, d).error
          this.#over = true
          d.dispose()
          return { done: false, value: this.#assembler.finish() }
        }
        d.touch()
        const out = this.#assembler.push(r.value)
        if (out !== undefined) {
          // Time the consumer spends before asking for more is not the upstream's silence.
          d.pause()
          return { done: false, value: out }
        }
      }
    } catch (err) {
      this.#stop(d)
      if (isProviderError(err)) throw err
      throw classifyMidStream(err, this.#ctx, d)
    }
  }

  /** The consumer stopped early (break, or a failure on its side): close the upstream request. */
  async return (): Promise<IteratorResult<StreamChunk>> {
    if (!this.#over && this.#deadline !== undefined) {
      this.#stop(this.#deadline)
      // The abort above already closed the request; the SDK's own cleanup may still throw about it.
      try { await this.#it?.return?.() } catch {}
    }
    this.#over = true
    return DONE
  }

  #stop (d: Deadline): void {
    this.#over = true
    d.dispose()
    if (!d.signal.aborted) d.controller.abort()
  }
}
