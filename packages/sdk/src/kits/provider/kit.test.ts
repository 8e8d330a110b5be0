// The provider kit's pure parts: Retry-After parsing, secret scrubbing, catalogue lookup
// with overrides, usage estimates, and the deadline's idle clock.
import t from 'tap'
import { retryAfterMs } from './upstream-error.ts'
import { scrub } from './secrets.ts'
import { Catalogue } from './catalogue.ts'
import { usageOrEstimate } from './estimate.ts'
import { Deadline } from './deadline.ts'

t.test('Retry-After: seconds, an HTTP date, and OpenAI\'s retry-after-ms', async t => {
  t.equal(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000)
  t.equal(retryAfterMs(new Headers({ 'retry-after': '0.5' })), 500)
  t.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' })), 250, 'ms wins')
  const inFive = new Date(Date.now() + 5000).toUTCString()
  const ms = retryAfterMs(new Headers({ 'retry-after': inFive }))!
  t.ok(ms > 3000 && ms <= 5000, `date -> ${ms} ms`)
  t.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' })), undefined)
  t.equal(retryAfterMs(new Headers()), undefined)
})

t.test('scrub removes the known key and anything key-shaped', async t => {
  const out = scrub('Incorrect API key provided: sk-proj-abc***xyz1. Also mysecretvalue and Bearer abc.def', ['mysecretvalue'])
  t.notMatch(out, /sk-proj/)
  t.notMatch(out, /mysecretvalue/)
  t.notMatch(out, /abc\.def/)
  t.match(out, /Incorrect API key provided/)
})

t.test('catalogue: suffix fallback, bare and qualified overrides, honest defaults', async t => {
  const c = new Catalogue('openai', { 'gpt-4o': { context_window: 128000, supports_tools: true } }, {
    'gpt-4o': { cost_per_1k_input: 1 },
    'openai/gpt-4o': { cost_per_1k_input: 2 },
    'openai/custom-ft': { context_window: 9999 },
    'anthropic/claude-x': { context_window: 1 },
  })
  t.equal(c.capabilities('gpt-4o-2024-08-06').context_window, 128000, 'a snapshot falls back to its family')
  t.equal(c.capabilities('gpt-4o').cost_per_1k_input, 2, 'provider/model override beats the bare one')
  t.equal(c.capabilities('gpt-4o').supports_tools, true, 'overrides merge over the shipped data')
  t.equal(c.knows('custom-ft'), true)
  t.same(c.names().sort(), ['custom-ft', 'gpt-4o'], 'qualified overrides add models; other providers\' do not')
  const unknown = c.info('mystery')
  t.same([unknown.known, unknown.context_window, unknown.supports_tools, unknown.supports_streaming, unknown.cost_per_1k_input], [false, 4096, false, true, null])
})

t.test('usage: reported as is, else estimated and marked', async t => {
  const req = { model: 'm', messages: [{ role: 'user' as const, content: 'x'.repeat(40) }] }
  t.same(usageOrEstimate({ prompt_tokens: 3, completion_tokens: 4 }, req, 'ignored'), { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 })
  const est = usageOrEstimate(undefined, req, 'y'.repeat(8))
  t.same(est, { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13, estimated: true })
  t.same(usageOrEstimate(undefined, req, 9), { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14, estimated: true }, 'a stream gives its length in characters')
  t.equal(usageOrEstimate(undefined, req, 0).completion_tokens, 0, 'nothing relayed, nothing estimated')
})

t.test('deadline: touching keeps it alive; silence past the timeout aborts it as a timeout', async t => {
  const d = new Deadline(120)
  t.teardown(() => { d.dispose() })
  for (let i = 0; i < 5; i++) { await new Promise(resolve => setTimeout(resolve, 50)); d.touch() }
  t.equal(d.signal.aborted, false, 'alive after 250 ms of steady touches')
  await new Promise(resolve => setTimeout(resolve, 200))
  t.equal(d.signal.aborted, true)
  t.equal(d.timedOut, true)
  const parent = new AbortController()
  const e = new Deadline(10_000, parent.signal)
  parent.abort()
  t.equal(e.signal.aborted, true)
  t.equal(e.callerAborted, true)
  t.equal(e.timedOut, false)
  e.dispose()
})

t.test('deadline: a paused clock never times out; after resume, silence is cut within 9/8 of the timeout', async t => {
  const d = new Deadline(80)
  t.teardown(() => { d.dispose() })
  d.pause()
  await new Promise(resolve => setTimeout(resolve, 200))
  t.equal(d.signal.aborted, false, 'held by the consumer for 2.5 timeouts: alive')
  const resumed = performance.now()
  d.resume()
  await new Promise<void>(resolve => { d.signal.addEventListener('abort', () => { resolve() }, { once: true }) })
  const after = performance.now() - resumed
  t.ok(after >= 80 && after < 80 * 9 / 8 + 40, `cut ${after.toFixed(0)} ms after the resume (timer slack 40 ms)`)
  t.equal(d.timedOut, true)
})

t.test('URLs are shown without credentials', async t => {
  const { safeUrl } = await import('./secrets.ts')
  t.equal(safeUrl('http://bob:hunter2@10.0.0.5:8000/v1'), 'http://10.0.0.5:8000/v1')
  t.equal(safeUrl('http://localhost:11434/v1'), 'http://localhost:11434/v1')
})

t.test('relay: several parts from one event and the closing parts come out in order; the deadline is disposed', async t => {
  const { relayStream } = await import('./relay.ts')
  const d = new Deadline(10_000)
  async function * events (): AsyncGenerator<string> { yield 'a'; yield 'skip'; yield 'b+c' }
  const parts: string[] = []
  for await (const p of relayStream(async () => ({ upstream: events(), deadline: d }), {
    push: (e: string) => e === 'skip' ? undefined : e.includes('+') ? e.split('+').map(x => ({ type: 'text-delta' as const, delta: x })) : { type: 'reasoning-delta' as const, delta: e },
    finish: () => [{ type: 'tool-call' as const, call: { id: '1', name: 'n', arguments: {} } }, { type: 'finish' as const, finish_reason: 'tool_calls' as const, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, model: 'm' }],
  }, { provider: 'p', baseUrl: '', keyHint: '', urlHint: '', timeoutHint: '', secrets: [] })) parts.push(p.type === 'text-delta' || p.type === 'reasoning-delta' ? p.delta : p.type === 'tool-call' ? p.call.id : p.type)
  t.same(parts, ['a', 'b', 'c', '1', 'finish'])
  t.equal(d.signal.aborted, false, 'a stream that finished is not aborted')
})

t.test('relay: a consumer that stops early aborts the upstream call and closes its iterator', async t => {
  const { relayStream } = await import('./relay.ts')
  const d = new Deadline(10_000)
  let closed = false
  async function * events (): AsyncGenerator<string> { try { for (;;) yield 'x' } finally { closed = true } }
  for await (const _p of relayStream(async () => ({ upstream: events(), deadline: d }), { push: (e: string) => ({ type: 'text-delta' as const, delta: e }), finish: () => [] }, { provider: 'p', baseUrl: '', keyHint: '', urlHint: '', timeoutHint: '', secrets: [] })) break
  t.equal(d.signal.aborted, true)
  t.equal(closed, true)
})

t.test('tool-call arguments: an object, a wrapped value, or the raw text when the JSON is broken', async t => {
  const { parseArguments } = await import('./tool-arguments.ts')
  t.same(parseArguments('{"a":1}'), { a: 1 })
  t.same(parseArguments('  '), {})
  t.same(parseArguments('[1]'), { value: [1] })
  t.same(parseArguments('{"a":'), { _raw_arguments: '{"a":' })
})
