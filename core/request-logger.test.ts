// The per-request logger defers pino's child until something is logged at an enabled
// level, and then logs exactly what an eager child would (bindings, redaction).
import t from 'tap'
import pino from 'pino'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { LazyRequestLogger, requestLoggerFactory } from './request-logger.ts'
import { REDACT_PATHS } from './logger.ts'

function capture (level = 'info'): { log: pino.Logger, lines: () => Array<Record<string, unknown>>, children: () => number } {
  const out: string[] = []
  const stream = new Writable({ write (chunk: Buffer, _enc, cb) { out.push(chunk.toString()); cb() } })
  let children = 0
  const log = pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, onChild: () => { children++ } }, stream)
  return { log, lines: () => out.join('').trim().split('\n').filter(Boolean).map(l => JSON.parse(l) as Record<string, unknown>), children: () => children }
}

t.test('a call at a disabled level builds no child and writes nothing', async t => {
  const c = capture('warn')
  const l = new LazyRequestLogger(c.log, { reqId: 'req-1' })
  l.info('hello'); l.debug({ x: 1 }, 'dbg'); l.trace('t')
  t.equal(c.children(), 0)
  t.same(c.lines(), [])
})

t.test('an enabled call logs with the bindings, once-built child reused, secrets redacted', async t => {
  const c = capture('info')
  const l = new LazyRequestLogger(c.log, { reqId: 'req-2' })
  l.info({ provider: { api_key: 'sk-secret' } }, 'first')
  l.error('second')
  t.equal(c.children(), 1)
  const [a, b] = c.lines()
  t.equal(a.reqId, 'req-2'); t.equal(a.msg, 'first'); t.same(a.provider, { api_key: '[redacted]' })
  t.equal(b.reqId, 'req-2'); t.equal(b.level, 50)
})

t.test('level reads through and child() nests under the request bindings', async t => {
  const c = capture('info')
  const l = new LazyRequestLogger(c.log, { reqId: 'req-3' })
  t.equal(l.level, 'info')
  l.child({ tool: 'calc' }).info('nested')
  t.match(c.lines()[0], { reqId: 'req-3', tool: 'calc', msg: 'nested' })
})

t.test('in Fastify, request.log carries the request id and a route with its own level gets an eager child', async t => {
  const c = capture('info')
  const app = Fastify({ disableRequestLogging: true, childLoggerFactory: requestLoggerFactory(c.log) })
  t.teardown(async () => { await app.close() })
  app.get('/a', async (req) => { req.log.info('in a'); return { lazy: req.log instanceof LazyRequestLogger } })
  app.get('/b', { logLevel: 'error' }, async (req) => { req.log.info('muted'); return { lazy: req.log instanceof LazyRequestLogger } })
  t.same((await app.inject('/a')).json(), { lazy: true })
  t.same((await app.inject('/b')).json(), { lazy: false })
  const lines = c.lines().filter(l => l.msg === 'in a' || l.msg === 'muted')
  t.equal(lines.length, 1)
  t.match(lines[0], { msg: 'in a', reqId: /^req-/ })
})
