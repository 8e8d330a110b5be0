// The provider contract, one suite for every provider: each target (test/providers/
// targets.ts) puts a provider in front of a fake upstream on loopback that speaks that
// provider's real wire format, and scripts it in one neutral shape. What every provider
// must do: answer, stream parts in the contract's order, hand over whole tool calls, map
// upstream errors to the AGENT_ERR_PROVIDER_* codes, time out, cancel the upstream request
// when aborted, and retry (the SDK's retries, kept to the kit's rules) without ever
// sending a stream twice.
import type { Test } from 'tap'
import type { Provider, ToolCall } from '@agentd/sdk/contracts/provider'
import { pollUntil } from '../helpers/poll.ts'
import { collect, collectUntilError, finishOf, rejection, textOf, toolCallsOf } from '../helpers/stream.ts'

/** What a target's fake answers the next completion with. */
export type ScriptedReply =
  | {
    text?: string
    tool_calls?: ToolCall[]
    usage?: { prompt_tokens: number, completion_tokens: number }
    /** Characters per streamed delta. */
    chunkSize?: number
    /** Before each streamed event. */
    delayMs?: number
    /** Stream only: the connection fails after this many text deltas went out (0: before the response starts). */
    breakAfterDeltas?: number
  }
  | { status: number, message?: string, headers?: Record<string, string> }
  | { hang: true }

export interface Upstream {
  /** Queue replies, in order. */
  enqueue: (...replies: ScriptedReply[]) => void
  /** The completion requests the fake received, in order. */
  calls: () => Array<{ aborted: boolean, at: number, body: Record<string, unknown> }>
}

export interface BuildOptions {
  /** Seconds. */
  timeout?: number
  maxRetries?: number
  /** Use a key the fake refuses. */
  wrongKey?: boolean
}

export interface Target {
  name: string
  model: string
  /** The variable the provider tells users to set when its key is refused. */
  keyHint: RegExp
  /** Starts the fake (closed in teardown). */
  start: (t: Test) => Promise<{ upstream: Upstream, build: (opts?: BuildOptions) => { provider: Provider, lines: string[] } }>
}

export function providerContract (t: Test, target: Target): void {
  const ask = (text: string) => ({ model: target.model, messages: [{ role: 'user' as const, content: text }] })

  t.test('complete: the text, finish reason and reported usage', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ text: 'Hello there', usage: { prompt_tokens: 7, completion_tokens: 3 } })
    const r = await build().provider.complete(ask('hi'))
    t.equal(r.content, 'Hello there')
    t.equal(r.finish_reason, 'stop')
    t.same(r.usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 })
    t.same(r.tool_calls, [])
  })

  t.test('stream: text-delta parts in pieces, then exactly one finish part, last', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ text: 'The quick brown fox jumps', chunkSize: 3, usage: { prompt_tokens: 5, completion_tokens: 6 } })
    const parts = await collect(build().provider.stream(ask('go')))
    t.ok(parts.filter(p => p.type === 'text-delta').length > 5, 'many text deltas')
    t.equal(textOf(parts), 'The quick brown fox jumps')
    t.equal(parts.filter(p => p.type === 'finish').length, 1)
    const finish = finishOf(parts)
    t.equal(finish.finish_reason, 'stop')
    t.same(finish.usage, { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 })
    t.equal(finish.model, target.model)
    t.equal(upstream.calls()[0].body.stream, true, 'the upstream was asked to stream')
  })

  t.test('tool calls: whole, with parsed arguments, streamed or not', async t => {
    const { upstream, build } = await target.start(t)
    const calls: ToolCall[] = [
      { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris', days: [1, 2, 3] } },
      { id: 'call_b', name: 'calculate', arguments: { expression: '2*(3+4)' } },
    ]
    upstream.enqueue({ tool_calls: calls }, { tool_calls: calls, chunkSize: 2 })
    const { provider } = build()
    const r = await provider.complete(ask('weather?'))
    t.equal(r.finish_reason, 'tool_calls')
    t.same(r.tool_calls, calls)
    const parts = await collect(provider.stream(ask('weather?')))
    t.same(toolCallsOf(parts), calls)
    t.equal(finishOf(parts).finish_reason, 'tool_calls')
    const firstCall = parts.findIndex(p => p.type === 'tool-call')
    t.ok(parts.slice(firstCall, -1).every(p => p.type === 'tool-call'), 'tool calls come together, right before finish')
  })

  t.test('aborting complete() cancels the upstream request', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ hang: true })
    const ac = new AbortController()
    const p = build().provider.complete(ask('hi'), ac.signal)
    await pollUntil(() => upstream.calls().length, n => n === 1)
    ac.abort()
    t.equal((await rejection(p)).code, 'AGENT_ERR_PROVIDER_ABORTED')
    t.equal(await pollUntil(() => upstream.calls()[0].aborted, a => a), true, 'the upstream saw the connection close')
  })

  t.test('aborting mid-stream ends the iterator with an abort and cancels the upstream request', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ text: 'y'.repeat(200), chunkSize: 1, delayMs: 10 })
    const ac = new AbortController()
    const err = await rejection((async () => { for await (const p of build().provider.stream(ask('hi'), ac.signal)) if (p.type === 'text-delta') ac.abort() })())
    t.equal(err.code, 'AGENT_ERR_PROVIDER_ABORTED')
    t.equal(await pollUntil(() => upstream.calls()[0].aborted, a => a), true)
  })

  t.test('a consumer that stops reading cancels the upstream request', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ text: 'x'.repeat(200), chunkSize: 1, delayMs: 10 })
    for await (const p of build().provider.stream(ask('hi'))) if (p.type === 'text-delta') break
    t.equal(await pollUntil(() => upstream.calls()[0].aborted, a => a), true)
  })

  t.test('errors: 401 is AUTH naming the key to set, never the key', async t => {
    const { upstream, build } = await target.start(t)
    const { provider, lines } = build({ wrongKey: true })
    const err = await rejection(provider.complete(ask('hi')))
    t.equal(err.statusCode, 502)
    t.equal(err.code, 'AGENT_ERR_PROVIDER_AUTH')
    t.match(err.message, target.keyHint)
    t.notMatch(err.message, /sk-/)
    t.notOk(lines.some(l => /sk-contract/.test(l)), 'no log line has the key')
    t.equal(upstream.calls().length, 1, 'a refused key is not retried')
  })

  t.test('errors: 404 for the model is MODEL_NOT_FOUND, pointing at the model list', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ status: 404, message: `model: ${target.model}-nope does not exist` })
    const err = await rejection(build().provider.complete({ ...ask('hi'), model: `${target.model}-nope` }))
    t.equal(err.statusCode, 404)
    t.equal(err.code, 'AGENT_ERR_PROVIDER_MODEL_NOT_FOUND')
    t.match(err.message, /GET \/api\/providers\/models\?provider=/)
  })

  t.test('errors: a 4xx refusal is UPSTREAM with the upstream reason, not retried', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ status: 400, message: 'prompt is too long' })
    const err = await rejection(build().provider.complete(ask('hi')))
    t.equal(err.statusCode, 502)
    t.equal(err.code, 'AGENT_ERR_PROVIDER_UPSTREAM')
    t.match(err.message, /HTTP 400: prompt is too long/)
    t.equal(upstream.calls().length, 1)
  })

  t.test('retry: 429 with Retry-After is retried once the asked wait has passed', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ status: 429, message: 'slow down', headers: { 'retry-after': '1' } }, { text: 'finally' })
    const { provider, lines } = build({ maxRetries: 2 })
    t.equal(textOf(await collect(provider.stream(ask('hi')))), 'finally')
    const calls = upstream.calls()
    t.equal(calls.length, 2, 'two attempts')
    const waited = calls[1].at - calls[0].at
    // Without the header the first backoff is at most 500 ms: 950 ms or more is the header honoured.
    t.ok(waited >= 950, `the second attempt came ${waited.toFixed(0)} ms after the first`)
    t.ok(lines.some(l => l.includes('retrying') && l.includes('"wait_ms":1000')), 'the retry is logged with the wait asked for')
  })

  t.test('retry: 5xx is retried with growing backoff; retries spent give UPSTREAM with the status', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ status: 503, message: 'overloaded' }, { status: 500 }, { text: 'recovered' })
    t.equal((await build({ maxRetries: 2 }).provider.complete(ask('hi'))).content, 'recovered')
    const calls = upstream.calls()
    t.equal(calls.length, 3, 'three attempts')
    // The SDKs' backoff: 0.5 s, then 1 s, each less up to 25% jitter.
    const gaps = [calls[1].at - calls[0].at, calls[2].at - calls[1].at]
    t.ok(gaps[0] >= 370, `first wait ${gaps[0].toFixed(0)} ms`)
    t.ok(gaps[1] >= 740, `second wait ${gaps[1].toFixed(0)} ms`)
    upstream.enqueue({ status: 500 }, { status: 502 })
    const err = await rejection(build({ maxRetries: 1 }).provider.complete(ask('hi')))
    t.equal(err.statusCode, 502)
    t.equal(err.upstreamStatus, 502)
    t.match(err.message, /HTTP 502/)
    t.equal(upstream.calls().length, 5, 'max_retries 1: two attempts')
  })

  t.test('retry: a Retry-After beyond the longest wait fails at once, carrying the wait', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ status: 429, headers: { 'retry-after': '3600' } })
    const err = await rejection(build({ maxRetries: 2 }).provider.complete(ask('hi')))
    t.equal(err.code, 'AGENT_ERR_PROVIDER_RATE_LIMITED')
    t.equal(err.retryAfter, 3600)
    t.equal(upstream.calls().length, 1, 'not retried')
  })

  t.test('retry: aborting during a retry wait rejects at once', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ status: 429, headers: { 'retry-after': '3' } }, { text: 'too late' })
    const ac = new AbortController()
    const p = build({ maxRetries: 2 }).provider.complete(ask('hi'), ac.signal)
    await pollUntil(() => upstream.calls().length, n => n === 1)
    const started = performance.now()
    ac.abort()
    t.equal((await rejection(p)).code, 'AGENT_ERR_PROVIDER_ABORTED')
    const took = performance.now() - started
    t.ok(took < 2500, `rejected ${took.toFixed(0)} ms after the abort, not after the 3 s wait`)
  })

  t.test('retry: a connection reset before the stream starts is retried', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ text: 'lost', breakAfterDeltas: 0 }, { text: 'second try' })
    const parts = await collect(build({ maxRetries: 2 }).provider.stream(ask('hi')))
    t.equal(textOf(parts), 'second try')
    t.equal(upstream.calls().length, 2)
  })

  t.test('retry: a stream that fails after text went out is never sent again', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ text: 'abcdefghijklmnop', chunkSize: 2, breakAfterDeltas: 2, delayMs: 5 }, { text: 'a duplicate' })
    const { parts, error } = await collectUntilError(build({ maxRetries: 2 }).provider.stream(ask('hi')))
    const text = textOf(parts)
    // How much of what was written arrives before the reset is the socket's business; some did.
    t.ok(text.length > 0 && 'abcdefghijklmnop'.startsWith(text), `text went out before the failure: "${text}"`)
    t.equal(error?.statusCode, 502)
    t.equal(error?.code, 'AGENT_ERR_PROVIDER_BAD_RESPONSE')
    t.equal(upstream.calls().length, 1, 'one attempt: the stream was not replayed')
  })

  t.test('timeout: an upstream that never answers gives TIMEOUT, not retried', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ hang: true }, { text: 'never asked' })
    const err = await rejection(build({ timeout: 0.3, maxRetries: 2 }).provider.complete(ask('hi')))
    t.equal(err.statusCode, 504)
    t.equal(err.code, 'AGENT_ERR_PROVIDER_TIMEOUT')
    t.match(err.message, /did not answer within 0.3 s/)
    t.equal(upstream.calls().length, 1)
  })

  t.test('timeout: a stream that stalls between parts gives TIMEOUT; a slow steady one does not', async t => {
    const { upstream, build } = await target.start(t)
    upstream.enqueue({ text: 'abcdefgh', chunkSize: 2, delayMs: 600 }, { text: 'abcdefghij', chunkSize: 1, delayMs: 60 })
    const { provider } = build({ timeout: 0.3, maxRetries: 0 })
    const err = await rejection(collect(provider.stream(ask('hi'))))
    t.equal(err.code, 'AGENT_ERR_PROVIDER_TIMEOUT')
    t.equal(textOf(await collect(provider.stream(ask('hi')))), 'abcdefghij')
  })
}
