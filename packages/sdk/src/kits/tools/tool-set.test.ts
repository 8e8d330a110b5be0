// collectToolSet's call: whatever goes wrong in a tool becomes an error result; only the
// caller's abort propagates; the tool's signal is aborted at the limit and on the
// caller's abort; nothing is left waiting once the call settled.
import t from 'tap'
import { getEventListeners } from 'node:events'
import type { ToolResult, ToolSource } from '../../contracts/tool-source.ts'
import { collectToolSet } from './tool-set.ts'

interface Seen { signal?: AbortSignal, timeoutMs?: number }

/** A source with one tool whose behaviour the test gives; records the options of each call. */
function source (run: (args: Record<string, unknown>, signal: AbortSignal | undefined) => Promise<ToolResult>): { src: ToolSource, seen: Seen[] } {
  const seen: Seen[] = []
  const src: ToolSource = {
    id: 'test',
    listTools: () => [{ name: 'tool', description: 'a tool', input_schema: {}, server: 'test' }],
    callTool: async (_name, args, options) => { seen.push({ signal: options?.signal, timeoutMs: options?.timeoutMs }); return await run(args, options?.signal) },
  }
  return { src, seen }
}

/** Never settles on its own; rejects with the signal's reason when aborted. */
const hang = async (_a: Record<string, unknown>, signal: AbortSignal | undefined): Promise<ToolResult> => await new Promise((_resolve, reject) => {
  signal?.addEventListener('abort', () => { reject(signal.reason) }, { once: true })
})

t.test('a tool that answers: its result, with the time limit and a live signal passed on', async t => {
  const { src, seen } = source(async args => ({ content: `got ${String(args.x)}`, isError: false }))
  const set = await collectToolSet([['s', src]], {})
  t.same(await set.call({ id: '1', name: 'tool', arguments: { x: 7 } }, { timeoutMs: 5000 }), { content: 'got 7', isError: false })
  t.equal(seen[0].timeoutMs, 5000)
  t.equal(seen[0].signal?.aborted, false, 'not aborted once the call is over')
})

t.test('a tool that throws becomes an error result naming it', async t => {
  const { src } = source(async () => { throw new Error('kaboom') })
  const set = await collectToolSet([['s', src]], {})
  t.same(await set.call({ id: '1', name: 'tool', arguments: {} }, { timeoutMs: 5000 }), { content: 'Tool "tool" failed: kaboom', isError: true })
})

t.test('a tool that throws synchronously is an error result too', async t => {
  const src: ToolSource = { id: 's', listTools: () => [{ name: 'tool', description: '', input_schema: {}, server: 's' }], callTool: () => { throw new Error('sync boom') } }
  const set = await collectToolSet([['s', src]], {})
  t.same(await set.call({ id: '1', name: 'tool', arguments: {} }, { timeoutMs: 5000 }), { content: 'Tool "tool" failed: sync boom', isError: true })
})

t.test('a tool past its limit: a timeout result, and its signal aborted with a TimeoutError', async t => {
  const { src, seen } = source(hang)
  const set = await collectToolSet([['s', src]], {})
  // The tool never answers, so any answer at all proves the limit (no upper time bound checked).
  t.same(await set.call({ id: '1', name: 'tool', arguments: {} }, { timeoutMs: 30 }), { content: 'Tool "tool" timed out after 30 ms.', isError: true })
  t.equal(seen[0].signal?.aborted, true)
  t.equal((seen[0].signal?.reason as Error).name, 'TimeoutError')
})

t.test('a late answer after the limit is ignored', async t => {
  let answer: ((r: ToolResult) => void) | undefined
  const { src } = source(async () => await new Promise<ToolResult>(resolve => { answer = resolve }))
  const set = await collectToolSet([['s', src]], {})
  const r = await set.call({ id: '1', name: 'tool', arguments: {} }, { timeoutMs: 20 })
  answer?.({ content: 'too late', isError: false })
  t.same(r, { content: 'Tool "tool" timed out after 20 ms.', isError: true })
})

t.test("the caller's abort rejects with its reason and aborts the tool's signal", async t => {
  const { src, seen } = source(hang)
  const set = await collectToolSet([['s', src]], {})
  const caller = new AbortController()
  const p = set.call({ id: '1', name: 'tool', arguments: {} }, { signal: caller.signal, timeoutMs: 60_000 })
  caller.abort(new Error('user stopped'))
  await t.rejects(p, { message: 'user stopped' })
  t.equal(seen[0].signal?.aborted, true)
})

t.test('a caller already aborted: rejected before the tool runs', async t => {
  const { src, seen } = source(async () => ({ content: 'ran', isError: false }))
  const set = await collectToolSet([['s', src]], {})
  const caller = new AbortController()
  caller.abort(new Error('gone'))
  await t.rejects(set.call({ id: '1', name: 'tool', arguments: {} }, { signal: caller.signal, timeoutMs: 1000 }), { message: 'gone' })
  t.equal(seen.length, 0)
})

t.test('a tool that fails because the caller aborted rejects rather than reporting a failure', async t => {
  const caller = new AbortController()
  const { src } = source(async () => { caller.abort(new Error('stop')); throw new Error('interrupted') })
  const set = await collectToolSet([['s', src]], {})
  await t.rejects(set.call({ id: '1', name: 'tool', arguments: {} }, { signal: caller.signal, timeoutMs: 1000 }))
})

t.test("the caller's signal is let go once the call settled", async t => {
  const { src } = source(async () => ({ content: 'ok', isError: false }))
  const set = await collectToolSet([['s', src]], {})
  const caller = new AbortController()
  await set.call({ id: '1', name: 'tool', arguments: {} }, { signal: caller.signal, timeoutMs: 1000 })
  t.equal(getEventListeners(caller.signal, 'abort').length, 0)
})

t.test('an unknown tool: an error result listing the available ones', async t => {
  const { src } = source(async () => ({ content: '', isError: false }))
  const set = await collectToolSet([['s', src]], {})
  t.same(await set.call({ id: '1', name: 'nope', arguments: {} }, { timeoutMs: 1000 }), { content: 'Tool "nope" is not available. Available tools: tool.', isError: true })
})
