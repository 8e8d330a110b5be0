// POST /api/agent/chat through the real OpenAI-compatible provider against the scripted
// fake upstream: sessions, thinking, the tool loop, input errors.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { startChat, MODEL } from './helpers.ts'
import { toolJournal } from './fixtures/test-tools/index.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

async function chat (s: Awaited<ReturnType<typeof startChat>>['s'], body: unknown): Promise<{ status: number, body: Json }> {
  const res = await s.post('/api/agent/chat', body)
  return { status: res.status, body: await res.json() as Json }
}

t.test('a three-turn session keeps its context, and the response has every field', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ text: 'Hello Ada.' }, { text: 'You are Ada.' }, { text: 'Ada, in Lovelace.' })
  const first = await chat(s, { message: 'My name is Ada.' })
  t.equal(first.status, 200)
  const sid = first.body.session_id as string
  t.match(sid, /^[0-9a-f-]{36}$/, 'a new session id is generated')
  t.same(Object.keys(first.body).sort(), ['answer', 'has_thinking', 'model', 'provider', 'reasoning_steps', 'reasoning_trace', 'response', 'session_id', 'status', 'task_id', 'thinking', 'tokens_used', 'tools_used', 'total_time_ms', 'total_tokens', 'usage'].sort())
  t.match(first.body, {
    status: 'complete', response: 'Hello Ada.', answer: 'Hello Ada.', thinking: '', has_thinking: false,
    reasoning_steps: 1, reasoning_trace: 1, provider: 'openai', model: MODEL, tools_used: [],
    usage: { prompt_tokens: Number, completion_tokens: Number, total_tokens: Number },
  })
  t.match(first.body.task_id, /^[0-9a-f]{8}$/)
  t.equal(first.body.tokens_used, first.body.usage.total_tokens)
  t.equal(first.body.total_tokens, first.body.usage.total_tokens)
  t.ok(first.body.total_time_ms > 0)

  await chat(s, { message: 'What is my name?', session_id: sid })
  const third = await chat(s, { message: 'And my surname?', session_id: sid })
  t.equal(third.body.answer, 'Ada, in Lovelace.')
  const sent = fake.completions[2].body.messages as Array<{ role: string, content: string }>
  t.same(sent.map(m => m.role), ['system', 'user', 'assistant', 'user', 'assistant', 'user'])
  t.same(sent.slice(1).map(m => m.content), ['My name is Ada.', 'Hello Ada.', 'What is my name?', 'You are Ada.', 'And my surname?'])
  t.equal(fake.completions[2].body.model, MODEL)
  t.equal(fake.completions[2].body.temperature, 0.7, 'default temperature')

  const other = await chat(s, { message: 'Fresh start', session_id: randomUUID() })
  t.equal(other.status, 200)
  t.same((fake.completions[3].body.messages as Array<{ role: string }>).map(m => m.role), ['system', 'user'], 'an unknown session id starts empty')
})

t.test('think blocks land in thinking; native reasoning is merged in', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ text: '<think>\n2 + 2 is 4\n</think>\n\nThe answer is 4.' })
  const r = await chat(s, { message: 'What is 2 + 2?' })
  t.match(r.body, { answer: 'The answer is 4.', response: 'The answer is 4.', thinking: '2 + 2 is 4', has_thinking: true })
  fake.enqueue({ text: '<reasoning>tagged</reasoning>Done.', thinking: 'native first', thinkingField: 'reasoning_content' })
  const r2 = await chat(s, { message: 'again', session_id: r.body.session_id })
  t.match(r2.body, { answer: 'Done.', thinking: 'native first\n\ntagged', has_thinking: true })
  const history = fake.completions[1].body.messages as Array<{ role: string, content: string }>
  t.equal(history[2].content, 'The answer is 4.', 'the session keeps the answer without its thinking')
})

t.test('a two-round tool loop runs one round\'s calls concurrently and feeds results back in order', async t => {
  const { s, fake } = await startChat(t)
  toolJournal().length = 0
  fake.enqueue(
    { tool_calls: [{ id: 'a1', name: 'slow_echo', arguments: { text: 'alpha', ms: 300 } }, { id: 'b1', name: 'slow_echo', arguments: { text: 'beta', ms: 300 } }] },
    { text: 'One more.', tool_calls: [{ id: 'c1', name: 'slow_echo', arguments: { text: 'gamma', ms: 0 } }] },
    { text: 'Results: alpha, beta, gamma.' },
  )
  const r = await chat(s, { message: 'echo things' })
  t.equal(r.status, 200)
  t.equal(r.body.answer, 'Results: alpha, beta, gamma.')
  t.same(r.body.tools_used, ['slow_echo'])
  t.equal(r.body.reasoning_steps, 3, 'three model calls')
  const [a, b] = toolJournal()
  t.ok(b.started < a.ended!, 'the second call of the round started before the first ended')

  t.ok(fake.completions[0].body.tools.some((x: { function: { name: string } }) => x.function.name === 'slow_echo'), 'tools were offered')
  const second = fake.completions[1].body.messages as Json[]
  t.same(second.slice(-3).map(m => m.role), ['assistant', 'tool', 'tool'])
  t.same(second.at(-3)!.tool_calls.map((c: Json) => c.id), ['a1', 'b1'], 'the assistant message carries both calls')
  t.same(second.slice(-2).map(m => [m.tool_call_id, m.content]), [['a1', 'alpha'], ['b1', 'beta']], 'results in call order')
  const third = fake.completions[2].body.messages as Json[]
  t.same(third.slice(-2).map(m => m.role), ['assistant', 'tool'])
  t.equal(third.at(-1)!.content, 'gamma')

  // The session keeps the tool round so the next turn sees it.
  fake.enqueue({ text: 'ok' })
  await chat(s, { message: 'next', session_id: r.body.session_id })
  t.same((fake.completions[3].body.messages as Json[]).map(m => m.role), ['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant', 'user'])
})

t.test('the round cap: ten rounds of tools, then one call without tools', async t => {
  const { s, fake } = await startChat(t)
  fake.fallback = (req) => Array.isArray(req.body.tools) && req.body.tools.length > 0
    ? { tool_calls: [{ name: 'slow_echo', arguments: { text: 'again', ms: 0 } }] }
    : { text: 'Final answer without tools.' }
  const r = await chat(s, { message: 'loop forever' })
  t.equal(r.status, 200)
  t.equal(r.body.answer, 'Final answer without tools.')
  t.equal(fake.completions.length, 11)
  t.ok(fake.completions.slice(0, 10).every(c => c.body.tools?.length > 0), 'the first ten calls offer tools')
  t.equal(fake.completions[10].body.tools, undefined, 'the last call offers none')
  t.equal(r.body.reasoning_steps, 11)
})

t.test('max_tool_rounds is configurable', async t => {
  const { s, fake } = await startChat(t, { chatOptions: { max_tool_rounds: 2 } })
  fake.fallback = (req) => req.body.tools !== undefined ? { tool_calls: [{ name: 'slow_echo', arguments: { text: 'x', ms: 0 } }] } : { text: 'done' }
  const r = await chat(s, { message: 'go' })
  t.equal(r.body.answer, 'done')
  t.equal(fake.completions.length, 3)
})

t.test('a tool that throws or times out becomes an error result for the model; the chat goes on', async t => {
  const { s, fake } = await startChat(t, { chatOptions: { tool_timeout_ms: 150 } })
  fake.enqueue(
    { tool_calls: [{ id: 'e1', name: 'explode', arguments: {} }, { id: 'h1', name: 'hang', arguments: {} }, { id: 'n1', name: 'no_such_tool', arguments: {} }] },
    { text: 'Both tools failed, sorry.' },
  )
  const r = await chat(s, { message: 'try the tools' })
  t.equal(r.status, 200)
  t.equal(r.body.answer, 'Both tools failed, sorry.')
  const tools = (fake.completions[1].body.messages as Json[]).filter(m => m.role === 'tool')
  t.match(tools[0], { tool_call_id: 'e1', content: /^Error: .*kaboom: the tool blew up/ })
  t.match(tools[1], { tool_call_id: 'h1', content: /^Error: .*timed out after 150 ms/ })
  t.match(tools[2], { tool_call_id: 'n1', content: /^Error: Tool "no_such_tool" is not available/ })
})

t.test('a blocked tool is not offered to the model, not described to it, and refused if called', async t => {
  const { s, fake } = await startChat(t, { chatOptions: { blocked_tools: ['secret_tool'] } })
  fake.enqueue({ tool_calls: [{ id: 's1', name: 'secret_tool', arguments: {} }] }, { text: 'no secret' })
  const r = await chat(s, { message: 'tell me the secret' })
  t.equal(r.status, 200)
  const offered = (fake.completions[0].body.tools as Json[]).map(x => x.function.name)
  t.notOk(offered.includes('secret_tool'), `offered: ${offered.join(', ')}`)
  t.ok(offered.includes('slow_echo'))
  const system = (fake.completions[0].body.messages as Json[])[0].content as string
  t.notMatch(system, /secret_tool/)
  t.match(system, /slow_echo/)
  const tool = (fake.completions[1].body.messages as Json[]).find(m => m.role === 'tool')
  t.match(tool, { content: /not available/ })
  t.notMatch(tool?.content, /the secret/)

  fake.enqueue({ text: 'ok' })
  await chat(s, { message: 'only echo', allowed_tools: ['slow_echo', 'secret_tool'] })
  t.same((fake.completions[2].body.tools as Json[]).map(x => x.function.name), ['slow_echo'], 'request allowed_tools narrows; the plugin block still wins')
})

t.test('bad input is a 4xx with the error body, and nothing reaches the model', async t => {
  const { s, fake } = await startChat(t, { env: { AGENT_MAX_CHAT_LENGTH: '50' } })
  const cases: Array<[string, unknown, number, string]> = [
    ['missing message', {}, 400, 'AGENT_ERR_VALIDATION'],
    ['empty message', { message: '' }, 400, 'AGENT_ERR_VALIDATION'],
    ['message not a string', { message: 5 }, 400, 'AGENT_ERR_VALIDATION'],
    ['temperature not a number', { message: 'hi', temperature: 'hot' }, 400, 'AGENT_ERR_VALIDATION'],
    ['temperature out of range', { message: 'hi', temperature: 3 }, 400, 'AGENT_ERR_VALIDATION'],
    ['use_memory not a boolean', { message: 'hi', use_memory: 'yes' }, 400, 'AGENT_ERR_VALIDATION'],
    // An unknown key is ignored (test/interop/leniency.test.ts); a bad known one beside it is not.
    ['a bad known field beside an unknown one', { message: 'hi', stream: true, allowed_tools: 'all' }, 400, 'AGENT_ERR_VALIDATION'],
    ['non-UUID session id', { message: 'hi', session_id: 'abc' }, 400, 'AGENT_ERR_VALIDATION'],
    ['channel longer than memory keeps', { message: 'hi', channel: 'c'.repeat(65) }, 400, 'AGENT_ERR_VALIDATION'],
    ['channel with a path in it', { message: 'hi', channel: '../etc' }, 400, 'AGENT_ERR_VALIDATION'],
    ['the reserved channel _all', { message: 'hi', channel: '_all' }, 400, 'AGENT_ERR_VALIDATION'],
    ['over-long message', { message: 'x'.repeat(51) }, 413, 'AGENT_ERR_CHAT_TOO_LONG'],
    ['unknown provider in the model id', { message: 'hi', model: 'nope/some-model' }, 400, 'AGENT_ERR_PROVIDER_UNKNOWN'],
    ['unknown profile', { message: 'hi', profile_id: 'no-such-profile' }, 404, 'AGENT_ERR_PROMPTS_UNKNOWN_PROFILE'],
  ]
  for (const path of ['/api/agent/chat', '/api/agent/chat/stream']) {
    for (const [name, body, status, code] of cases) {
      const res = await s.post(path, body)
      const json = await res.json() as Json
      t.equal(res.status, status, `${path}: ${name}`)
      t.match(json, { error: String, code, statusCode: status }, `${path}: ${name} body`)
    }
  }
  const long = await s.post('/api/agent/chat', { message: 'x'.repeat(51) })
  t.match(await long.json(), { error: /51 characters.*limit is 50/ }, 'the 413 names the limit')
  const malformed = await s.post('/api/agent/chat', '{"message": ')
  t.equal(malformed.status, 400)
  t.equal(fake.completions.length, 0, 'nothing was sent to the model')
  t.same((await s.json('/api/agent/status')).body, { status: 'idle', active_tasks: [], active_sessions: 0 })
})

t.test('an unknown model (the upstream says 404) is a 404; an upstream failure is a 502', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ status: 404, message: 'The model `no-such-model` does not exist', type: 'invalid_request_error' })
  const r = await chat(s, { message: 'hi', model: 'openai/no-such-model' })
  t.equal(r.status, 404)
  t.match(r.body, { code: 'AGENT_ERR_PROVIDER_MODEL_NOT_FOUND', statusCode: 404, error: /no-such-model/ })
  fake.enqueue({ status: 500, message: 'upstream exploded' })
  const r2 = await chat(s, { message: 'hi' })
  t.equal(r2.status, 502)
  t.match(r2.body, { code: /^AGENT_ERR_PROVIDER_/, statusCode: 502 })
})

t.test('the chat composes its system prompt from the profile, additional context and override', async t => {
  const prompts = `global_prompt: { content: GLOBAL, enabled: true }
profiles:
  - id: main
    name: Main
    is_default: true
    sections:
      - { id: b, name: B, type: format, content: SECTION-B, enabled: true, order: 2 }
      - { id: a, name: A, type: persona, content: SECTION-A, enabled: true, order: 1 }
  - id: other
    name: Other
    sections:
      - { id: o, name: O, type: task, content: OTHER-ONLY, enabled: true, order: 1 }
`
  const { s, fake } = await startChat(t, { prompts })
  fake.enqueue({ text: '1' }, { text: '2' }, { text: '3' })
  await chat(s, { message: 'hi', additional_context: 'EXTRA' })
  const system = (fake.completions[0].body.messages as Json[])[0].content as string
  const order = ['GLOBAL', 'You can call these tools:', 'slow_echo', 'SECTION-A', 'SECTION-B', 'EXTRA'].map(x => system.indexOf(x))
  t.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), `order in: ${system}`)
  await chat(s, { message: 'hi', profile_id: 'other' })
  t.match((fake.completions[1].body.messages as Json[])[0].content, /OTHER-ONLY$/)
  await chat(s, { message: 'hi', system_override: 'You are a pirate.' })
  t.equal((fake.completions[2].body.messages as Json[])[0].content, 'You are a pirate.')
})

t.test('GET /api/agent/status is idle with no task running', async t => {
  const { s } = await startChat(t)
  t.same((await s.json('/api/agent/status')).body, { status: 'idle', active_tasks: [], active_sessions: 0 })
})

t.test('the chat runs the prompt, provider and tool hook points', async t => {
  const { hookJournal } = await import('./fixtures/test-hooks/index.ts')
  const { fixture } = await import('./helpers.ts')
  hookJournal().length = 0
  const { s, fake } = await startChat(t, { extra: [{ name: 'test-hooks', module: fixture('test-hooks') }] })
  fake.enqueue({ tool_calls: [{ id: 'h1', name: 'slow_echo', arguments: { text: 'original', ms: 0 } }] }, { text: 'ok' })
  const r = await chat(s, { message: 'hooks' })
  t.equal(r.status, 200)
  t.match((fake.completions[0].body.messages as Json[])[0].content, /HOOKED-PROMPT$/)
  t.equal((fake.completions[1].body.messages as Json[]).find(m => m.role === 'tool')?.content, 'rewritten!', 'tool:before rewrote the arguments, tool:after the result')
  t.same(hookJournal(), [`before openai ${MODEL}`, 'after openai', `before openai ${MODEL}`, 'after openai'])
})
