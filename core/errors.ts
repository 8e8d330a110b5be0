// The kernel's error handler: every error rendered by the SDK's toErrorBody (error-body.ts).
// Body shape (DECISIONS.md): { error, code, statusCode, details? }. A plugin makes its own
// codes with the SDK's `createError` under its own prefix; the handler below renders
// them the same way.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { logFailure, toErrorBody } from '@agentd/sdk'

export function sendError (reply: FastifyReply, err: unknown): FastifyReply {
  const body = toErrorBody(err)
  body.request_id = reply.request.id
  const retryAfter = (err as { retryAfter?: number } | undefined)?.retryAfter
  if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter))
  return reply.code(body.statusCode).type('application/json; charset=utf-8').send(body)
}

/** Installs the error handler on a generation's root instance. */
export function installErrorHandler (app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const body = toErrorBody(err)
    // A bug at error level; an expected failure warned once per cause; the rest at debug (SDK failure-log.ts).
    logFailure(request.log, err, body, 'request failed')
    return sendError(reply, err)
  })
}
