// What every SDK-backed provider sets up once per generation from its resolved settings:
// the context its errors are explained with, the retry policies (full, and a quick one
// for model listings and health probes), and the guard that refuses calls while the
// provider is not configured.
import type { ResolvedSettings } from './settings.ts'
import type { UpstreamContext } from './upstream-error.ts'
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts'
import { ProviderErrors, tag } from './errors.ts'
import { safeUrl } from './secrets.ts'

/** Model listings and health probes never wait longer than this, nor retry. */
export const QUICK_TIMEOUT_MS = 10_000

export interface Upstream {
  ctx: UpstreamContext
  policy: RetryPolicy
  quick: RetryPolicy
  /** Throws AGENT_ERR_PROVIDER_NOT_CONFIGURED with `notConfigured` as its message, if set. */
  ensureConfigured: () => void
}

export function upstream (id: string, settings: ResolvedSettings, baseUrl: string, maxRetries: number, notConfigured: string | undefined): Upstream {
  const ctx: UpstreamContext = {
    provider: id,
    baseUrl: safeUrl(baseUrl) ?? '',
    keyHint: settings.keyHint,
    urlHint: settings.urlHint,
    timeoutHint: settings.timeoutHint,
    secrets: settings.apiKey === undefined ? [] : [settings.apiKey],
  }
  const policy: RetryPolicy = { ...DEFAULT_RETRY, timeoutMs: settings.timeoutMs, maxRetries }
  const quick: RetryPolicy = { ...policy, timeoutMs: Math.min(settings.timeoutMs, QUICK_TIMEOUT_MS), maxRetries: 0 }
  return {
    ctx,
    policy,
    quick,
    ensureConfigured: () => {
      if (notConfigured !== undefined) throw tag(new ProviderErrors.NOT_CONFIGURED(notConfigured), { provider: id })
    },
  }
}
