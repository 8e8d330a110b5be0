// The provider kit's moving parts, each rule pinned on its own (issue 22, mutation
// testing): the deadline's idle clock and its link to the caller's signal, the relay's
// ends (connect failure, a failure mid-stream, a quiet end after an abort, early stop,
// empty pushes and finishes), `attempt`, and the `fetch` that keeps the SDKs' retries to
// our rules. Timing is by timer order (timers started in one tick fire by expiry) or by
// waits that never end otherwise; no test reads a millisecond budget.
import t from 'tap'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import type { StreamPart } from '../../contracts/provider.ts'
import { Deadline } from './deadline.ts'
import { relayStream, type StreamAssembler } from './relay.ts'
import { attempt, MAX_RETRY_WAIT_MS, QUICK_TIMEOUT_MS, retryingFetch, upstream } from './upstream.ts'
import type { UpstreamContext } from './upstream-error.ts'
import { ProviderErrors, tag } from './errors.ts'

const ctx: UpstreamContext = { provider: 'p', baseUrl: 'http://127.0.0.1:9/v1', keyHint: 'P_KEY', urlHint: 'P_URL', timeoutHint: 'providers.p.timeout', secrets: [] }
type Failure = Error & { code?: string, statusCode?: number, provider?: string }

async function rejection (p: Promise<unknown>): Promise<Failure> {
  try { await p } catch (err) { return err as Failure }
  throw new Error('expected a rejection')
}

/** Resolves when `signal` aborts. */
const aborted = async (signal: AbortSignal): Promise<void> => {
  if (signal.aborted) return
  await new Promise<void>(resolve => { signal.addEventListener('abort', () => { resolve() }, { once: true }) })
}

// ---- Deadline --------------------------------------------------------------------

t.test('deadline: a caller signal that is already aborted aborts it at once, with the caller\'s reason', async t => {
  const parent = new AbortController()
  const why = new Error('caller left')
  parent.abort(why)
  const d = new Deadline(60_000, parent.signal)
  t.teardown(() => { d.dispose() })
  t.equal(d.signal.aborted, true)
  t.equal(d.signal.reason, why)
  t.equal(d.callerAborted, true)
  t.equal(d.timedOut, false)
})

t.test('deadline: a caller abort later passes its reason on; without a caller it is never the caller\'s', async t => {
  const parent = new AbortController()
  const d = new Deadline(60_000, parent.signal)
  t.teardown(() => { d.dispose() })
  t.equal(d.callerAborted, false)
  const why = new Error('gone')
  parent.abort(why)
  t.equal(d.signal.aborted, true)
  t.equal(d.signal.reason, why)
  const alone = new Deadline(60_000)
  t.teardown(() => { alone.dispose() })
  alone.controller.abort()
  t.equal(alone.callerAborted, false, 'aborted, but there is no caller signal')
})

t.test('deadline: silence past the timeout aborts it as a timeout that says how long it waited', async t => {
  const d = new Deadline(30)
  await aborted(d.signal)
  t.equal(d.timedOut, true)
  t.match((d.signal.reason as Error).message, 'no answer within 30 ms')
})

t.test('deadline: a touch restarts the clock from that moment, not from the previous check', async t => {
  const d = new Deadline(100)
  t.teardown(() => { d.dispose() })
  await sleep(60)
  d.touch()
  // The check at 100 ms finds 40 ms of silence and looks again when the full 100 ms since
  // the touch are up; this timer, started in the same tick as the touch, expires 30 ms later.
  await sleep(130)
  t.equal(d.signal.aborted, true, 'timed out 100 ms after the touch')
  t.equal(d.timedOut, true)
})

t.test('deadline: paused, silence is not counted; resumed, it is, from the resume', async t => {
  const d = new Deadline(30)
  t.teardown(() => { d.dispose() })
  d.pause()
  await sleep(150) // five timeouts' worth, while paused
  t.equal(d.signal.aborted, false, 'the consumer held the chunk, the upstream was not silent')
  d.resume()
  await aborted(d.signal)
  t.equal(d.timedOut, true)
})

t.test('deadline: once disposed, it no longer follows the caller\'s signal', async t => {
  const parent = new AbortController()
  const d = new Deadline(60_000, parent.signal)
  d.dispose()
  parent.abort()
  t.equal(d.signal.aborted, false)
})

// ---- relay -----------------------------------------------------------------------

const text = (delta: string): StreamPart => ({ type: 'text-delta', delta })
const finishPart: StreamPart = { type: 'finish', finish_reason: 'stop', usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, model: 'm' }
const plain: StreamAssembler<string> = { push: e => text(e), finish: () => [finishPart] }
const deltas = (parts: StreamPart[]): string[] => parts.map(p => p.type === 'text-delta' ? p.delta : p.type)

async function drain (it: AsyncIterator<StreamPart>): Promise<StreamPart[]> {
  const out: StreamPart[] = []
  for (;;) {
    const r = await it.next()
    if (r.done === true) return out
    out.push(r.value)
  }
}

t.test('relay: a connect that fails rejects the first read with its error, and the stream is over', async t => {
  const boom = tag(new ProviderErrors.UNREACHABLE('cannot reach p'), { provider: 'p' })
  let connects = 0
  const it = relayStream<string>(async () => { connects++; throw boom }, plain, ctx)
  t.equal(await rejection(it.next()), boom, 'the error as it is')
  t.same(await it.next(), { done: true, value: undefined }, 'over: no second connect')
  t.equal(connects, 1)
})

t.test('relay: an upstream that throws mid-stream becomes a provider error; the request is aborted and the stream over', async t => {
  const d = new Deadline(60_000)
  async function * events (): AsyncGenerator<string> { yield 'a'; throw Object.assign(new Error('socket hang up'), { cause: { code: 'ECONNRESET' } }) }
  const it = relayStream(async () => ({ upstream: events(), deadline: d }), plain, ctx)
  t.same(deltas([(await it.next()).value as StreamPart]), ['a'])
  const err = await rejection(it.next())
  t.match(err, { code: 'AGENT_ERR_PROVIDER_BAD_RESPONSE', provider: 'p' }, 'a stream that broke after it began is a bad response')
  t.match(err.message, /broke before it finished/)
  t.equal(d.signal.aborted, true, 'the upstream request is closed')
  t.same(await it.next(), { done: true, value: undefined })
})

t.test('relay: a provider error from upstream passes through as it is', async t => {
  const d = new Deadline(60_000)
  const limited = tag(new ProviderErrors.RATE_LIMITED('slow down'), { provider: 'p' })
  async function * events (): AsyncGenerator<string> { yield* []; throw limited }
  const err = await rejection(drain(relayStream(async () => ({ upstream: events(), deadline: d }), plain, ctx)))
  t.equal(err, limited)
})

t.test('relay: an upstream that ends quietly after the deadline aborted it says why (a timeout)', async t => {
  const d = new Deadline(20)
  // Like the SDKs: an aborted stream just ends.
  async function * events (): AsyncGenerator<string> { yield 'a'; await aborted(d.signal) }
  const it = relayStream(async () => ({ upstream: events(), deadline: d }), plain, ctx)
  await it.next()
  const err = await rejection(it.next())
  t.equal(err.code, 'AGENT_ERR_PROVIDER_TIMEOUT')
})

t.test('relay: the upstream\'s silence is timed again once the consumer asks for more', async t => {
  const d = new Deadline(30)
  // One event, then silence until the deadline aborts the request.
  async function * events (): AsyncGenerator<string> { yield 'a'; await aborted(d.signal); throw d.signal.reason }
  const it = relayStream(async () => ({ upstream: events(), deadline: d }), plain, ctx)
  await it.next()
  await sleep(120) // the consumer holds the part: not the upstream's silence
  t.equal(d.signal.aborted, false, 'paused while the consumer held the part')
  const err = await rejection(it.next())
  t.equal(err.code, 'AGENT_ERR_PROVIDER_TIMEOUT', 'asked for more, the silence that follows times out')
})

t.test('relay: an event that makes no parts (an empty list) is skipped, not the end', async t => {
  const d = new Deadline(60_000)
  async function * events (): AsyncGenerator<string> { yield 'nothing'; yield 'a' }
  const parts = await drain(relayStream(async () => ({ upstream: events(), deadline: d }), { push: e => e === 'nothing' ? [] : text(e), finish: () => [finishPart] }, ctx))
  t.same(deltas(parts), ['a', 'finish'])
})

t.test('relay: a finish with no closing parts ends the stream', async t => {
  const d = new Deadline(60_000)
  async function * events (): AsyncGenerator<string> { yield 'a' }
  const parts = await drain(relayStream(async () => ({ upstream: events(), deadline: d }), { push: text, finish: () => [] }, ctx))
  t.same(deltas(parts), ['a'])
  t.equal(d.signal.aborted, false, 'finished, not aborted')
})

t.test('relay: stopping before the first read connects nothing and throws nothing', async t => {
  let connects = 0
  const it = relayStream<string>(async () => { connects++; throw new Error('not expected') }, plain, ctx)
  t.same(await it.return!(), { done: true, value: undefined })
  t.same(await it.next(), { done: true, value: undefined }, 'and it stays over')
  t.equal(connects, 0)
})

t.test('relay: stopping after the stream finished leaves the request alone', async t => {
  const d = new Deadline(60_000)
  async function * events (): AsyncGenerator<string> { yield 'a' }
  const it = relayStream(async () => ({ upstream: events(), deadline: d }), plain, ctx)
  await drain(it)
  await it.return!()
  t.equal(d.signal.aborted, false)
})

t.test('relay: after an early stop the stream is over: a further read is done, not an error', async t => {
  const d = new Deadline(60_000)
  async function * events (): AsyncGenerator<string> { for (;;) yield 'x' }
  const it = relayStream(async () => ({ upstream: events(), deadline: d }), plain, ctx)
  await it.next()
  await it.return!()
  t.equal(d.signal.aborted, true)
  t.same(await it.next(), { done: true, value: undefined })
})

// ---- upstream and attempt ----------------------------------------------------------

const settings = { apiKey: 'k', keySource: 'env' as const, baseUrl: 'http://u:pw@127.0.0.1:9/v1', timeoutMs: 120_000, keyHint: 'P_KEY', urlHint: 'P_URL', timeoutHint: 'providers.p.timeout' }

t.test('upstream: the context names the provider, hides URL credentials and knows the key; quick calls are capped', async t => {
  const u = upstream('p', settings, settings.baseUrl, undefined)
  t.same(u.ctx, { provider: 'p', baseUrl: 'http://127.0.0.1:9/v1', keyHint: 'P_KEY', urlHint: 'P_URL', timeoutHint: 'providers.p.timeout', secrets: ['k'] })
  t.equal(u.timeoutMs, 120_000)
  t.equal(u.quickTimeoutMs, QUICK_TIMEOUT_MS, 'listings and probes wait at most the quick timeout')
  t.equal(upstream('p', { ...settings, timeoutMs: 2000 }, settings.baseUrl, undefined).quickTimeoutMs, 2000, 'or the call timeout when shorter')
  t.same(upstream('p', { ...settings, apiKey: undefined }, settings.baseUrl, undefined).ctx.secrets, [])
  t.doesNotThrow(() => { u.ensureConfigured() })
  const off = upstream('p', settings, settings.baseUrl, 'set P_KEY')
  t.throws(() => { off.ensureConfigured() }, { code: 'AGENT_ERR_PROVIDER_NOT_CONFIGURED', message: 'set P_KEY', provider: 'p' })
})

t.test('upstream: status, a health probe and the settings view, as every provider answers them', async t => {
  const u = upstream('p', settings, settings.baseUrl, undefined)
  t.same(u.status(), { status: 'configured' })
  const healthy = await u.health(async () => {})
  t.equal(healthy.status, 'healthy')
  t.type(healthy.latency_ms, 'number')
  t.match(await u.health(async () => { throw new Error('upstream said no') }), { status: 'unhealthy', error: 'upstream said no', latency_ms: Number })
  t.same(u.settings(), { api_key: { set: true, source: 'env' }, base_url: 'http://127.0.0.1:9/v1', timeout: 120 })
  const off = upstream('p', { ...settings, apiKey: undefined, keySource: undefined }, '', 'set P_KEY')
  t.same(off.status(), { status: 'not_configured', error: 'set P_KEY' })
  let probed = false
  t.same(await off.health(async () => { probed = true }), { status: 'not_configured', error: 'set P_KEY' })
  t.notOk(probed, 'not configured: no call')
  t.same(off.settings(), { api_key: { set: false }, base_url: undefined, timeout: 120 }, 'no base URL shown when none is set')
})

t.test('attempt: the value and a live deadline', async t => {
  const { value, deadline } = await attempt(ctx, 60_000, undefined, async d => { t.equal(d.timeoutMs, 60_000); return 42 })
  t.teardown(() => { deadline.dispose() })
  t.equal(value, 42)
  t.equal(deadline.signal.aborted, false)
})

t.test('attempt: a call that never answers is a timeout naming the limit', async t => {
  const err = await rejection(attempt(ctx, 30, undefined, async () => await new Promise(() => undefined)))
  t.equal(err.code, 'AGENT_ERR_PROVIDER_TIMEOUT')
  t.match(err.message, /p did not answer within 0\.03 s/)
})

t.test('attempt: a plain failure is classified; a provider error passes as it is; the deadline is disposed', async t => {
  let seen: Deadline | undefined
  const parent = new AbortController()
  const err = await rejection(attempt(ctx, 60_000, parent.signal, async d => { seen = d; throw Object.assign(new Error('nope'), { status: 401 }) }))
  t.equal(err.code, 'AGENT_ERR_PROVIDER_AUTH')
  parent.abort()
  t.equal(seen?.signal.aborted, false, 'disposed: no longer linked to the caller')
  const own = tag(new ProviderErrors.RATE_LIMITED('slow'), { provider: 'p' })
  t.equal(await rejection(attempt(ctx, 60_000, undefined, async () => { throw own })), own)
})

t.test('attempt: the caller\'s abort ends the wait at once, as a cancellation', async t => {
  const parent = new AbortController()
  const pending = attempt(ctx, 60_000, parent.signal, async () => await new Promise(() => undefined))
  parent.abort()
  t.equal((await rejection(pending)).code, 'AGENT_ERR_PROVIDER_ABORTED')
})

// ---- retryingFetch -------------------------------------------------------------------

interface Answer { status: number, headers?: Record<string, string>, body?: string }

async function server (t: { teardown: (fn: () => void) => void }, answer: (req: http.IncomingMessage) => Answer): Promise<string> {
  const srv = http.createServer((req, res) => {
    const a = answer(req)
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(a.body ?? '{}')
  })
  await new Promise<void>(resolve => srv.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { srv.closeAllConnections(); srv.close() })
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1/x`
}

function logger (): { warn: (o: Record<string, unknown>, msg: string) => void, lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = []
  return { lines, warn: (o, msg) => { lines.push({ ...o, msg }) } }
}

const asRetry = (n: number): RequestInit => ({ headers: { 'x-stainless-retry-count': String(n) } })

t.test('retryingFetch: a success and an answer no SDK retries pass through, unlogged', async t => {
  for (const status of [200, 400, 404, 422]) {
    const url = await server(t, () => ({ status, body: `{"status":${status}}` }))
    const log = logger()
    const res = await retryingFetch(ctx, 2, log)(url)
    t.equal(res.status, status)
    t.equal(await res.text(), `{"status":${status}}`)
    t.equal(res.headers.get('x-should-retry'), null, 'not marked')
    t.same(log.lines, [], `${status}: nothing to retry`)
  }
})

t.test('retryingFetch: what the SDKs retry (408, 409, 429, 5xx) is logged with the attempt, while retries are left', async t => {
  for (const status of [408, 409, 429, 500, 503]) {
    const url = await server(t, () => ({ status }))
    const log = logger()
    const res = await retryingFetch(ctx, 2, log)(url, asRetry(1))
    t.equal(res.status, status, 'the answer goes back to the SDK, which retries it')
    t.equal(res.headers.get('x-should-retry'), null, 'not marked: the SDK decides')
    t.same(log.lines, [{ provider: 'p', attempt: 2, status, wait_ms: 'backoff', msg: 'provider call failed; retrying' }], `${status}`)
    const last = logger()
    await retryingFetch(ctx, 2, last)(url, asRetry(2))
    t.same(last.lines, [], `${status}: the last try is not announced as a retry`)
  }
})

t.test('retryingFetch: without a logger it works the same, silently', async t => {
  const res = await retryingFetch(ctx, 2)(await server(t, () => ({ status: 503 })))
  t.equal(res.status, 503)
  const srv = http.createServer()
  await new Promise<void>(resolve => srv.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1/x`
  await new Promise(resolve => srv.close(resolve))
  t.type(await rejection(retryingFetch(ctx, 2)(url)), TypeError)
})

t.test('retryingFetch: x-should-retry from the upstream decides, either way', async t => {
  const no = logger()
  await retryingFetch(ctx, 2, no)(await server(t, () => ({ status: 503, headers: { 'x-should-retry': 'false' } })))
  t.same(no.lines, [], 'a 503 the upstream says not to retry')
  const yes = logger()
  await retryingFetch(ctx, 2, yes)(await server(t, () => ({ status: 400, headers: { 'x-should-retry': 'true' } })))
  t.equal(yes.lines.length, 1, 'a 400 the upstream says to retry')
})

t.test('retryingFetch: the wait the upstream asks for is logged; zero is the SDK\'s backoff', async t => {
  const asked = logger()
  await retryingFetch(ctx, 1, asked)(await server(t, () => ({ status: 429, headers: { 'retry-after': '2' } })))
  t.match(asked.lines, [{ status: 429, wait_ms: 2000, attempt: 1 }])
  const zero = logger()
  await retryingFetch(ctx, 1, zero)(await server(t, () => ({ status: 429, headers: { 'retry-after': '0' } })))
  t.match(zero.lines, [{ wait_ms: 'backoff' }])
})

t.test('retryingFetch: a wait beyond MAX_RETRY_WAIT_MS is refused: the answer comes back at once, marked not to retry, body intact', async t => {
  const secs = MAX_RETRY_WAIT_MS / 1000
  const log = logger()
  const long = await retryingFetch(ctx, 2, log)(await server(t, () => ({ status: 429, headers: { 'retry-after': String(secs + 1) }, body: '{"error":"later"}' })))
  t.equal(long.status, 429)
  t.equal(long.headers.get('x-should-retry'), 'false')
  t.equal(long.headers.get('retry-after'), String(secs + 1), 'the wait stays on the answer')
  t.equal(await long.text(), '{"error":"later"}')
  t.same(log.lines, [], 'not announced as a retry')
  const atLimit = await retryingFetch(ctx, 2, logger())(await server(t, () => ({ status: 429, headers: { 'retry-after': String(secs) } })))
  t.equal(atLimit.headers.get('x-should-retry'), null, 'exactly the limit is still slept')
})

t.test('retryingFetch: a connection failure is rethrown, logged with its code while retries are left, never after an abort', async t => {
  const srv = http.createServer()
  await new Promise<void>(resolve => srv.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1/x`
  await new Promise(resolve => srv.close(resolve)) // nothing listens there now
  const log = logger()
  const err = await rejection(retryingFetch(ctx, 2, log)(url))
  t.type(err, TypeError, 'fetch\'s own error, for the SDK to retry')
  t.same(log.lines, [{ provider: 'p', attempt: 1, error: 'ECONNREFUSED', msg: 'provider call failed; retrying' }])
  const first = logger()
  await rejection(retryingFetch(ctx, 2, first)(url, asRetry(0)))
  t.match(first.lines, [{ attempt: 1, error: 'ECONNREFUSED' }], 'options without a signal are not an abort')
  const last = logger()
  await rejection(retryingFetch(ctx, 2, last)(url, asRetry(2)))
  t.same(last.lines, [])
  const ac = new AbortController()
  ac.abort()
  const cancelled = logger()
  await rejection(retryingFetch(ctx, 2, cancelled)(url, { signal: ac.signal }))
  t.same(cancelled.lines, [], 'an aborted call is not retried')
})
