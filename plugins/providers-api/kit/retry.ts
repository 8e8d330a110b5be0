// Retries with backoff around one upstream call. Retried: 408/409/429/5xx/529 and
// connection failures (reset, refused). A `Retry-After` (or `retry-after-ms`) from the
// upstream is honoured exactly; without one, exponential backoff with jitter. A wait the
// upstream asks for beyond `maxRetryDelayMs` is not slept: the error goes back at once,
// carrying the wait as Retry-After. Timeouts are never retried, so an upstream that hangs
// costs exactly one timeout. For a stream only the opening is retried: once a chunk has
// been handed on, replaying would duplicate text.
import { Deadline } from './deadline.ts'
import { classify, type ProviderError, type UpstreamContext } from './upstream-error.ts'
import { ProviderErrors, tag } from './errors.ts'

export interface RetryPolicy {
  /** Per attempt: ms to wait for an answer (and, for streams, between chunks). */
  timeoutMs: number
  maxRetries: number
  /** First backoff step; doubles each retry. */
  baseDelayMs: number
  /** Longest wait we are willing to sleep before a retry. */
  maxRetryDelayMs: number
}

export const DEFAULT_RETRY: Readonly<Omit<RetryPolicy, 'timeoutMs'>> = Object.freeze({ maxRetries: 2, baseDelayMs: 500, maxRetryDelayMs: 30_000 })

export interface RetryLog { warn: (obj: Record<string, unknown>, msg: string) => void }

function backoff (attempt: number, base: number): number {
  const exp = Math.min(base * 2 ** attempt, 8_000)
  return Math.round(exp * (0.75 + Math.random() * 0.5))
}

async function sleep (ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return
  await new Promise<void>((resolve, reject) => {
    const onAbort = (): void => { clearTimeout(timer); reject(new Error('aborted')) }
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve() }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries are spent. Resolves with
 * the value and the attempt's live Deadline (a stream keeps using it as its idle timer;
 * the caller disposes it). Rejects with a ProviderError.
 */
export async function withRetry<T> (
  ctx: UpstreamContext,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  attempt: (deadline: Deadline) => Promise<T>,
  log?: RetryLog,
): Promise<{ value: T, deadline: Deadline }> {
  for (let n = 0; ; n++) {
    const deadline = new Deadline(policy.timeoutMs, signal)
    try {
      const value = await attempt(deadline)
      return { value, deadline }
    } catch (err) {
      deadline.dispose()
      const c = classify(err, ctx, deadline)
      if (!c.retryable || n >= policy.maxRetries) throw c.error
      const wait = c.retryAfterMs ?? backoff(n, policy.baseDelayMs)
      if (wait > policy.maxRetryDelayMs) throw c.error
      log?.warn({ provider: ctx.provider, attempt: n + 1, status: c.error.upstreamStatus, wait_ms: wait, code: c.error.code }, 'provider call failed; retrying')
      try {
        await sleep(wait, signal)
      } catch {
        throw tag(new ProviderErrors.ABORTED(`The request to ${ctx.provider} was cancelled by the caller.`), { provider: ctx.provider }) as ProviderError
      }
    }
  }
}
