// The provider middleware around in-process providers: each test pins one piece of the
// cross-cutting work every caller gets from the model resolver.
import t from 'tap'
import { Hooks } from '@agentd/sdk'
import '@agentd/sdk/contracts'
import { DEFAULT_CAPABILITIES } from '@agentd/sdk/kits/provider'
import type { CompletionRequest, CompletionResult, Provider, StreamPart } from '@agentd/sdk/contracts/provider'
import { wrapProvider } from './middleware.ts'
import { pollUntil } from '../../test/helpers/poll.ts'

const REQ: CompletionRequest = { model: 'm1', messages: [{ role: 'user', content: 'twelve chars' }] }
const USAGE = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }

function provider (parts: { complete?: Provider['complete'], stream?: Provider['stream'] }): Provider {
  return {
    id: 'inner',
    status: () => ({ status: 'configured' }),
    listModels: async () => [],
    capabilities: () => ({ ...DEFAULT_CAPABILITIES }),
    complete: parts.complete ?? (async (req) => ({ content: `to ${req.model}`, finish_reason: 'stop', tool_calls: [], usage: USAGE, model: req.model })),
    stream: parts.stream ?? (async function * () { yield { type: 'text-delta', delta: 'x' } }),
    health: async () => ({ status: 'healthy' }),
  }
}

const never = async (): Promise<never> => await new Promise<never>(() => undefined)

function hooks (): Hooks {
  const h = new Hooks()
  h.declare('provider:before', 'provider:after')
  return h
}

t.test('complete: provider:before may replace the request, provider:after the result', async t => {
  const h = hooks()
  const seen: string[] = []
  h.on('provider:before', p => ({ ...p, request: { ...p.request, model: 'm2' } }))
  h.on('provider:after', p => { seen.push(`${p.provider} ${p.request.model} ${p.result.content}`); return { ...p, result: { ...p.result, content: 'replaced' } } })
  const r = await wrapProvider(provider({}), { hooks: h, timeoutMs: 5000 }).complete(REQ)
  t.same(seen, ['inner m2 to m2'])
  t.equal(r.content, 'replaced')
})

t.test('complete: a provider that never answers gets the provider 504 after the time limit', async t => {
  let innerSignal: AbortSignal | undefined
  const p = wrapProvider(provider({ complete: async (_req, signal) => { innerSignal = signal; return await never() } }), { hooks: hooks(), timeoutMs: 50 })
  await t.rejects(p.complete(REQ), { code: 'AGENT_ERR_PROVIDER_TIMEOUT', statusCode: 504, message: /inner gave no answer within 0.05 s/ })
  t.equal(innerSignal?.aborted, true, 'the provider was told to stop')
})

t.test('complete: the caller\'s abort releases the caller even when the provider ignores its signal', async t => {
  const ac = new AbortController()
  const p = wrapProvider(provider({ complete: never }), { hooks: hooks(), timeoutMs: 60_000 })
  const pending = p.complete(REQ, ac.signal)
  ac.abort(new Error('client went away'))
  await t.rejects(pending, { message: 'client went away' })
})

const text = (delta: string): StreamPart => ({ type: 'text-delta', delta })

t.test('stream: one that ends without its finish part gets one, with usage estimated and marked', async t => {
  const p = wrapProvider(provider({ stream: async function * () { yield text('four'); yield text(' more') } }), { hooks: hooks(), timeoutMs: 5000 })
  const parts: StreamPart[] = []
  for await (const c of p.stream(REQ)) parts.push(c)
  t.equal(parts.length, 3)
  t.same(parts[2], { type: 'finish', finish_reason: 'stop', usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7, estimated: true }, model: 'm1' })
})

t.test('stream: a finish part passes through, nothing is added', async t => {
  const finish: StreamPart = { type: 'finish', finish_reason: 'stop', usage: USAGE, model: 'm1' }
  const p = wrapProvider(provider({ stream: async function * () { yield text('a'); yield finish } }), { hooks: hooks(), timeoutMs: 5000 })
  const parts: StreamPart[] = []
  for await (const c of p.stream(REQ)) parts.push(c)
  t.same(parts, [text('a'), finish])
})

t.test('stream: provider:after sees the whole reply assembled from the parts', async t => {
  const h = hooks()
  let after: CompletionResult | undefined
  h.on('provider:after', p => { after = p.result })
  const call = { id: 'c1', name: 'clock', arguments: {} }
  const p = wrapProvider(provider({
    stream: async function * () {
      yield { type: 'reasoning-delta', delta: 'hmm' }
      yield text('Let me ')
      yield text('check.')
      yield { type: 'tool-call', call }
      yield { type: 'finish', finish_reason: 'tool_calls', usage: USAGE, model: 'm1-2025' }
    },
  }), { hooks: h, timeoutMs: 5000 })
  for await (const _c of p.stream(REQ)) { /* drain */ }
  t.same(after, { content: 'Let me check.', thinking: 'hmm', finish_reason: 'tool_calls', tool_calls: [call], usage: USAGE, model: 'm1-2025' })
})

t.test('stream: a part that does not come within the limit ends the stream with the 504', async t => {
  const p = wrapProvider(provider({ stream: async function * () { yield text('first'); await never() } }), { hooks: hooks(), timeoutMs: 50 })
  const got: StreamPart[] = []
  await t.rejects((async () => { for await (const c of p.stream(REQ)) got.push(c) })(), { code: 'AGENT_ERR_PROVIDER_TIMEOUT' })
  t.same(got, [text('first')])
})

t.test('stream: a consumer that stops reading closes the provider\'s stream', async t => {
  let closed = false
  const p = wrapProvider(provider({
    stream: async function * () {
      try { for (let i = 0; ; i++) yield text(String(i)) } finally { closed = true }
    },
  }), { hooks: hooks(), timeoutMs: 5000 })
  for await (const c of p.stream(REQ)) if (c.type === 'text-delta' && c.delta === '2') break
  t.ok(closed)
})

t.test('stream: on abort the provider\'s stream is closed only after the part it was producing settled', async t => {
  const events: string[] = []
  const p = wrapProvider(provider({
    stream: (_req, signal) => ({
      [Symbol.asyncIterator]: () => ({
        // Like a relay reading an upstream body: the pending read fails a moment after the
        // signal aborts (the socket closes, the body errors).
        next: async () => await new Promise<IteratorResult<StreamPart>>((_resolve, reject) => {
          events.push('reading')
          signal?.addEventListener('abort', () => { setTimeout(() => { events.push('read failed'); reject(new Error('body aborted')) }, 20) }, { once: true })
        }),
        return: async () => { events.push('closed'); return { done: true, value: undefined } },
      }),
    }),
  }), { hooks: hooks(), timeoutMs: 60_000 })
  const ac = new AbortController()
  const reading = (async () => { for await (const _c of p.stream(REQ, ac.signal)) { /* nothing comes */ } })()
  await pollUntil(() => events.length, n => n === 1)
  ac.abort(new Error('client went away'))
  await t.rejects(reading, { message: 'client went away' })
  await pollUntil(() => events.length, n => n === 3)
  t.same(events, ['reading', 'read failed', 'closed'])
})

t.test('the wrapper keeps the provider\'s identity and catalogue', async t => {
  const inner = { ...provider({}), knowsModel: (m: string) => m === 'm1' }
  const p = wrapProvider(inner, { hooks: hooks(), timeoutMs: 5000 })
  t.equal(p.id, 'inner')
  t.equal(p.knowsModel?.('m1'), true)
  t.equal(p.knowsModel?.('other'), false)
  t.equal(p.settings, undefined)
})
