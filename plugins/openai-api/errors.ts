// Error codes of the OpenAI-compatible API, and OpenAI's error shape. Every error on /v1
// is rendered by the kernel as `{ error, code, statusCode, details? }` first (one renderer
// for the whole server); an onSend hook of the /v1 routes then turns it into
// `{ error: { message, type, param, code } }`, which OpenAI's SDKs read.
import { createError, type ErrorBody } from '@agentd/sdk'

export const OpenAIErrors = {
  TOO_LONG: createError<[number, number]>('AGENT_ERR_OPENAI_TOO_LONG', 'The last user message is %d characters long; the limit is %d (AGENT_MAX_CHAT_LENGTH). Shorten it or raise the limit.', 413),
  BAD_MESSAGE: createError<[string]>('AGENT_ERR_OPENAI_BAD_MESSAGE', '%s', 400),
  UNSUPPORTED: createError<[string]>('AGENT_ERR_OPENAI_UNSUPPORTED', '%s', 400),
  NO_PROMPTS: createError('AGENT_ERR_OPENAI_NO_PROMPTS', 'The openai-api plugin needs the prompts plugin: add { "name": "prompts", "module": "./plugins/prompts" } before it in plugins.json.', 500),
} as const

/** The /v1 routes' error body in the OpenAPI document (`config.openapiErrors` of each route). */
export const OPENAI_ERROR_DOC = {
  name: 'OpenAIError',
  schema: {
    type: 'object',
    description: 'Every /v1 error, in OpenAI\'s shape (its SDKs read it): `code` is agentd\'s AGENT_ERR_* code, `param` the first invalid field.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['message', 'type', 'param', 'code'],
        properties: {
          message: { type: 'string' },
          type: { type: 'string', example: 'invalid_request_error' },
          param: { type: ['string', 'null'] },
          code: { type: ['string', 'null'] },
        },
      },
    },
  },
}

export interface OpenAIErrorBody {
  error: { message: string, type: string, param: string | null, code: string | null }
}

/** OpenAI's `type` for a status (its SDKs pick the exception class from the status; clients show the type). */
export function errorType (status: number): string {
  if (status === 401) return 'authentication_error'
  if (status === 403) return 'permission_error'
  if (status === 429) return 'rate_limit_error'
  if (status >= 500) return status === 503 ? 'service_unavailable_error' : 'api_error'
  return 'invalid_request_error'
}

/** agentd's error body in OpenAI's shape; `param` is the first invalid field, as OpenAI names it (`messages.0.content`). */
export function toOpenAIError (body: ErrorBody): OpenAIErrorBody {
  const path = body.details?.[0]?.path
  const param = path === undefined ? null : path.replace(/^body\.?/, '') || null
  return { error: { message: body.error, type: errorType(body.statusCode), param, code: body.code } }
}

/** True for a rendered agentd error body. */
export function isAgentErrorBody (v: unknown): v is ErrorBody {
  const b = v as Partial<ErrorBody> | null
  return typeof b === 'object' && b !== null && typeof b.error === 'string' && typeof b.code === 'string' && typeof b.statusCode === 'number'
}
