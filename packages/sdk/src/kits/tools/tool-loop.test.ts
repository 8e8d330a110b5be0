// runToolLoop on its own (as agent mode's ReAct uses it), with an in-process provider
// and tool source: no HTTP, so each test pins one rule of the loop.
import t from 'tap'
import { DEFAULT_CAPABILITIES } from '../provider/index.ts'
import { setTimeout as sleep } from 'node:timers/promises'
import type { CompletionRequest, CompletionResult, Provider, StreamPart, ToolDefinition } from '../../contracts/provider.ts'
import type { ToolAfterPayload, ToolSource } from '../../contracts/tool-source.ts'
import { Hooks } from '../../kernel/hooks.ts'
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

// ---- rule by rule (issue 22, mutation testing) -------------------------------------

const go = [{ role: 'user' as const, content: 'go' }]
const lookup: ToolDefinition = { name: 'lookup', description: 'the client runs it', input_schema: { type: 'object' } }

t.test('without tools: a plain completion, no tools in the request, nothing flagged', async t => {
  const provider = scripted(() => ({ content: 'plain' }))
  const r = await runToolLoop({ provider, model: 'm', messages: go, stream: false, toolTimeoutMs: 1000 })
  t.notOk('tools' in provider.requests[0], 'no tools key at all')
  t.match(r, { answer: 'plain', thinking: '', has_thinking: false, provider_calls: 1, tool_rounds: 0, hit_round_cap: false })
  t.same(r.tools_used, [])
  t.same(r.client_tool_calls, [])
  t.same(r.messages, [{ role: 'assistant', content: 'plain' }], 'no thinking key on a reply without thinking')
})

t.test('stream picks the provider method: stream() when true, complete() when false', async t => {
  for (const stream of [false, true]) {
    const provider: Provider = {
      ...scripted(() => ({})),
      complete: async req => ({ content: 'from complete', finish_reason: 'stop', tool_calls: [], model: req.model, usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }),
      stream: async function * (req): AsyncGenerator<StreamPart> {
        yield { type: 'text-delta', delta: 'from stream' }
        yield { type: 'finish', finish_reason: 'stop', usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, model: req.model }
      },
    }
    const r = await runToolLoop({ provider, model: 'm', messages: go, stream, toolTimeoutMs: 1000 })
    t.equal(r.answer, stream ? 'from stream' : 'from complete')
  }
})

t.test('the events of a loop, in order, with their rounds, kinds and usage', async t => {
  for (const stream of [false, true]) {
    const provider = scripted((_req, call) => call === 0
      ? { content: '<think>plan</think>Checking.', tool_calls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }] }
      : { content: 'Done.', usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 } })
    const events: LoopEvent[] = []
    await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), stream, toolTimeoutMs: 1000, onEvent: e => { events.push(e) } })
    const joined = events.reduce<Array<Record<string, unknown>>>((all, e) => {
      const last = all.at(-1)
      // Streamed text arrives in several pieces: joined per kind and round to compare.
      if ((e.type === 'text' || e.type === 'thinking') && last !== undefined && last.type === e.type && last.round === e.round) last.text = `${last.text as string}${e.text}`
      else all.push(e.type === 'tool_result' ? { type: e.type, call: e.call.id, result: e.result, round: e.round } : e.type === 'tool_call' ? { type: e.type, call: e.call.id, round: e.round } : { ...e })
      return all
    }, [])
    t.same(joined, [
      { type: 'thinking', text: 'plan', round: 0 },
      { type: 'text', text: 'Checking.', round: 0 },
      { type: 'round', round: 0, finish_reason: 'tool_calls', tool_calls: 1, usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
      { type: 'tool_call', call: 'c1', round: 0 },
      { type: 'tool_result', call: 'c1', result: { content: 'hi', isError: false }, round: 0 },
      { type: 'text', text: 'Done.', round: 1 },
      { type: 'round', round: 1, finish_reason: 'stop', tool_calls: 0, usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 } },
    ], `stream: ${stream}`)
  }
})

t.test('a slow event consumer holds the loop: each event is handled before the next one starts (back-pressure)', async t => {
  for (const stream of [false, true]) {
    const log: string[] = []
    const provider = scripted(() => ({ content: 'A<think>B</think>C' }))
    const onEvent = async (e: LoopEvent): Promise<void> => {
      if (e.type !== 'text' && e.type !== 'thinking') return
      log.push(`start ${e.text}`)
      await new Promise(resolve => setImmediate(resolve)) // every pending promise job runs meanwhile
      log.push(`end ${e.text}`)
    }
    const r = await runToolLoop({ provider, model: 'm', messages: go, stream, toolTimeoutMs: 1000, onEvent })
    t.same(log, ['start A', 'end A', 'start B', 'end B', 'start C', 'end C'], `stream: ${stream}`)
    t.equal(r.answer, 'AC')
  }
})

t.test('a slow event consumer holds the provider stream: no part is pulled while an event is handled', async t => {
  const log: string[] = []
  const provider: Provider = {
    ...scripted(() => ({})),
    stream: async function * (req): AsyncGenerator<StreamPart> {
      for (const delta of ['one ', 'two ', 'three']) { log.push(`pull ${delta.trim()}`); yield { type: 'text-delta', delta } }
      yield { type: 'finish', finish_reason: 'stop', usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, model: req.model }
    },
  }
  const onEvent = async (e: LoopEvent): Promise<void> => {
    if (e.type !== 'text') return
    await new Promise(resolve => setImmediate(resolve))
    log.push(`handled ${e.text.trim()}`)
  }
  await runToolLoop({ provider, model: 'm', messages: go, stream: true, toolTimeoutMs: 1000, onEvent })
  t.same(log, ['pull one', 'handled one', 'pull two', 'handled two', 'pull three', 'handled three'])
})

t.test('a stream without a finish part: the finish reason follows the tool calls, usage counts as zero', async t => {
  for (const withCall of [true, false]) {
    const rounds: LoopEvent[] = []
    const provider: Provider = {
      ...scripted(() => ({})),
      stream: async function * (req): AsyncGenerator<StreamPart> {
        if (withCall && req.tools !== undefined && req.messages.length === 1) yield { type: 'tool-call', call: { id: 'c', name: 'echo', arguments: { text: 'x' } } }
        else yield { type: 'text-delta', delta: 'ok' }
      },
    }
    const r = await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), stream: true, toolTimeoutMs: 1000, onEvent: e => { if (e.type === 'round') rounds.push(e) } })
    t.same(rounds.map(e => e.type === 'round' ? e.finish_reason : null), withCall ? ['tool_calls', 'stop'] : ['stop'])
    t.same(r.usage, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })
    t.same(rounds.map(e => e.type === 'round' ? e.usage : null), rounds.map(() => ({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })))
  }
})

t.test('a reply without usage adds nothing and is reported as zero', async t => {
  const provider = scripted((_req, call) => call === 0 ? { usage: undefined, tool_calls: [{ id: 'c', name: 'echo', arguments: { text: 'x' } }] } : { content: 'ok' })
  const rounds: LoopEvent[] = []
  const r = await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), stream: false, toolTimeoutMs: 1000, onEvent: e => { if (e.type === 'round') rounds.push(e) } })
  t.same(r.usage, { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })
  t.same(rounds[0].type === 'round' && rounds[0].usage, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })
})

t.test('usage is estimated when any reply\'s usage was, whichever call it was', async t => {
  for (const estimatedCall of [0, 1, -1]) {
    const provider = scripted((_req, call) => ({
      ...(call === 0 ? { tool_calls: [{ id: 'c', name: 'echo', arguments: { text: 'x' } }] } : { content: 'ok' }),
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, ...(call === estimatedCall ? { estimated: true } : {}) },
    }))
    const r = await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), stream: false, toolTimeoutMs: 1000 })
    t.same(r.usage, { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4, ...(estimatedCall >= 0 ? { estimated: true } : {}) }, `estimated on call ${estimatedCall}`)
  }
})

t.test('the model is the one the upstream reported, or the requested one when it reported none', async t => {
  for (const stream of [false, true]) {
    t.equal((await runToolLoop({ provider: scripted(() => ({ content: 'x', model: 'm-2026' })), model: 'm', messages: go, stream, toolTimeoutMs: 1000 })).model, 'm-2026')
  }
  t.equal((await runToolLoop({ provider: scripted(() => ({ content: 'x', model: '' })), model: 'm', messages: go, stream: false, toolTimeoutMs: 1000 })).model, 'm')
})

t.test('thinking of every reply is joined by a blank line; a reply without any adds nothing', async t => {
  const provider = scripted((_req, call) => [
    { content: '<think>one</think>', tool_calls: [{ id: 'a', name: 'echo', arguments: { text: 'x' } }] },
    { content: 'no thinking here', tool_calls: [{ id: 'b', name: 'echo', arguments: { text: 'y' } }] },
    { content: '<think>three</think>Done.' },
  ][call])
  const r = await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), stream: false, toolTimeoutMs: 1000 })
  t.equal(r.thinking, 'one\n\nthree')
  t.same(r.messages[2], { role: 'assistant', content: 'no thinking here', tool_calls: [{ id: 'b', name: 'echo', arguments: { text: 'y' } }] })
})

t.test('a signature without native reasoning text (or an empty one) does not make tag thinking signed', async t => {
  for (const stream of [false, true]) {
    for (const signature of ['sig', '']) {
      const provider = scripted((_req, call) => call === 0
        ? { thinking_signature: signature, content: '<think>tagged</think>', tool_calls: [{ id: 'c', name: 'echo', arguments: { text: 'x' } }] }
        : { content: 'ok' })
      await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), stream, toolTimeoutMs: 1000 })
      const replayed = provider.requests[1].messages.find(m => m.role === 'assistant')
      t.same(replayed, { role: 'assistant', content: '', tool_calls: [{ id: 'c', name: 'echo', arguments: { text: 'x' } }], thinking: 'tagged' }, `stream: ${stream}, signature ${JSON.stringify(signature)}`)
    }
  }
  const provider = scripted((_req, call) => call === 0
    ? { thinking: 'native', thinking_signature: '', content: '', tool_calls: [{ id: 'c', name: 'echo', arguments: { text: 'x' } }] }
    : { content: 'ok' })
  await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), stream: false, toolTimeoutMs: 1000 })
  t.notOk('thinking_signature' in provider.requests[1].messages[1], 'an empty signature signs nothing')
  const unsigned = scripted((_req, call) => call === 0
    ? { thinking: '  native  ', content: '', tool_calls: [{ id: 'c', name: 'echo', arguments: { text: 'x' } }] }
    : { content: 'ok' })
  await runToolLoop({ provider: unsigned, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), stream: false, toolTimeoutMs: 1000 })
  t.same(unsigned.requests[1].messages[1], { role: 'assistant', content: '', tool_calls: [{ id: 'c', name: 'echo', arguments: { text: 'x' } }], thinking: 'native' }, 'unsigned native reasoning is kept as extracted, with no signature')
})

t.test('encrypted reasoning alone binds the message to the requested model', async t => {
  const provider = scripted((_req, call) => call === 0
    ? { model: 'claude-x-20260101', thinking_redacted: ['opaque=='], content: '', tool_calls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }] }
    : { content: 'Done.' })
  await runToolLoop({ provider, model: 'claude-x', messages: go, tools: await collectToolSet([['echo', echo]], {}), stream: false, toolTimeoutMs: 1000 })
  t.equal(provider.requests[1].messages[1].thinking_model, 'claude-x')
})

t.test('a call to a client tool ends the loop and is handed back, not run', async t => {
  for (const stream of [false, true]) {
    const ran: string[] = []
    const counting: ToolSource = { ...echo, callTool: async (name, args) => { ran.push(name); return await echo.callTool(name, args, { timeoutMs: 1000 }) } }
    const provider = scripted(() => ({ content: 'Let me look.', tool_calls: [{ id: 's', name: 'echo', arguments: { text: 'x' } }, { id: 'c', name: 'lookup', arguments: { q: 'y' } }] }))
    const r = await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', counting]], {}), clientTools: [lookup], stream, toolTimeoutMs: 1000 })
    t.same(provider.requests[0].tools?.map(d => d.name), ['echo', 'other', 'lookup'], 'offered beside the server\'s tools')
    t.same(r.client_tool_calls, [{ id: 'c', name: 'lookup', arguments: { q: 'y' } }], `stream: ${stream}: only the client tool's call`)
    t.same(ran, [], 'nothing ran on the server')
    t.match(r, { provider_calls: 1, tool_rounds: 0, answer: 'Let me look.', finish_reason: 'tool_calls' })
    t.same(r.messages, [{ role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 's', name: 'echo', arguments: { text: 'x' } }, { id: 'c', name: 'lookup', arguments: { q: 'y' } }] }], 'the assistant message keeps every call')
  }
})

t.test('a client tool hides the server\'s tool of the same name', async t => {
  const ran: string[] = []
  const counting: ToolSource = { ...echo, callTool: async name => { ran.push(name); return { content: 'server', isError: false } } }
  const mine: ToolDefinition = { name: 'echo', description: 'the client\'s echo', input_schema: { type: 'object' } }
  const provider = scripted(() => ({ tool_calls: [{ id: 'c', name: 'echo', arguments: {} }] }))
  const r = await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', counting]], {}), clientTools: [mine], stream: false, toolTimeoutMs: 1000 })
  t.same(provider.requests[0].tools, [{ name: 'other', description: 'x', input_schema: { type: 'object' } }, mine])
  t.same(r.client_tool_calls.map(c => c.id), ['c'])
  t.same(ran, [])
})

t.test('client tools alone are tools: offered, and a call to one comes back', async t => {
  const provider = scripted(() => ({ tool_calls: [{ id: 'c', name: 'lookup', arguments: {} }] }))
  const r = await runToolLoop({ provider, model: 'm', messages: go, clientTools: [lookup], stream: false, toolTimeoutMs: 1000 })
  t.same(provider.requests[0].tools, [lookup])
  t.same(r.client_tool_calls.map(c => c.name), ['lookup'])
})

t.test('past the round cap a client tool call is not handed back (no tools were offered)', async t => {
  const provider = scripted(req => req.tools !== undefined ? { tool_calls: [{ id: 'e', name: 'echo', arguments: { text: 'x' } }] } : { content: 'final', tool_calls: [{ id: 'c', name: 'lookup', arguments: {} }] })
  const r = await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), clientTools: [lookup], maxToolRounds: 1, stream: false, toolTimeoutMs: 1000 })
  t.match(r, { answer: 'final', hit_round_cap: true })
  t.same(r.client_tool_calls, [])
  t.same(r.messages.at(-1), { role: 'assistant', content: 'final' }, 'the ignored calls are not kept')
})

t.test('tool hooks: tool:before may change the arguments; tool:after gets the caller\'s context (or none) and may change the result', async t => {
  for (const toolContext of [undefined, { conversation_id: 'conv-1', channel: 'work', use_memory: true }]) {
    const hooks = new Hooks()
    hooks.declare('tool:before', 'tool:after')
    const seen: ToolAfterPayload[] = []
    hooks.on('tool:before', p => ({ ...p, arguments: { text: `${String(p.arguments.text)}!` } }))
    hooks.on('tool:after', p => { seen.push(p); return { ...p, result: { content: `${p.result.content} (checked)`, isError: false } } })
    const provider = scripted((_req, call) => call === 0 ? { tool_calls: [{ id: 'c', name: 'echo', arguments: { text: 'hi' } }] } : { content: 'ok' })
    const r = await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), hooks, toolContext, stream: false, toolTimeoutMs: 1000 })
    t.match(seen, [{ tool: 'echo', arguments: { text: 'hi!' }, result: { content: 'hi!' }, ...(toolContext ?? { conversation_id: null, channel: null, use_memory: false }) }])
    t.equal(r.messages[1].content, 'hi! (checked)')
  }
})

t.test('a tool call that throws (here in a hook) becomes an error result naming the tool; the loop goes on', async t => {
  const hooks = new Hooks()
  hooks.declare('tool:before', 'tool:after')
  hooks.on('tool:before', p => {
    const how = p.arguments.text
    if (how === 'error') throw new Error('boom')
    if (how === 'string') throw 'nope'
    if (how === 'null') throw null
  })
  const provider = scripted((_req, call) => call === 0 ? { tool_calls: ['error', 'string', 'null'].map(text => ({ id: text, name: 'echo', arguments: { text } })) } : { content: 'ok' })
  const results: unknown[] = []
  const r = await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), hooks, stream: false, toolTimeoutMs: 1000, onEvent: e => { if (e.type === 'tool_result') results.push(e.result) } })
  t.same(results, [
    { content: 'Tool "echo" failed: boom', isError: true },
    { content: 'Tool "echo" failed: nope', isError: true },
    { content: 'Tool "echo" failed: null', isError: true },
  ])
  t.same(r.messages.filter(m => m.role === 'tool').map(m => m.content), ['Error: Tool "echo" failed: boom', 'Error: Tool "echo" failed: nope', 'Error: Tool "echo" failed: null'])
  t.equal(r.answer, 'ok')
})

t.test('a tool call that fails because the caller went away reports no result and ends the loop', async t => {
  const ctl = new AbortController()
  const hooks = new Hooks()
  hooks.declare('tool:before', 'tool:after')
  hooks.on('tool:before', () => { ctl.abort(new Error('caller went away')); throw new Error('hook saw the abort') })
  const events: string[] = []
  const provider = scripted(() => ({ tool_calls: [{ id: 'c', name: 'echo', arguments: { text: 'x' } }] }))
  await t.rejects(runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['echo', echo]], {}), hooks, signal: ctl.signal, stream: false, toolTimeoutMs: 1000, onEvent: e => { events.push(e.type) } }), /caller went away/)
  t.same(events, ['round', 'tool_call'], 'no tool_result for the abandoned call')
})

t.test('each tool call gets the per-call time limit', async t => {
  const hangs: ToolSource = { id: 'h', listTools: () => [{ name: 'hang', description: '', input_schema: {}, server: 'h' }], callTool: async () => await new Promise(() => undefined) }
  const provider = scripted((_req, call) => call === 0 ? { tool_calls: [{ id: 'h', name: 'hang', arguments: {} }] } : { content: 'ok' })
  // The tool never ends: only its time limit gives the loop a result.
  const r = await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['h', hangs]], {}), stream: false, toolTimeoutMs: 50 })
  t.equal(r.messages[1].content, 'Error: Tool "hang" timed out after 50 ms.')
})

t.test('a tool result reports how long the tool ran, in ms with two decimals', async t => {
  const slow: ToolSource = { id: 's', listTools: () => [{ name: 'slow', description: '', input_schema: {}, server: 's' }], callTool: async () => { await sleep(60); return { content: 'done', isError: false } } }
  const provider = scripted((_req, call) => call === 0 ? { tool_calls: [{ id: 's', name: 'slow', arguments: {} }] } : { content: 'ok' })
  let duration = -1
  const started = performance.now()
  await runToolLoop({ provider, model: 'm', messages: go, tools: await collectToolSet([['s', slow]], {}), stream: false, toolTimeoutMs: 60_000, onEvent: e => { if (e.type === 'tool_result') duration = e.duration_ms } })
  const took = performance.now() - started
  // Lower bound only: the tool slept 60 ms (a timer may fire a little early on its ms grid).
  t.ok(duration >= 55 && duration <= took, `${duration} ms, at least the tool's sleep and within the loop (${Math.round(took)} ms)`)
  t.equal(Math.round(duration * 100) / 100, duration, 'rounded to two decimals')
})
