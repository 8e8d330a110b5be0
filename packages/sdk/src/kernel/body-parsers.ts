// Request body parsing, installed by the kernel in every generation (DECISIONS.md "What
// clients may send"): an empty body is no body, whatever its Content-Type. Browsers'
// fetch wrappers send `Content-Type: application/json` on every request, a DELETE or a
// bodyless POST included; Fastify's own JSON parser calls that a 400 ("body is empty"), so
// the same request works or fails on a header. Non-empty JSON is parsed by Fastify's
// default parser (prototype-poisoning protection kept); a non-empty body of a type nobody
// parses is still a 415.
import { errorCodes, type FastifyInstance } from 'fastify'

export function installBodyParsers (app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'ignore')
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) { done(null, undefined); return }
    json(request, body as string, done)
  })
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    done(null, body.length === 0 ? undefined : body)
  })
  // Any other type: nothing to parse when nothing was sent; otherwise what Fastify says
  // without this parser (415), before reading the body.
  app.addContentTypeParser('*', (request, _payload, done) => {
    if (request.headers['content-length'] === '0') { done(null, undefined); return }
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']), undefined)
  })
}
