// Turns whatever an upstream call threw (the openai and @anthropic-ai/sdk clients share
// the same error shapes: `status`, `headers`, `error`, APIConnectionError,
// APIUserAbortError; a provider on plain fetch throws `await responseError(res)` or fetch's
// own TypeError) into one of ProviderErrors, with a message that names the provider and
// what to fix.
import { ProviderErrors, tag, type ProviderErrorFields } from './errors.ts'
import { scrub } from './secrets.ts'
import type { Deadline } from './deadline.ts'
import type { FastifyError } from 'fastify'
import { expectedFailure } from '../../kernel/errors.ts'

export interface UpstreamContext {
  /** Provider id, e.g. `openai`. */
  provider: string
  baseUrl: string
  /** How to fix a bad key: "OPENAI_API_KEY or providers.openai.api_key". */
  keyHint: string
  /** How to fix the address: "LOCAL_MODEL_URL or providers.local.base_url". */
  urlHint: string
  /** How to raise the timeout: "providers.local.timeout (seconds)". */
  timeoutHint: string
  /** Values that must never appear in a message (the key). */
  secrets: string[]
  model?: string
}

interface SdkErrorLike {
  name?: string
  message?: string
  status?: number
  headers?: Headers | Record<string, string>
  error?: unknown
  cause?: unknown
  code?: string
}

export type ProviderError = FastifyError & ProviderErrorFields

function header (h: SdkErrorLike['headers'], name: string): string | undefined {
  if (h === undefined || h === null) return undefined
  if (typeof (h as Headers).get === 'function') return (h as Headers).get(name) ?? undefined
  const v = (h as Record<string, string>)[name]
  return typeof v === 'string' ? v : undefined
}

/** `retry-after-ms` (OpenAI), else `Retry-After` as seconds or an HTTP date. */
export function retryAfterMs (h: SdkErrorLike['headers']): number | undefined {
  const ms = header(h, 'retry-after-ms')
  if (ms !== undefined && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const ra = header(h, 'retry-after')
  if (ra === undefined) return undefined
  const secs = Number(ra)
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000)
  const at = Date.parse(ra)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

/** At most one short line of an upstream's words: never its raw body, which may be a page of an internal service. */
export const MAX_UPSTREAM_MESSAGE = 200

export function oneLine (text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= MAX_UPSTREAM_MESSAGE ? line : `${line.slice(0, MAX_UPSTREAM_MESSAGE - 1)}\u2026`
}

/** The message an error body states (OpenAI's and Anthropic's `error.message`, `message`, a string `error`), if it states one. */
export function statedMessage (body: unknown): string | undefined {
  if (typeof body === 'string') return body
  if (body === null || typeof body !== 'object') return undefined
  const b = body as { error?: unknown, message?: unknown, detail?: unknown }
  const inner = (b.error !== null && typeof b.error === 'object') ? (b.error as { message?: unknown }).message : undefined
  for (const m of [inner, b.message, b.error, b.detail]) if (typeof m === 'string' && m !== '') return m
  return undefined
}

// The SDKs put a JSON error body's `error` (openai) or the whole body (anthropic) in `error`;
// a body that is not JSON only reaches their `message`, which is therefore not used.
function upstreamMessage (e: SdkErrorLike): string {
  const m = statedMessage(e.error)
  return m === undefined ? '' : oneLine(m)
}

function causeCode (e: SdkErrorLike): string | undefined {
  let c: unknown = e.cause
  for (let i = 0; i < 4 && c !== undefined && c !== null; i++) {
    const code = (c as { code?: unknown }).code
    if (typeof code === 'string') return code
    c = (c as { cause?: unknown }).cause
  }
  return typeof e.code === 'string' ? e.code : undefined
}

/** Errors already classified carry an AGENT_ERR_PROVIDER_ code. */
export const isProviderError = (err: unknown): err is ProviderError => String((err as { code?: unknown } | undefined)?.code ?? '').startsWith('AGENT_ERR_PROVIDER_')

/**
 * For a provider on plain fetch: an error answer as `classify` reads an SDK's (status,
 * headers, message). The message is the body's `error.message`, `message` or `error`
 * (a string), else the body's text.
 */
export async function responseError (res: Response): Promise<Error> {
  const text = await res.text().catch(() => '')
  let stated: string | undefined
  try { stated = statedMessage(JSON.parse(text)) } catch {}
  const message = stated === undefined ? '' : oneLine(stated)
  return Object.assign(new Error(message || `HTTP ${res.status}`), { status: res.status, headers: res.headers, error: { message } })
}

export function classify (err: unknown, ctx: UpstreamContext, deadline?: Deadline): ProviderError {
  const e = (err ?? {}) as SdkErrorLike
  // The SDKs leave `name` as "Error"; their classes are told apart by constructor name.
  const kind = (err as { constructor?: { name?: string } } | undefined)?.constructor?.name
  const is = (n: string): boolean => kind === n || e.name === n
  const p = ctx.provider
  const fields: ProviderErrorFields = { provider: p }
  const clean = (s: string): string => scrub(s, ctx.secrets)
  if (deadline?.callerAborted === true) {
    return tag(new ProviderErrors.ABORTED(`The request to ${p} was cancelled by the caller.`), fields)
  }
  if (deadline?.timedOut === true || is('APIConnectionTimeoutError')) {
    const secs = deadline === undefined ? undefined : deadline.timeoutMs / 1000
    return tag(new ProviderErrors.TIMEOUT(`${p} did not answer within ${secs ?? 'the'} s at ${ctx.baseUrl}${ctx.model === undefined ? '' : ` (model "${ctx.model}")`}; check the server, or raise ${ctx.timeoutHint}.`), fields)
  }
  if (is('APIUserAbortError') || is('AbortError')) {
    return tag(new ProviderErrors.ABORTED(`The request to ${p} was cancelled.`), fields)
  }
  if (typeof e.status === 'number') {
    const status = e.status
    const msg = clean(upstreamMessage(e))
    const retryAfter = retryAfterMs(e.headers)
    const withStatus: ProviderErrorFields = { ...fields, upstreamStatus: status }
    if (retryAfter !== undefined) withStatus.retryAfter = Math.ceil(retryAfter / 1000)
    if (status === 401 || status === 403) {
      // The upstream's own words can quote the key; ours say what to fix.
      return tag(new ProviderErrors.AUTH(`${p} rejected the API key (HTTP ${status}): set a valid key in ${ctx.keyHint} (POST /api/config/update takes it without a restart).`), withStatus)
    }
    if (status === 404 && ctx.model !== undefined && /model/i.test(msg)) {
      return tag(new ProviderErrors.MODEL_NOT_FOUND(`${p} does not know model "${ctx.model}" (${msg}); GET /api/providers/models?provider=${p} lists the models it offers.`), withStatus)
    }
    if (status === 404) {
      return tag(new ProviderErrors.UPSTREAM(`${p} answered 404 at ${ctx.baseUrl} (${msg}); check ${ctx.urlHint}.`), withStatus)
    }
    if (status === 429) {
      const wait = retryAfter === undefined ? '' : ` It asked to retry after ${Math.ceil(retryAfter / 1000)} s.`
      return tag(new ProviderErrors.RATE_LIMITED(`${p} is rate limiting this key (HTTP 429: ${msg}).${wait} Retry later or raise the account's limits.`), withStatus)
    }
    return tag(new ProviderErrors.UPSTREAM(`${p} answered HTTP ${status}: ${msg || 'no message'}.${status >= 500 ? ' The provider is failing; retry later or pick another provider.' : ''}`), withStatus)
  }
  if (is('APIConnectionError') || causeCode(e) !== undefined || is('TypeError')) {
    const code = causeCode(e)
    return expectedFailure(tag(new ProviderErrors.UNREACHABLE(`Cannot reach ${p} at ${ctx.baseUrl}${code === undefined ? '' : ` (${code})`}: is the server running? Set the address in ${ctx.urlHint}.`), fields))
  }
  return tag(new ProviderErrors.BAD_RESPONSE(`${p} sent a response that could not be read: ${oneLine(clean(e.message ?? String(err)))}.`), fields)
}

/** An error thrown while reading a stream that had already started. */
export function classifyMidStream (err: unknown, ctx: UpstreamContext, deadline: Deadline): ProviderError {
  const e = classify(err, ctx, deadline)
  if (e.statusCode === 503) {
    // The connection worked, then broke: that is a bad response, not an unreachable server.
    return tag(new ProviderErrors.BAD_RESPONSE(`The stream from ${ctx.provider} broke before it finished: ${e.message}`), { provider: ctx.provider })
  }
  return e
}
