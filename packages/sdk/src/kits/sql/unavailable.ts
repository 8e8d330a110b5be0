// Tells "the database is not there" (503, reconnect later) from everything else.
import { StoreUnavailableError } from '../memory/index.ts'
import type { Breaker } from './breaker.ts'

const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300'])
const NET_MESSAGES = [/connection terminated/i, /timeout exceeded when trying to connect/i, /connection error/i, /connection ended/i, /server closed the connection/i, /the database system is (starting up|shutting down)/i, /connect ECONNREFUSED/i, /Client was closed/i]

export function isConnectionError (err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true
  const e = err as { code?: unknown, message?: unknown, errors?: unknown[] } | null
  if (e === null || typeof e !== 'object') return false
  if (typeof e.code === 'string' && (NET_CODES.has(e.code) || e.code.startsWith('08'))) return true
  // Node's happy-eyeballs connect wraps each address's failure in an AggregateError.
  if (Array.isArray(e.errors) && e.errors.some(isConnectionError)) return true
  return typeof e.message === 'string' && NET_MESSAGES.some(r => r.test(e.message as string))
}

/**
 * Runs `fn`, turning connection failures into StoreUnavailableError for `role`. With a
 * breaker, a failure skips the database for its cool-down (fails at once, see breaker.ts).
 */
export async function guarded<T> (role: 'relational' | 'graph', backend: string, fn: () => Promise<T>, breaker?: Breaker): Promise<T> {
  const blocked = breaker?.blocked()
  if (blocked !== undefined) throw new StoreUnavailableError(role, backend, blocked)
  try {
    const out = await fn()
    breaker?.succeeded()
    return out
  } catch (err) {
    if (isConnectionError(err)) breaker?.failed(err)
    if (err instanceof StoreUnavailableError) throw err
    if (isConnectionError(err)) throw new StoreUnavailableError(role, backend, err)
    throw err
  }
}
