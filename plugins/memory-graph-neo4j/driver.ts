// The slice of neo4j-driver the store uses, as interfaces: the real driver satisfies them,
// and unit tests hand the store a fake that records each query and its parameters and
// answers with the driver's own Record, Integer and DateTime values.
import neo4j, { type Record as Neo4jRecord } from 'neo4j-driver'
import type { Neo4jTarget } from './target.ts'

export type Params = Record<string, unknown>

/** A managed transaction: `run` resolves to the result's records. */
export interface CypherTx { run: (query: string, params: Params) => PromiseLike<{ records: Neo4jRecord[] }> }

export interface CypherSession {
  executeRead: <T>(work: (tx: CypherTx) => Promise<T>) => Promise<T>
  executeWrite: <T>(work: (tx: CypherTx) => Promise<T>) => Promise<T>
  close: () => Promise<void>
}

export interface CypherDriver {
  session: (config: { database?: string, defaultAccessMode?: 'READ' | 'WRITE' }) => CypherSession
  close: () => Promise<void>
}

/** A driver for the target. It connects lazily: nothing is dialled until the first query. */
export function openDriver (target: Neo4jTarget): CypherDriver {
  return neo4j.driver(target.uri, neo4j.auth.basic(target.user, target.password), {
    maxConnectionPoolSize: target.poolSize,
    connectionTimeout: target.connectTimeoutMs,
    connectionAcquisitionTimeout: target.connectTimeoutMs,
    // The driver retries a transaction on transient errors for 30 s by default: a chat
    // would wait that long for memory while the server is away. One connect timeout, then fail.
    maxTransactionRetryTime: target.connectTimeoutMs,
    userAgent: 'agentd',
  })
}

// Codes for "the server is not there or will not have us": a 503 naming the store, never a 500.
const UNAVAILABLE_CODES = new Set([
  neo4j.error.SERVICE_UNAVAILABLE, neo4j.error.SESSION_EXPIRED,
  'Neo.TransientError.General.DatabaseUnavailable', 'Neo.ClientError.Database.DatabaseNotFound',
  'Neo.ClientError.Security.Unauthorized', 'Neo.ClientError.Security.AuthenticationRateLimit',
  'Neo.ClientError.Security.CredentialsExpired',
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN',
])

export function isUnavailable (err: unknown): boolean {
  const e = err as { code?: unknown, cause?: unknown } | null
  if (e === null || typeof e !== 'object') return false
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true
  return e.cause !== undefined && e.cause !== err && isUnavailable(e.cause)
}
