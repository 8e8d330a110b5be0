// Error codes of the provider layer, shared by every provider plugin. Each message names
// the provider and what to fix, so the chat plugin can pass them straight to the caller.
// Status codes follow DECISIONS.md: 502 the upstream answered with an error, 504 it timed
// out, 503 nothing usable (not configured, not reachable), 400/404 the caller's mistake.
import { createError } from '../../kernel/errors.ts'

export const ProviderErrors = {
  /** No key (or no URL): the provider cannot be called until it is configured. */
  NOT_CONFIGURED: createError<[string]>('AGENT_ERR_PROVIDER_NOT_CONFIGURED', '%s', 503),
  /** The upstream could not be reached at all (refused, DNS, reset on every attempt). */
  UNREACHABLE: createError<[string]>('AGENT_ERR_PROVIDER_UNREACHABLE', '%s', 503),
  /** 401/403 from the upstream: the key is wrong or lacks access. */
  AUTH: createError<[string]>('AGENT_ERR_PROVIDER_AUTH', '%s', 502),
  /** 429 from the upstream after the retries were spent. */
  RATE_LIMITED: createError<[string]>('AGENT_ERR_PROVIDER_RATE_LIMITED', '%s', 502),
  /** Any other error answer from the upstream (4xx it refused, 5xx after retries). */
  UPSTREAM: createError<[string]>('AGENT_ERR_PROVIDER_UPSTREAM', '%s', 502),
  /** The stream broke or the upstream sent something we cannot read. */
  BAD_RESPONSE: createError<[string]>('AGENT_ERR_PROVIDER_BAD_RESPONSE', '%s', 502),
  /** No answer (or no next chunk) within the configured timeout. */
  TIMEOUT: createError<[string]>('AGENT_ERR_PROVIDER_TIMEOUT', '%s', 504),
  /** The upstream does not know the model. */
  MODEL_NOT_FOUND: createError<[string]>('AGENT_ERR_PROVIDER_MODEL_NOT_FOUND', '%s', 404),
  /** A model id names a provider that is not loaded. */
  UNKNOWN_PROVIDER: createError<[string]>('AGENT_ERR_PROVIDER_UNKNOWN', '%s', 400),
  /** The caller went away; nobody reads this one, it only ends the work. */
  ABORTED: createError<[string]>('AGENT_ERR_PROVIDER_ABORTED', '%s', 499),
} as const

/** Extra fields every provider error carries, for logs and for the chat plugin. */
export interface ProviderErrorFields {
  provider: string
  /** Seconds the upstream asked us to wait, when it said so (becomes a Retry-After header). */
  retryAfter?: number
  /** HTTP status the upstream answered with, when it answered. */
  upstreamStatus?: number
}

export function tag<E extends Error> (err: E, fields: ProviderErrorFields): E & ProviderErrorFields {
  return Object.assign(err, fields)
}

/** True for the error a provider throws when its caller aborted. */
export function isAbortError (err: unknown): boolean {
  return (err as { code?: string } | undefined)?.code === 'AGENT_ERR_PROVIDER_ABORTED'
}
