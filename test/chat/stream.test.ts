// POST /api/agent/chat/stream: event order and payloads, thinking split across chunks,
// upstream errors, client disconnects, heartbeats.
import t from 'tap'
import { startChat, streamChat, parseSse, until, MODEL } from './helpers.ts'
import { toolJournal } from './fixtures/test-tools/index.ts'

t.test('event order and payloads: start, chunks, tool_call, tool_result (500-char cap), chunks, done', async t => {
  const { s, fake } = await startChat(t)
  const long = 'L'.repeat(800)
  fake.enqueue(
    { text: 'Let me check.', tool_calls: [{ id: 't1', name: 'slow_echo', arguments: { text: long, ms: 0 } }], chunkSize: 5 },
    { text: 'The echo was long.', chunkSize: 5 },
  )
  const r = await streamChat(s, { message: 'echo a long text' })
  t.equal(r.status, 200)
  t.match(r.type, /^text\/event-stream/)
  const names = r.events.map(e => e.event)
  t.same(names.filter((n, i) => i === 0 || n !== names[i - 1]), ['start', 'chunk', 'tool_call', 'tool_result', 'chunk', 'done'])
  t.same(Object.keys(r.events[0].data).sort(), ['model', 'task_id'])
  t.equal(r.events[0].data.model, MODEL)
  const chunks = r.events.filter(e => e.event === 'chunk')
  t.ok(chunks.length >= 6, 'one chunk event per upstream delta')
  t.equal(chunks.map(c => c.data.content).join(''), 'Let me check.The echo was long.')
  t.same(r.events.find(e => e.event === 'tool_call')?.data, { tool: 'slow_echo', arguments: { text: long, ms: 0 } })
  const result = r.events.find(e => e.event === 'tool_result')?.data
  t.equal(result.tool, 'slow_echo')
  t.equal(result.content, 'L'.repeat(500), 'tool_result content is cut to 500 characters')
  const done = r.events.at(-1)!.data
  t.same(Object.keys(done).sort(), ['has_thinking', 'session_id', 'task_id', 'thinking', 'total_time_ms'])
  t.match(done, { task_id: r.events[0].data.task_id, thinking: null, has_thinking: false, total_time_ms: Number })
  t.match(done.session_id, /^[0-9a-f-]{36}$/)
  const toolMsg = (fake.completions[1].body.messages as Array<{ role: string, content: string }>).find(m => m.role === 'tool')
  t.equal(toolMsg?.content.length, 800, 'the model gets the whole tool result')
  t.equal(fake.completions[0].stream, true, 'the upstream was asked to stream')
})

t.test('the stream session continues in the JSON endpoint and back', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ text: 'first' }, { text: 'second' }, { text: 'third' })
  const a = await streamChat(s, { message: 'one' })
  const sid = a.events.at(-1)!.data.session_id
  const b = await s.post('/api/agent/chat', { message: 'two', session_id: sid })
  t.equal(b.status, 200)
  await streamChat(s, { message: 'three', session_id: sid })
  t.same((fake.completions[2].body.messages as Array<{ content: string }>).slice(1).map(m => m.content), ['one', 'first', 'two', 'second', 'three'])
})

t.test('think blocks split across stream chunks at every position land in thinking', async t => {
  const { s, fake } = await startChat(t)
  const text = '<think>Let me weigh it.</think>\n\nIt is 42.'
  for (const chunkSize of [1, 2, 3, 4, 5, 7, 11]) {
    fake.enqueue({ text, chunkSize })
    const r = await streamChat(s, { message: 'meaning of life?' })
    const chunks = r.events.filter(e => e.event === 'chunk')
    const answer = chunks.map(c => c.data.content).join('')
    const thinking = chunks.map(c => c.data.thinking ?? '').join('')
    const done = r.events.at(-1)!
    t.equal(done.event, 'done')
    t.equal(answer, 'It is 42.', `answer, chunk size ${chunkSize}`)
    t.equal(thinking, 'Let me weigh it.', `thinking chunks, chunk size ${chunkSize}`)
    t.match(done.data, { thinking: 'Let me weigh it.', has_thinking: true }, `done, chunk size ${chunkSize}`)
    t.ok(chunks.filter(c => c.data.thinking !== undefined).every(c => c.data.content === ''), 'thinking chunks carry empty content')
    t.notOk(chunks.some(c => /<|>/.test(c.data.content)), 'no tag text leaks into the answer')
  }
})

t.test('native reasoning streams as thinking chunks and is merged in done', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ thinking: 'native thoughts', thinkingField: 'reasoning', text: '<reflection>and a tag</reflection>Answer.' })
  const r = await streamChat(s, { message: 'think' })
  t.equal(r.events.at(-1)!.data.thinking, 'native thoughts\n\nand a tag')
  t.equal(r.events.filter(e => e.event === 'chunk').map(e => e.data.content).join(''), 'Answer.')
})

t.test('an upstream error mid-stream gives start, chunks, then error', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ text: 'This answer will break off in the middle.', chunkSize: 4, breakAfter: 4, delayMs: 10 })
  const r = await streamChat(s, { message: 'hi' })
  t.equal(r.status, 200)
  const names = r.events.map(e => e.event)
  t.equal(names[0], 'start')
  t.ok(names.includes('chunk'), 'some chunks arrived before the break')
  t.equal(names.at(-1), 'error')
  t.notOk(names.includes('done'))
  t.match(r.events.at(-1)!.data, { error: String, code: /^AGENT_ERR_PROVIDER_/ })
})

t.test('an upstream error before any token gives start then error', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ status: 500, message: 'upstream down' })
  const r = await streamChat(s, { message: 'hi' })
  t.same(r.events.map(e => e.event), ['start', 'error'])
  t.match(r.events[1].data, { error: /upstream down|openai/, statusCode: 502 })
})

t.test('a model the upstream does not know is found after start: start then error 404 on a 200 stream', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ status: 404, message: 'The model `no-such-model` does not exist', type: 'invalid_request_error' })
  const r = await streamChat(s, { message: 'hi', model: 'openai/no-such-model' })
  t.equal(r.status, 200, 'the stream had started: its HTTP status cannot be a 4xx any more')
  t.same(r.events.map(e => e.event), ['start', 'error'])
  t.match(r.events[1].data, { code: 'AGENT_ERR_PROVIDER_MODEL_NOT_FOUND', statusCode: 404, error: /no-such-model/ })
})

t.test('a client that disconnects mid-stream aborts the upstream call', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ text: 'word '.repeat(200), chunkSize: 5, delayMs: 20 })
  const ctl = new AbortController()
  const res = await s.post('/api/agent/chat/stream', { message: 'talk a lot' }, { signal: ctl.signal })
  const reader = res.body!.getReader()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
    if (text.includes('event: chunk')) break
  }
  t.match(text, /event: chunk/, 'a chunk arrived before the client left (the stream did not end early)')
  ctl.abort()
  await until('the upstream to see the abort', () => fake.completions[0]?.aborted === true)
  t.equal(fake.completions[0].aborted, true, 'the upstream connection was closed by agentd')
  await until('the task to end', async () => (await s.json('/api/agent/status')).body.status === 'idle')
  t.equal((await s.json('/api/agent/status')).body.status, 'idle', 'the task tracker is idle again')
})

t.test('a client that disconnects while a tool runs cancels the pending tool call', async t => {
  const { s, fake } = await startChat(t)
  toolJournal().length = 0
  fake.enqueue({ tool_calls: [{ id: 'x1', name: 'slow_echo', arguments: { text: 'late', ms: 5000 } }] })
  const ctl = new AbortController()
  const res = await s.post('/api/agent/chat/stream', { message: 'slow tool' }, { signal: ctl.signal })
  const reader = res.body!.getReader()
  let text = ''
  while (!text.includes('event: tool_call')) text += new TextDecoder().decode((await reader.read()).value)
  const status = (await s.json('/api/agent/status')).body
  t.equal(status.status, 'executing', 'status shows the tool running')
  t.match(status.active_tasks, [{ kind: 'chat_stream', status: 'executing', task_id: /^[0-9a-f]{8}$/, started_at: String, session_id: String }])
  t.equal(status.active_sessions, 1, 'one session with a request in flight')
  ctl.abort()
  await until('the tool to be aborted', () => toolJournal()[0]?.aborted === true)
  t.ok(toolJournal()[0].ended! - toolJournal()[0].started < 4000, 'the tool stopped early')
  t.equal(fake.completions.length, 1, 'no further model call after the disconnect')
})

t.test('heartbeat comments keep a quiet stream open', async t => {
  const { s, fake } = await startChat(t, { chatOptions: { heartbeat_ms: 40 } })
  fake.enqueue({ tool_calls: [{ name: 'slow_echo', arguments: { text: 'x', ms: 250 } }] }, { text: 'done' })
  const r = await streamChat(s, { message: 'wait' })
  t.ok(r.text.includes('\n: ping\n') || r.text.includes(': ping\n\n'), 'a comment line was sent')
  const events = parseSse(r.text).filter(e => e.event !== ':')
  t.same(events.map(e => e.event).filter((n, i, a) => i === 0 || n !== a[i - 1]), ['start', 'tool_call', 'tool_result', 'chunk', 'done'])
})
