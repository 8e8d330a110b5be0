// How a request's failure is logged, by the kernel's error handler and by a stream that
// fails after it began: a bug (a 5xx nobody expected) at error level with its stack; an
// expected failure (a provider's server not running) as a warning once per cause, without
// a stack, then at debug level; one its plugin already logged (a store that is down), and
// every 4xx, at debug level. A log per request of a known outage would bury everything else.
import type { FastifyBaseLogger } from 'fastify'
import type { ErrorBody } from './errors.ts'
import { isAlreadyLogged, isExpectedFailure } from './errors.ts'

/** Causes warned about so far in this process (bounded: a flood of distinct ones starts over). */
const warned = new Set<string>()

function firstTime (cause: string): boolean {
  if (warned.has(cause)) return false
  if (warned.size >= 256) warned.clear()
  warned.add(cause)
  return true
}

export function logFailure (log: FastifyBaseLogger, err: unknown, body: ErrorBody, message: string, fields: Record<string, unknown> = {}): void {
  const summary = { ...fields, code: body.code, statusCode: body.statusCode }
  if (body.statusCode < 500 || isAlreadyLogged(err)) log.debug(summary, body.error)
  else if (!isExpectedFailure(err)) log.error({ ...fields, err }, message)
  else if (firstTime(`${body.code} ${body.error}`)) log.warn(summary, body.error)
  else log.debug(summary, body.error)
}
