// POST /v1/chat/completions driven by the real `openai` SDK: plain and streamed answers,
// reasoning, usage, agentd's tools server-side, the client's tools passed through, an
// upstream error and a client abort that reaches the upstream.
import t from 'tap'
import OpenAI from 'openai'
import { startOpenAIApi, MODEL } from './helpers.ts'
import { pollUntil } from '../helpers/poll.ts'

t.test('plain: the answer, agentd\'s model id and the upstream\'s usage', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ text: 'Hello there.', usage: { prompt_tokens: 12, completion_tokens: 3 } })
  const r = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })
  t.equal(r.object, 'chat.completion')
  t.match(r.id, /^chatcmpl-/)
  t.equal(r.model, 'openai/gpt-4o-mini')
  t.equal(r.choices.length, 1)
  t.equal(r.choices[0].message.role, 'assistant')
  t.equal(r.choices[0].message.content, 'Hello there.')
  t.equal(r.choices[0].finish_reason, 'stop')
  t.same(r.usage, { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 })
  t.equal(fake.completions[0].body.model, 'gpt-4o-mini', 'the provider gets its own model name')
})

t.test('plain: thinking goes to reasoning_content, never into content', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ text: '<think>inline musing</think>The answer.', thinking: 'native musing' })
  const r = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Q' }] })
  const m = r.choices[0].message as unknown as { content: string, reasoning_content?: string }
  t.equal(m.content, 'The answer.')
  t.match(m.reasoning_content, /native musing/)
  t.match(m.reasoning_content, /inline musing/)
})

t.test('stream: OpenAI chunks, reasoning_content deltas, usage with include_usage, then [DONE]', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ text: 'Streaming works fine.', thinking: 'hmm', usage: { prompt_tokens: 7, completion_tokens: 5 } })
  const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Go' }], stream: true, stream_options: { include_usage: true } })
  let content = ''
  let reasoning = ''
  let finish: string | null = null
  let usage: OpenAI.CompletionUsage | null | undefined
  let chunks = 0
  const models = new Set<string>()
  for await (const chunk of stream) {
    chunks++
    models.add(chunk.model)
    t.equal(chunk.object, 'chat.completion.chunk')
    if (chunk.usage !== null && chunk.usage !== undefined) { usage = chunk.usage; t.equal(chunk.choices.length, 0, 'the usage chunk has no choices'); continue }
    const c = chunk.choices[0]
    const d = c.delta as { content?: string | null, reasoning_content?: string }
    content += d.content ?? ''
    reasoning += d.reasoning_content ?? ''
    if (c.finish_reason !== null) finish = c.finish_reason
  }
  t.ok(chunks > 3, 'the answer arrives in pieces')
  t.equal(content, 'Streaming works fine.')
  t.equal(reasoning, 'hmm')
  t.equal(finish, 'stop')
  t.same(usage, { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 })
  t.same([...models], [MODEL], 'every chunk, the usage chunk too, names one model')
  t.equal(fake.completions[0].body.stream, true, 'the upstream call streams too')
})

t.test('stream without include_usage sends no usage chunk', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ text: 'ok' })
  const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Go' }], stream: true })
  const chunks = []
  for await (const chunk of stream) chunks.push(chunk)
  t.notOk(chunks.some(c => c.usage !== undefined && c.usage !== null))
  t.notOk(chunks.some(c => c.choices.length === 0))
})

t.test('a server-side tool round: agentd runs its own tool and the client sees only the answer', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue(
    { tool_calls: [{ id: 'call_srv', name: 'slow_echo', arguments: { text: 'from-the-tool', ms: 0 } }], usage: { prompt_tokens: 10, completion_tokens: 4 } },
    { text: 'The tool said from-the-tool.', usage: { prompt_tokens: 20, completion_tokens: 6 } },
  )
  const r = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Use the tool' }] })
  t.equal(r.choices[0].message.content, 'The tool said from-the-tool.')
  t.equal(r.choices[0].finish_reason, 'stop')
  t.notOk(r.choices[0].message.tool_calls, 'agentd\'s own calls are not the client\'s business')
  t.same(r.usage, { prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 }, 'usage covers every model call')
  t.ok(fake.completions[0].body.tools.some((d: { function: { name: string } }) => d.function.name === 'slow_echo'), 'agentd\'s tools are offered')
  const second = fake.completions[1].body.messages as Array<{ role: string, content: string, tool_call_id?: string }>
  const toolMsg = second.find(m => m.role === 'tool')
  t.equal(toolMsg?.tool_call_id, 'call_srv')
  t.equal(toolMsg?.content, 'from-the-tool')
})

const WEATHER: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
}

t.test('a client tool is passed to the model and its call returned, as OpenAI does; the result comes back next turn', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ tool_calls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Oslo' } }] })
  const first = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: [WEATHER] })
  const choice = first.choices[0]
  t.equal(choice.finish_reason, 'tool_calls')
  t.equal(choice.message.content, null)
  const call = choice.message.tool_calls?.[0]
  t.equal(call?.type, 'function')
  t.equal(call?.id, 'call_w1')
  if (call?.type !== 'function') throw new Error('expected a function call')
  t.equal(call.function.name, 'get_weather')
  t.same(JSON.parse(call.function.arguments), { city: 'Oslo' })
  const offered = fake.completions[0].body.tools.map((d: { function: { name: string } }) => d.function.name)
  t.ok(offered.includes('get_weather'), 'the client\'s tool is offered')
  t.ok(offered.includes('slow_echo'), 'beside agentd\'s own')
  t.equal(fake.completions.length, 1, 'agentd did not run the client\'s tool')

  fake.enqueue({ text: 'It is sunny in Oslo.' })
  const second = await client.chat.completions.create({
    model: MODEL,
    tools: [WEATHER],
    messages: [
      { role: 'user', content: 'Weather in Oslo?' },
      choice.message,
      { role: 'tool', tool_call_id: 'call_w1', content: '{"sky":"sunny"}' },
    ],
  })
  t.equal(second.choices[0].message.content, 'It is sunny in Oslo.')
  const sent = fake.completions[1].body.messages as Array<{ role: string, content: string | null, tool_calls?: Array<{ id: string, function: { name: string, arguments: string } }>, tool_call_id?: string }>
  const assistant = sent.find(m => m.role === 'assistant')
  t.equal(assistant?.tool_calls?.[0].id, 'call_w1')
  t.same(JSON.parse(assistant?.tool_calls?.[0].function.arguments ?? '{}'), { city: 'Oslo' })
  t.same(sent.at(-1), { role: 'tool', tool_call_id: 'call_w1', content: '{"sky":"sunny"}' })
})

t.test('stream: a client tool call arrives as delta.tool_calls with finish_reason tool_calls', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ tool_calls: [{ id: 'call_w2', name: 'get_weather', arguments: { city: 'Lima' } }] })
  const stream = client.chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Lima?' }], tools: [WEATHER] })
  const done = await stream.finalChatCompletion()
  const choice = done.choices[0]
  t.equal(choice.finish_reason, 'tool_calls')
  const call = choice.message.tool_calls?.[0]
  if (call?.type !== 'function') throw new Error('expected a function call')
  t.equal(call.id, 'call_w2')
  t.equal(call.function.name, 'get_weather')
  t.same(JSON.parse(call.function.arguments), { city: 'Lima' })
})

t.test('tool_choice "none" offers no tools at all', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ text: 'No tools.' })
  await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], tools: [WEATHER], tool_choice: 'none' })
  t.equal(fake.completions[0].body.tools, undefined)
})

t.test('an upstream error is a 502 in OpenAI\'s error shape, plain and streamed', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ status: 400, message: 'This model does not exist upstream', type: 'invalid_request_error' })
  const err = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e)
  t.ok(err instanceof OpenAI.APIError, 'the SDK raises its APIError')
  const e = err as InstanceType<typeof OpenAI.APIError>
  t.equal(e.status, 502)
  t.equal(e.type, 'api_error')
  t.match(e.message, /does not exist upstream/)
  t.match(e.code, /^AGENT_ERR_/)

  fake.enqueue({ status: 500, message: 'upstream exploded' })
  const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], stream: true })
  const streamErr = await (async () => { for await (const _ of stream) { /* drain */ } })().then(() => undefined, (e: unknown) => e)
  t.ok(streamErr instanceof OpenAI.APIError, 'a failure after the stream started arrives as an error line the SDK raises')
  t.match((streamErr as Error).message, /upstream exploded|failed|error/i)
})

t.test('a client that aborts a stream cancels the upstream call', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ text: 'x'.repeat(400), chunkSize: 1, delayMs: 20 })
  const ac = new AbortController()
  const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'long' }], stream: true }, { signal: ac.signal })
  let got = 0
  await (async () => {
    for await (const chunk of stream) {
      if ((chunk.choices[0]?.delta.content ?? '') !== '') got++
      if (got === 3) ac.abort()
    }
  })().catch(() => undefined)
  t.equal(got, 3)
  await pollUntil(() => fake.completions[0].aborted, a => a, 5000)
  t.ok(fake.completions[0].aborted, 'the upstream request was closed')
})

t.test('a client that aborts a plain request cancels the upstream call', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ hang: true })
  const ac = new AbortController()
  const pending = client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'wait' }] }, { signal: ac.signal }).catch((e: unknown) => e)
  await pollUntil(() => fake.completions.length, n => n === 1, 5000)
  ac.abort()
  t.ok((await pending) instanceof Error)
  await pollUntil(() => fake.completions[0].aborted, a => a, 5000)
  t.ok(fake.completions[0].aborted)
})
