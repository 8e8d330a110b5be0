// The error map plugins throw from, and `createError` for a plugin's own codes. Body
// shape (DECISIONS.md): { error, code, statusCode, details? }; the kernel renders every
// error the same way, so a plugin's codes only need an `_ERR_` in them and a status.
import createError from '@fastify/error'

export { createError }

export const Errors = {
  BAD_REQUEST: createError<[string]>('AGENT_ERR_BAD_REQUEST', '%s', 400),
  VALIDATION: createError<[string]>('AGENT_ERR_VALIDATION', '%s', 400),
  MALFORMED_JSON: createError<[string]>('AGENT_ERR_MALFORMED_JSON', 'The request body is not valid JSON: %s', 400),
  UNAUTHORIZED: createError('AGENT_ERR_UNAUTHORIZED', 'Missing or wrong API key: send the key set in AGENT_API_KEY as the X-API-Key header (or Authorization: Bearer <key>).', 401),
  NOT_FOUND: createError<[string]>('AGENT_ERR_NOT_FOUND', '%s', 404),
  METHOD_NOT_ALLOWED: createError<[string, string, string]>('AGENT_ERR_METHOD_NOT_ALLOWED', 'Method %s is not allowed on %s; allowed: %s.', 405),
  CONFLICT: createError<[string]>('AGENT_ERR_CONFLICT', '%s', 409),
  TOO_LARGE: createError<[string]>('AGENT_ERR_TOO_LARGE', '%s', 413),
  UNPROCESSABLE: createError<[string]>('AGENT_ERR_UNPROCESSABLE', '%s', 422),
  RATE_LIMITED: createError<[string]>('AGENT_ERR_RATE_LIMITED', 'Rate limit exceeded: %s. Retry after the time in the Retry-After header.', 429),
  INTERNAL: createError('AGENT_ERR_INTERNAL', 'Internal server error; the server log has the details.', 500),
  UPSTREAM: createError<[string]>('AGENT_ERR_UPSTREAM', '%s', 502),
  UNAVAILABLE: createError<[string]>('AGENT_ERR_UNAVAILABLE', '%s', 503),
  BUSY: createError<[string]>('AGENT_ERR_BUSY', '%s', 503),
  STARTING: createError('AGENT_ERR_STARTING', 'The server is starting (%s); retry in a moment.', 503),
  UPSTREAM_TIMEOUT: createError<[string]>('AGENT_ERR_UPSTREAM_TIMEOUT', '%s', 504),
  PLUGIN_CONFIG: createError<[string]>('AGENT_ERR_PLUGIN_CONFIG', '%s', 422),
  CONFIG_INVALID: createError<[string]>('AGENT_ERR_CONFIG_INVALID', '%s', 400),
  REGISTRY_DUPLICATE: createError<[string, string]>('AGENT_ERR_REGISTRY_DUPLICATE', '%s "%s" is already registered; give the second one another name.', 500),
  REGISTRY_MISSING: createError<[string, string, string]>('AGENT_ERR_REGISTRY_MISSING', 'No %s named "%s"; available: %s.', 404),
  UNKNOWN_HOOK: createError<[string, string]>('AGENT_ERR_UNKNOWN_HOOK', 'Unknown hook point "%s"; declared hook points: %s.', 500),
} as const

export interface ErrorDetail { path: string, message: string }

export interface ErrorBody {
  error: string
  code: string
  statusCode: number
  details?: ErrorDetail[]
  /** The request's id (its X-Request-Id), so a report of a failure finds its log lines. */
  request_id?: string
}

/** An error that carries validation details (path + message) into the body. */
export function withDetails<E extends Error> (err: E, details: ErrorDetail[]): E & { details: ErrorDetail[] } {
  return Object.assign(err, { details })
}


/**
 * Marks an expected failure its plugin has already logged (a 503 while a store is down,
 * logged once per outage as a warning): the kernel then logs it per request at debug
 * level, not as an error with a stack trace.
 */
export function alreadyLogged<E extends Error> (err: E): E & { logged: true } {
  return Object.assign(err, { logged: true as const })
}

export const isAlreadyLogged = (err: unknown): boolean => (err as { logged?: unknown } | null)?.logged === true

/**
 * Marks an expected failure nobody logged yet (a provider's server not running: a fact of
 * the world the answer explains, not a bug): the kernel warns once per cause (code and
 * message), without a stack trace, and logs repeats at debug level.
 */
export function expectedFailure<E extends Error> (err: E): E & { expected: true } {
  return Object.assign(err, { expected: true as const })
}

export const isExpectedFailure = (err: unknown): boolean => (err as { expected?: unknown } | null)?.expected === true
