// Relays an SDK stream through a provider's chunk assembler, with the deadline semantics
// every provider shares: silence is timed between upstream events (not while our
// consumer holds a chunk), an aborted SDK stream says why, and a consumer that stops
// early closes the upstream request.
import type { StreamChunk } from '../../../core/contracts/provider.ts'
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

export async function * relayStream<E> (
  upstream: AsyncIterable<E>,
  assembler: StreamAssembler<E>,
  deadline: Deadline,
  ctx: UpstreamContext,
): AsyncGenerator<StreamChunk> {
  let finished = false
  try {
    for await (const event of upstream) {
      deadline.touch()
      const out = assembler.push(event)
      if (out !== undefined) {
        // Time the consumer spends before asking for more is not the upstream's silence.
        deadline.pause()
        yield out
        deadline.resume()
      }
    }
    // The SDK ends a stream quietly when it is aborted; say why.
    if (deadline.signal.aborted) throw classify(deadline.signal.reason, ctx, deadline).error
    finished = true
  } catch (err) {
    if (isProviderError(err)) throw err
    throw classifyMidStream(err, ctx, deadline)
  } finally {
    deadline.dispose()
    // The consumer stopped early (or it failed): close the upstream request.
    if (!finished && !deadline.signal.aborted) deadline.controller.abort()
  }
  yield assembler.finish()
}
