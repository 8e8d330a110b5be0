// How a tool server's failures read: the time limit on a connect, whether a failed
// streamable HTTP connect means "try SSE", and one line of text for an error (the HTTP
// status first, since that is what says what to fix).
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { TIMED_OUT, within } from '@agentd/sdk'

export class TimeoutError extends Error { override name = 'TimeoutError' }

/** `p`, or a TimeoutError after `ms`; the message names `limitMs`, the configured limit `ms` is what is left of. */
export async function answerWithin<T> (p: Promise<T>, ms: number, what: string, limitMs = ms): Promise<T> {
  const outcome = await within(p, ms)
  if (outcome === TIMED_OUT) throw new TimeoutError(`${what} did not answer within ${limitMs / 1000} s (the server's "timeout")`)
  return outcome
}

/**
 * Whether a failed streamable HTTP connect means "no streamable HTTP endpoint here" (so a
 * `transport: "http"` server is worth trying over legacy SSE): 404/405 on the POST, or an
 * answer that is not MCP at all (wrong content type, not JSON-RPC). Anything else (401/403,
 * 5xx, a refused connection) would fail over SSE just the same and is reported as it is.
 */
export function noStreamableEndpoint (err: unknown): boolean {
  if (err instanceof StreamableHTTPError) return err.code === 404 || err.code === 405 || err.code === -1
  return err instanceof SyntaxError || (err instanceof Error && /ZodError/.test(err.name))
}

export function message (err: unknown): string {
  // The SDK's text carries the response body only; the status is what says what to fix.
  if (err instanceof StreamableHTTPError && err.code !== undefined && err.code > 0) {
    const hint = err.code === 401 || err.code === 403 ? ' (check the server\'s "headers", e.g. Authorization, in mcp_servers.json, or give it "auth": "oauth")' : ''
    return `HTTP ${err.code}${hint}: ${err.message}`
  }
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause
    const extra = cause instanceof Error && !err.message.includes(cause.message) ? ` (${cause.message})` : ''
    return `${err.message}${extra}`
  }
  return String(err)
}

/** Whether a failure means "a person must approve agentd first" (OAuth redirect pending). */
export const needsAuthorization = (err: unknown): boolean => err instanceof UnauthorizedError
