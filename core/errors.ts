// The kernel's error handler: every error rendered by the SDK's toErrorBody (error-body.ts).
// Body shape (DECISIONS.md): { error, code, statusCode, details? }. A plugin makes its own
// codes with the SDK's `createError` under its own prefix; the handler below renders
// them the same way.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isAlreadyLogged, toErrorBody } from '@agentd/sdk'

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
    // An expected failure its plugin logged already (a store that is down) is not an error per request.
    if (body.statusCode >= 500 && !isAlreadyLogged(err)) request.log.error({ err }, 'request failed')
    else request.log.debug({ code: body.code, statusCode: body.statusCode }, body.error)
    return sendError(reply, err)
  })
}
