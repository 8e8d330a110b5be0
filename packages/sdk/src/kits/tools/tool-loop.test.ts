// runToolLoop on its own (as agent mode's ReAct uses it), with an in-process provider
// and tool source: no HTTP, so each test pins one rule of the loop.
import t from 'tap'
import { DEFAULT_CAPABILITIES } from '../provider/index.ts'
import type { CompletionRequest, CompletionResult, Provider, StreamPart } from '../../contracts/provider.ts'
import type { ToolSource } from '../../contracts/tool-source.ts'
import { runToolLoop, type LoopEvent } from './tool-loop.ts'
import { collectToolSet } from './tool-set.ts'

type Script = (req: CompletionRequest, call: number) => Partial<CompletionResult>

function scripted (script: Script): Provider & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = []
  const complete = async (req: CompletionRequest): Promise<CompletionResult> => {
    requests.push(structuredClone(req))
    const r = script(req, requests.length - 1)
    return { content: '', finish_reason: (r.tool_calls?.length ?? 0) > 0 ? 'tool_calls' : 'stop', tool_calls: [], model: req.model, usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }, ...r }
  }
  return {
    id: 'scripted',
    requests,
    status: () => ({ status: 'configured' }),
    listModels: async () => [],
    capabilities: () => ({ ...DEFAULT_CAPABILITIES, supports_tools: true }),
    complete,
    stream: async function * (req): AsyncGenerator<StreamPart> {
      const r = await complete(req)
      for (const piece of r.thinking?.match(/.{1,3}/gs) ?? []) yield { type: 'reasoning-delta', delta: piece }
      for (const piece of r.content.match(/.{1,3}/gs) ?? []) yield { type: 'text-delta', delta: piece }
      for (const call of r.tool_calls) yield { type: 'tool-call', call }
      if (r.thinking_signature !== undefined) yield { type: 'reasoning-signature', signature: r.thinking_signature }
      for (const data of r.thinking_redacted ?? []) yield { type: 'reasoning-redacted', data }
      yield { type: 'finish', finish_reason: r.finish_reason, usage: r.usage, model: r.model }
    },
    health: async () => ({ status: 'healthy' }),
  }
}

const echo: ToolSource = {
  id: 'echo',
  listTools: () => [{ name: 'echo', description: 'echoes', input_schema: { type: 'object' }, server: 'echo' }, { name: 'other', description: 'x', input_schema: { type: 'object' }, server: 'echo' }],
  callTool: async (_name, args) => ({ content: String(args.text), isError: false }),
}

t.test('streamed and completed replies give the same result, usage summed over calls', async t => {
  for (const stream of [false, true]) {
    const provider = scripted((_req, call) => call === 0
      ? { content: '<think>plan</think>Checking.', tool_calls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }] }
      : { content: 'Done: hi' })
    const tools = await collectToolSet([['echo', echo]], {})
    const events: LoopEvent[] = []
    const r = await runToolLoop({ provider, model: 'm', messages: [{ role: 'user', content: 'go' }], tools, stream, toolTimeoutMs: 1000, onEvent: (e) => { events.push(e) } })
    t.match(r, { answer: 'Done: hi', thinking: 'plan', has_thinking: true, provider_calls: 2, tool_rounds: 1, tools_used: ['echo'], hit_round_cap: false, finish_reason: 'stop' }, `stream: ${stream}`)
    t.same(r.usage, { prompt_tokens: 2, completion_tokens: 4, total_tokens: 6 })
    t.same(r.messages.map(m => m.role), ['assistant', 'tool', 'assistant'])
    t.equal(r.messages[0].content, 'Checking.', 'the stored assistant message has no thinking in its content')
    t.same(events.filter(e => e.type === 'tool_call' || e.type === 'tool_result').map(e => e.type), ['tool_call', 'tool_result'])
  }
})

t.test('the cap: maxToolRounds rounds with tools, then one call without, flagged', async t => {
  const provider = scripted(req => req.tools !== undefined ? { tool_calls: [{ id: 'x', name: 'echo', arguments: { text: 'again' } }] } : { content: 'forced answer' })
  const r = await runToolLoop({ provider, model: 'm', messages: [{ role: 'user', content: 'go' }], tools: await collectToolSet([['echo', echo]], {}), maxToolRounds: 3, stream: false, toolTimeoutMs: 1000 })
  t.equal(provider.requests.length, 4)
  t.same(provider.requests.map(q => q.tools === undefined), [false, false, false, true])
  t.match(r, { answer: 'forced answer', tool_rounds: 3, hit_round_cap: true })
})

t.test('fit shapes every request; the caller\'s messages are not changed', async t => {
  const provider = scripted((_req, call) => call === 0 ? { tool_calls: [{ id: 'a', name: 'echo', arguments: { text: 'x' } }] } : { content: 'ok' })
  const messages = [{ role: 'system' as const, content: 'S' }, { role: 'user' as const, content: 'old' }, { role: 'user' as const, content: 'new' }]
  await runToolLoop({
    provider, model: 'm', messages, tools: await collectToolSet([['echo', echo]], {}), stream: false, toolTimeoutMs: 1000,
    fit: (all) => all.filter(m => m.content !== 'old'),
  })
  t.same(provider.requests[1].messages.map(m => m.content), ['S', 'new', '', 'x'])
  t.equal(messages.length, 3)
})

t.test('allowed and blocked lists narrow the tool set', async t => {
  t.same((await collectToolSet([['echo', echo]], { allowed: ['echo', 'other'], blocked: ['other'] })).definitions.map(d => d.name), ['echo'])
  t.same((await collectToolSet([['echo', echo]], { allowed: ['other'] })).definitions.map(d => d.name), ['other'])
  const broken: ToolSource = { id: 'broken', listTools: () => { throw new Error('down') }, callTool: async () => ({ content: '', isError: true }) }
  const failures: string[] = []
  const set = await collectToolSet([['broken', broken], ['echo', echo]], {}, (source) => { failures.push(source) })
  t.same(set.definitions.map(d => d.name), ['echo', 'other'], 'a source that fails to list is skipped')
  t.same(failures, ['broken'])
})

t.test('a call to a tool not on offer is refused to the model and not listed in tools_used', async t => {
  const provider = scripted((_req, call) => call === 0
    ? { tool_calls: [{ id: 'b', name: 'other', arguments: {} }, { id: 'm', name: 'made_up', arguments: {} }, { id: 'e', name: 'echo', arguments: { text: 'x' } }] }
    : { content: 'ok' })
  const tools = await collectToolSet([['echo', echo]], { blocked: ['other'] })
  const r = await runToolLoop({ provider, model: 'm', messages: [{ role: 'user', content: 'go' }], tools, stream: false, toolTimeoutMs: 1000 })
  t.same(r.tools_used, ['echo'])
  t.same(r.messages.filter(m => m.role === 'tool').map(m => m.content.startsWith('Error:')), [true, true, false], 'the refused calls get error results')
})

t.test('signed native reasoning goes back to the provider verbatim with its signature', async t => {
  for (const stream of [false, true]) {
    const provider = scripted((_req, call) => call === 0
      ? { thinking: '  I should echo.\n', thinking_signature: 'sig-1', content: 'Echoing.', tool_calls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }] }
      : { content: '<think>tagged</think>Done.' })
    const r = await runToolLoop({ provider, model: 'm', messages: [{ role: 'user', content: 'go' }], tools: await collectToolSet([['echo', echo]], {}), stream, toolTimeoutMs: 1000 })
    const replayed = provider.requests[1].messages.find(m => m.role === 'assistant')
    t.match(replayed, { thinking: '  I should echo.\n', thinking_signature: 'sig-1', tool_calls: [{ name: 'echo' }] }, `stream: ${stream}`)
    t.equal(r.thinking, 'I should echo.\n\ntagged', 'the reported thinking is still normalised')
    t.same(r.messages.at(-1), { role: 'assistant', content: 'Done.', thinking: 'tagged' }, 'unsigned thinking is kept as extracted')
  }
})

t.test('encrypted reasoning goes back to the provider with the tool calls, with or without signed text', async t => {
  for (const stream of [false, true]) {
    for (const signed of [true, false]) {
      const provider = scripted((_req, call) => call === 0
        ? { ...(signed ? { thinking: 'seen', thinking_signature: 'sig-2' } : {}), thinking_redacted: ['opaque=='], content: '', tool_calls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }] }
        : { content: 'Done.' })
      await runToolLoop({ provider, model: 'm', messages: [{ role: 'user', content: 'go' }], tools: await collectToolSet([['echo', echo]], {}), stream, toolTimeoutMs: 1000 })
      const replayed = provider.requests[1].messages.find(m => m.role === 'assistant')
      t.same(replayed?.thinking_redacted, ['opaque=='], `stream: ${stream}, signed: ${signed}`)
      t.equal(replayed?.thinking_signature, signed ? 'sig-2' : undefined)
    }
  }
})

t.test('an abort stops the loop with the abort reason', async t => {
  const ctl = new AbortController()
  // The caller goes away while the tool runs (the tool never ends by itself).
  const slow: ToolSource = { id: 's', listTools: () => [{ name: 'wait', description: '', input_schema: {}, server: 's' }], callTool: async () => { ctl.abort(new Error('caller went away')); return await new Promise(() => undefined) } }
  const provider = scripted(() => ({ tool_calls: [{ id: 'w', name: 'wait', arguments: {} }] }))
  await t.rejects(runToolLoop({ provider, model: 'm', messages: [{ role: 'user', content: 'go' }], tools: await collectToolSet([['s', slow]], {}), stream: false, toolTimeoutMs: 60_000, signal: ctl.signal }), /caller went away/)
  t.equal(provider.requests.length, 1)
})

t.test('signed reasoning is marked with the model id the request named, not the one the provider reported', async t => {
  for (const stream of [false, true]) {
    const provider = scripted((_req, call) => call === 0
      ? { model: 'claude-x-20260101', thinking: 'plan', thinking_signature: 'sig-3', content: '', tool_calls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }] }
      : { content: '<think>unsigned</think>Done.' })
    const r = await runToolLoop({ provider, model: 'claude-x', messages: [{ role: 'user', content: 'go' }], tools: await collectToolSet([['echo', echo]], {}), stream, toolTimeoutMs: 1000 })
    const replayed = provider.requests[1].messages.find(m => m.role === 'assistant')
    t.equal(replayed?.thinking_model, 'claude-x', `stream: ${stream}: the next call of the loop names the same id, so it gets the reasoning back`)
    t.notOk('thinking_model' in r.messages.at(-1)!, 'reasoning extracted from tags is bound to no model')
  }
})
