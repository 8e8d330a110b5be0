// Request body parsing, installed by the kernel in every generation (DECISIONS.md "What
// clients may send"): an empty body is no body, whatever its Content-Type. Browsers'
// fetch wrappers send `Content-Type: application/json` on every request, a DELETE or a
// bodyless POST included; Fastify's own JSON parser calls that a 400 ("body is empty"), so
// the same request works or fails on a header. Non-empty JSON is parsed by Fastify's
// default parser (prototype-poisoning protection kept), after a nesting check: JSON nested
// thousands of levels deep parses, but recursive code after it (validation, cloning,
// logging) would overflow the stack, a 500 for the caller's mistake.
// A non-empty body of a type nobody parses (an upload, `multipart/form-data`) is read to
// its end (within the body limit) and then answered: 404 on an unknown path, 415 on a
// known one. Answering before the body is read made Fastify close the connection with the
// upload still being sent, and a browser's fetch then failed with EPIPE ("cannot reach
// server") instead of showing the answer.
import { errorCodes, type FastifyInstance, type FastifyRequest, type preValidationHookHandler } from 'fastify'
import type { IncomingMessage } from 'node:http'
import { Errors } from './errors.ts'

/** Deeper JSON is refused with a 400 (serde_json's default limit is 128; nothing agentd takes comes close). */
export const MAX_JSON_DEPTH = 256

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings ignored); stops counting past `limit`. */
export function jsonDepth (text: string, limit = Infinity): number {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // backslash: the next character is escaped
      else if (c === 34) inString = false
    } else if (c === 34) {
      inString = true
    } else if (c === 91 || c === 123) {
      if (++depth > max) { max = depth; if (max > limit) return max }
    } else if (c === 93 || c === 125) {
      depth--
    }
  }
  return max
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** Requests whose body was of a type nobody parses; read and dropped, answered 415 if the route exists. */
const unparsed = new WeakSet<FastifyRequest>()

/** Reads a request body to its end without keeping it; fails past `limit` bytes. */
async function drain (payload: IncomingMessage, limit: number): Promise<void> {
  let seen = 0
  for await (const chunk of payload) {
    seen += (chunk as Buffer).length
    if (seen > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()
  }
}

export function installBodyParsers (app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'ignore')
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string
    if (text.length === 0) { done(null, undefined); return }
    // A body shorter than twice the limit cannot be nested deeper than it.
    if (text.length > MAX_JSON_DEPTH * 2 && jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      done(new Errors.VALIDATION(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep; send a flatter document.`), undefined)
      return
    }
    json(request, text, done)
  })
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    done(null, body.length === 0 ? undefined : body)
  })
  // Any other type: nothing to parse when nothing was sent; otherwise the body is read to
  // its end and dropped, and the hook below answers.
  app.addContentTypeParser('*', (request, payload, done) => {
    if (request.headers['content-length'] === '0') { done(null, undefined); return }
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1_048_576
    drain(payload, limit).then(() => {
      unparsed.add(request)
      done(null, undefined)
    }, (err: Error) => { done(err, undefined) })
  })
  // After parsing: a known route refuses the type (415); an unknown path goes on to the
  // 404 handler. Only on routes that take a body (GET and HEAD bodies are never parsed),
  // so the requests that make up most of the traffic do not pay for it.
  const refuse: preValidationHookHandler = (request, _reply, done) => {
    if (unparsed.has(request)) { done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type'])); return }
    done()
  }
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.some(m => BODY_METHODS.has(m))) return
    const own = route.preValidation
    route.preValidation = own === undefined ? [refuse] : [refuse, ...(Array.isArray(own) ? own : [own])]
  })
}

/** What a JSON-RPC route's body is when it did not parse (see `parseJsonOrMark`). */
export const NOT_JSON: unique symbol = Symbol('body is not JSON')

/**
 * A scope's JSON parser for a JSON-RPC route (MCP, A2A): a body that does not parse (or an
 * empty one) reaches the handler as `NOT_JSON`, so the route answers JSON-RPC's -32700 in
 * its own envelope rather than the API's 400. Register the route inside the same scope.
 */
export function parseJsonOrMark (scope: FastifyInstance): void {
  const json = scope.getDefaultJsonParser('error', 'ignore')
  scope.removeContentTypeParser('application/json')
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) { done(null, NOT_JSON); return }
    json(request, body as string, (err, value) => { done(null, err === null ? value : NOT_JSON) })
  })
}
