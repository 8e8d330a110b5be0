// The one rendering of an error as the body DECISIONS.md prescribes: { error, code,
// statusCode, details? }. The kernel's error handler sends it; plugins that report an
// error inside a stream (an SSE `error` event, a /v1 error chunk) render it the same way.
import type { FastifyError } from 'fastify'
import type { ErrorBody, ErrorDetail } from './errors.ts'

interface ValidationIssue { instancePath?: string, message?: string, params?: Record<string, unknown> }

function detailsFromValidation (issues: ValidationIssue[], part: string | undefined): ErrorDetail[] {
  return issues
    // TypeBox reports an extra property twice (as a `false` subschema and as additionalProperties); keep the clear one.
    .filter(i => i.message !== 'schema is false')
    .map(i => {
      let message = i.message ?? 'is invalid'
      const extra = i.params?.additionalProperties
      if (Array.isArray(extra)) message = `unknown key(s): ${extra.join(', ')}`
      const req = i.params?.requiredProperties
      if (Array.isArray(req)) message = `missing required field(s): ${req.join(', ')}`
      return { path: `${part ?? 'body'}${(i.instancePath ?? '').replaceAll('/', '.')}`, message }
    })
}

const STATUS_CODES: Record<number, string> = {
  400: 'AGENT_ERR_BAD_REQUEST', 401: 'AGENT_ERR_UNAUTHORIZED', 403: 'AGENT_ERR_FORBIDDEN', 404: 'AGENT_ERR_NOT_FOUND',
  405: 'AGENT_ERR_METHOD_NOT_ALLOWED', 406: 'AGENT_ERR_NOT_ACCEPTABLE', 409: 'AGENT_ERR_CONFLICT', 413: 'AGENT_ERR_TOO_LARGE',
  415: 'AGENT_ERR_UNSUPPORTED_MEDIA_TYPE', 429: 'AGENT_ERR_RATE_LIMITED',
}

/** Turns any thrown value into the body DECISIONS.md prescribes. 5xx never leaks internals it did not mean to say. */
export function toErrorBody (err: unknown): ErrorBody {
  const e = (err ?? {}) as Partial<FastifyError> & { details?: ErrorDetail[], validationContext?: string }
  const statusCode = typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500
  if (Array.isArray(e.validation)) {
    const details = detailsFromValidation(e.validation as ValidationIssue[], e.validationContext)
    const summary = details.map(d => `${d.path}: ${d.message}`).join('; ')
    return { error: `Invalid request: ${summary}.`, code: 'AGENT_ERR_VALIDATION', statusCode: 400, details }
  }
  if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || ((err as Error) instanceof SyntaxError && statusCode === 400)) {
    return { error: `The request body is not valid JSON: ${e.message ?? ''}`.trim(), code: 'AGENT_ERR_MALFORMED_JSON', statusCode: 400 }
  }
  if (e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return { error: 'The request body is empty; send a JSON object.', code: 'AGENT_ERR_MALFORMED_JSON', statusCode: 400 }
  }
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { error: 'The request body is too large.', code: 'AGENT_ERR_TOO_LARGE', statusCode: 413 }
  }
  const ours = typeof e.code === 'string' && e.code.includes('_ERR_') && !e.code.startsWith('FST_')
  if (statusCode >= 500 && !ours) {
    return { error: 'Internal server error; the server log has the details.', code: 'AGENT_ERR_INTERNAL', statusCode: 500 }
  }
  const body: ErrorBody = {
    error: e.message || 'Request failed.',
    code: ours ? e.code as string : (STATUS_CODES[statusCode] ?? 'AGENT_ERR_BAD_REQUEST'),
    statusCode,
  }
  if (Array.isArray(e.details) && e.details.length > 0) body.details = e.details
  return body
}

