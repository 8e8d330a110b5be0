// withToolDiscovery's stream against a fake inner provider: it hands the inner stream's
// parts on unchanged, and a consumer that stops early closes the inner stream.
import t from 'tap'
import pino from 'pino'
import type { FastifyBaseLogger } from 'fastify'
import type { CompletionRequest, Provider, StreamPart } from '@agentd/sdk/contracts/provider'
import { withToolDiscovery } from './discovering.ts'
import { ToolSupport } from './tool-support.ts'

const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger

/** An inner provider whose stream yields `parts` and records whether it was closed early. */
function inner (parts: StreamPart[]): { provider: Provider, closed: () => boolean, asked: CompletionRequest[] } {
  let closed = false
  const asked: CompletionRequest[] = []
  const provider = {
    id: 'fake',
    stream: (req: CompletionRequest) => {
      asked.push(req)
      let i = 0
      return {
        [Symbol.asyncIterator] () { return this },
        next: async () => i < parts.length ? { done: false as const, value: parts[i++] } : { done: true as const, value: undefined },
        return: async () => { closed = true; return { done: true as const, value: undefined } },
      }
    },
  } as unknown as Provider
  return { provider, closed: () => closed, asked }
}

const discovering = (p: Provider): Provider => withToolDiscovery(p, new ToolSupport({ baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 100, probe: false }), { decides: () => true }, silent)

t.test('the stream hands on every inner part in order', async t => {
  const parts: StreamPart[] = [{ type: 'text-delta', delta: 'a' }, { type: 'text-delta', delta: 'b' }, { type: 'finish', finish_reason: 'stop', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }, model: 'm' }]
  const fake = inner(parts)
  const seen: StreamPart[] = []
  for await (const p of discovering(fake.provider).stream({ model: 'm', messages: [] })) seen.push(p)
  t.same(seen, parts)
  t.equal(fake.asked.length, 1)
})

t.test('a consumer that stops after the first part closes the inner stream', async t => {
  const fake = inner([{ type: 'text-delta', delta: 'a' }, { type: 'text-delta', delta: 'b' }])
  for await (const p of discovering(fake.provider).stream({ model: 'm', messages: [] })) { t.same(p, { type: 'text-delta', delta: 'a' }); break }
  t.ok(fake.closed(), 'inner return() called')
})

t.test('a stream closed before its first part never starts the inner one', async t => {
  const fake = inner([{ type: 'text-delta', delta: 'a' }])
  const it = discovering(fake.provider).stream({ model: 'm', messages: [] })[Symbol.asyncIterator]()
  t.same(await it.return?.(), { done: true, value: undefined })
  t.same(await it.next(), { done: true, value: undefined }, 'nothing after return()')
  t.equal(fake.asked.length, 0)
})
