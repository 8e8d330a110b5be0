// What every provider sets up once per generation from its resolved settings: the context
// its errors are explained with, the guard that refuses calls while it is not configured,
// `attempt` (one call under a deadline, its failure turned into a ProviderError), and for
// SDK-backed providers the `fetch` that keeps the SDK's own retries to our rules.
//
// Retries are the SDK's (`maxRetries`: the openai and @anthropic-ai/sdk clients both retry
// 408/409/429/5xx and connection failures, honour `retry-after-ms` / `Retry-After`, else
// back off exponentially with jitter). Two rules of ours stay, enforced here:
// - a wait the upstream asks for beyond MAX_RETRY_WAIT_MS is not slept (the SDKs would
//   sleep whatever it asks, up to 24 days): the answer goes back at once, carrying the
//   wait as Retry-After;
// - the caller is never held by a retry sleep: the openai SDK sleeps without watching the
//   signal, so `attempt` races the call against the deadline's signal.
// One deadline covers the whole call, retries and their waits included, and a timeout is
// never retried (the deadline aborts the SDK's signal, which the SDKs do not retry). A
// stream is retried only until its response starts: the SDKs retry the request, never a
// body that already began, so text is never sent twice.
import { raceAbort } from '../../kernel/settle.ts'
import type { ProviderHealth, ProviderSettingsView, ProviderStatus } from '../../contracts/provider.ts'
import type { ResolvedSettings } from './settings.ts'
import { classify, isProviderError, retryAfterMs, type UpstreamContext } from './upstream-error.ts'
import { Deadline } from './deadline.ts'
import { ProviderErrors, tag } from './errors.ts'
import { safeUrl } from './secrets.ts'

/** Model listings and health probes never wait longer than this, nor retry. */
export const QUICK_TIMEOUT_MS = 10_000

/** The longest wait an upstream may ask for that is slept before a retry. */
export const MAX_RETRY_WAIT_MS = 30_000

export interface RetryLog { warn: (obj: Record<string, unknown>, msg: string) => void }

export interface Upstream {
  ctx: UpstreamContext
  /** Per call: ms to wait for an answer (and, for streams, between parts). */
  timeoutMs: number
  /** The same for model listings and health probes. */
  quickTimeoutMs: number
  /** Throws AGENT_ERR_PROVIDER_NOT_CONFIGURED with `notConfigured` as its message, if set. */
  ensureConfigured: () => void
  /** The provider's `status()`: configured, or not with what to set. */
  status: () => ProviderStatus
  /**
   * The provider's `health()` around a probe (a quick call, not retried): `not_configured`
   * without calling, else healthy or unhealthy (the error's message) with the latency.
   */
  health: (probe: () => Promise<void>) => Promise<ProviderHealth>
  /** The provider's `settings()`: the key as set or not, the base URL without credentials, the timeout in seconds. */
  settings: () => ProviderSettingsView
}

export function upstream (id: string, settings: ResolvedSettings, baseUrl: string, notConfigured: string | undefined): Upstream {
  const ctx: UpstreamContext = {
    provider: id,
    baseUrl: safeUrl(baseUrl) ?? '',
    keyHint: settings.keyHint,
    urlHint: settings.urlHint,
    timeoutHint: settings.timeoutHint,
    secrets: settings.apiKey === undefined ? [] : [settings.apiKey],
  }
  return {
    ctx,
    timeoutMs: settings.timeoutMs,
    quickTimeoutMs: Math.min(settings.timeoutMs, QUICK_TIMEOUT_MS),
    ensureConfigured: () => {
      if (notConfigured !== undefined) throw tag(new ProviderErrors.NOT_CONFIGURED(notConfigured), { provider: id })
    },
    status: () => notConfigured === undefined ? { status: 'configured' } : { status: 'not_configured', error: notConfigured },
    health: async (probe) => {
      if (notConfigured !== undefined) return { status: 'not_configured', error: notConfigured }
      const started = performance.now()
      try {
        await probe()
        return { status: 'healthy', latency_ms: Math.round(performance.now() - started) }
      } catch (err) {
        return { status: 'unhealthy', error: (err as Error).message, latency_ms: Math.round(performance.now() - started) }
      }
    },
    settings: () => ({
      api_key: settings.keySource === undefined ? { set: false } : { set: true, source: settings.keySource },
      base_url: baseUrl === '' ? undefined : safeUrl(baseUrl),
      timeout: settings.timeoutMs / 1000,
    }),
  }
}

/**
 * One upstream call under a fresh Deadline (`timeoutMs`, and the caller's `signal`).
 * Resolves with the value and the live Deadline (a stream keeps it as its idle timer; the
 * caller disposes it). Rejects with a ProviderError.
 */
export async function attempt<T> (ctx: UpstreamContext, timeoutMs: number, signal: AbortSignal | undefined, call: (deadline: Deadline) => Promise<T>): Promise<{ value: T, deadline: Deadline }> {
  const deadline = new Deadline(timeoutMs, signal)
  try {
    return { value: await raceAbort(call(deadline), deadline.signal), deadline }
  } catch (err) {
    deadline.dispose()
    throw isProviderError(err) ? err : classify(err, ctx, deadline)
  }
}

// What both SDKs retry (their shouldRetry): an explicit x-should-retry wins.
const sdkRetries = (res: Response): boolean => {
  const says = res.headers.get('x-should-retry')
  if (says !== null) return says === 'true'
  return res.status === 408 || res.status === 409 || res.status === 429 || res.status >= 500
}

/**
 * The `fetch` to give an SDK client built with `maxRetries`: refuses (x-should-retry:
 * false) a retry the upstream asks to postpone beyond MAX_RETRY_WAIT_MS, and logs each
 * retry the SDK is about to make with the wait the upstream asked for. (The trace context
 * comes in `init`'s headers: the providers give `traceHeaders(request.trace)` to the SDK.)
 */
export function retryingFetch (ctx: UpstreamContext, maxRetries: number, log?: RetryLog): typeof fetch {
  return async (input, init) => {
    // Both SDKs send a Headers object: read it as it is rather than copy it per call.
    const sent = init?.headers
    const n = Number((sent instanceof Headers ? sent : new Headers(sent)).get('x-stainless-retry-count') ?? 0)
    const more = n < maxRetries
    let res: Response
    try {
      res = await fetch(input, init)
    } catch (err) {
      if (more && init?.signal?.aborted !== true) {
        log?.warn({ provider: ctx.provider, attempt: n + 1, error: (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message }, 'provider call failed; retrying')
      }
      throw err
    }
    if (res.ok || !sdkRetries(res)) return res
    const wait = retryAfterMs(res.headers)
    if (wait !== undefined && wait > MAX_RETRY_WAIT_MS) {
      const headers = new Headers(res.headers)
      headers.set('x-should-retry', 'false')
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers })
    }
    if (more) log?.warn({ provider: ctx.provider, attempt: n + 1, status: res.status, wait_ms: wait !== undefined && wait > 0 ? wait : 'backoff' }, 'provider call failed; retrying')
    return res
  }
}


