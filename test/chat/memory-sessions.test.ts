// Memory hook points and session storage of the chat.
import t from 'tap'
import { startChat, streamChat, until } from './helpers.ts'
import { memoryJournal, kvData, storeGate, releaseStores } from '../helpers/fake-memory.ts'
import { fixturePlugin } from '../helpers/workspace.ts'
import { gate } from '../helpers/gate.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- request bodies

const memory = (options: Record<string, unknown> = {}): { name: string, module: string, options: Record<string, unknown> } =>
  ({ name: 'fake-memory', module: fixturePlugin('fake-memory'), options })

t.test('use_memory: the user turn is stored, then recalled context ends the system prompt; the answer is stored after', async t => {
  const { s, fake } = await startChat(t, { extra: [memory({ context: 'User likes tea.' })] })
  memoryJournal().length = 0
  fake.enqueue({ text: 'Tea it is.' })
  const res = await s.post('/api/agent/chat', { message: 'What do I like?', channel: 'home' })
  const body = await res.json() as Json
  t.equal(res.status, 200)
  const system = (fake.completions[0].body.messages as Json[])[0].content as string
  t.ok(system.endsWith('User likes tea.'), 'memory context comes last in the system prompt')
  await until('the assistant turn to be stored', () => memoryJournal().length === 3)
  t.same(memoryJournal().map(c => [c.op, c.arg.role ?? c.arg.text]), [['storeTurn', 'user'], ['recall', 'What do I like?'], ['storeTurn', 'assistant']])
  t.match(memoryJournal()[0].arg, { conversation_id: body.session_id, channel: 'home', content: 'What do I like?' })
  t.match(memoryJournal()[2].arg, { conversation_id: body.session_id, content: 'Tea it is.', metadata: { model: 'gpt-4o-mini', provider: 'openai', latency_ms: Number } })
})

t.test('use_memory false skips memory entirely', async t => {
  const { s, fake } = await startChat(t, { extra: [memory()] })
  memoryJournal().length = 0
  fake.enqueue({ text: 'ok' }, { text: 'remembered' })
  await s.post('/api/agent/chat', { message: 'hi', use_memory: false })
  // A later chat with memory: once its turns are stored, anything the first one had
  // queued would be in the journal too (memory writes keep their order).
  const marker = await (await s.post('/api/agent/chat', { message: 'marker', use_memory: true })).json() as Json
  await until('the marker chat to be stored', () => memoryJournal().filter(c => c.op === 'storeTurn').length >= 2)
  t.same(memoryJournal().map(c => c.arg.conversation_id ?? marker.session_id), memoryJournal().map(() => marker.session_id), 'only the chat with memory reached it')
  t.equal(memoryJournal().length, 3, 'two turns and one recall, all the second chat\'s')
  t.notMatch((fake.completions[0].body.messages as Json[])[0].content, /MEMORY-CONTEXT/)
})

t.test('a failing memory never fails the chat', async t => {
  const { s, fake } = await startChat(t, { extra: [memory({ mode: 'throw' })] })
  memoryJournal().length = 0
  fake.enqueue({ text: 'still here' }, { text: 'streamed too' })
  const res = await s.post('/api/agent/chat', { message: 'hi' })
  t.equal(res.status, 200)
  t.equal((await res.json() as Json).answer, 'still here')
  const r = await streamChat(s, { message: 'hi' })
  t.equal(r.events.at(-1)!.event, 'done')
  t.ok(memoryJournal().some(c => c.op === 'recall'), 'memory was asked')
})

t.test('no memory service registered: chat works and nothing is asked', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ text: 'fine' })
  const res = await s.post('/api/agent/chat', { message: 'hi', use_memory: true })
  t.equal(res.status, 200)
})

t.test('streaming stores both turns after the stream, off the request path', async t => {
  const { s, fake } = await startChat(t, { extra: [memory({ gate_stores: true })] })
  memoryJournal().length = 0
  storeGate()
  fake.enqueue({ text: 'streamed answer' })
  const r = await streamChat(s, { message: 'stream me' })
  t.equal(r.events.at(-1)!.event, 'done', 'the stream finished while memory storage was still blocked')
  await until('the first store to start', () => memoryJournal().some(c => c.op === 'storeTurn'))
  releaseStores()
  await until('both turns stored', () => memoryJournal().filter(c => c.op === 'storeTurn').length === 2)
  releaseStores()
  t.same(memoryJournal().map(c => c.op), ['recall', 'storeTurn', 'storeTurn'], 'recall before the answer; both stores after it')
  t.same(memoryJournal().filter(c => c.op === 'storeTurn').map(c => [c.arg.role, c.arg.content]), [['user', 'stream me'], ['assistant', 'streamed answer']])
})

t.test('the JSON chat does not wait for the assistant turn to be stored', async t => {
  const { s, fake } = await startChat(t, { extra: [memory({ gate_stores: true, context: '' })] })
  memoryJournal().length = 0
  fake.enqueue({ text: 'quick' })
  const pending = s.post('/api/agent/chat', { message: 'hi' })
  await until('the user turn store to start', () => memoryJournal().length === 1)
  releaseStores() // the user turn is stored on the request path (SPEC.md step 2)
  const res = await pending
  t.equal(res.status, 200, 'answered while the assistant turn store is blocked')
  await until('the assistant store to start', () => memoryJournal().filter(c => c.op === 'storeTurn').length === 2)
  releaseStores()
})

t.test('sessions live in the registered key-value store', async t => {
  kvData().clear()
  const { s, fake } = await startChat(t, { extra: [memory({ kv: true })] })
  fake.enqueue({ text: 'one' }, { text: 'two' })
  const first = await (await s.post('/api/agent/chat', { message: 'remember me', use_memory: false })).json() as Json
  const stored = kvData().get(`chat:session:${first.session_id}`) as Json
  t.same(stored.messages.map((m: Json) => m.content), ['remember me', 'one'])
  await s.post('/api/agent/chat', { message: 'again', session_id: first.session_id, use_memory: false })
  t.same((fake.completions[1].body.messages as Json[]).slice(1).map(m => m.content), ['remember me', 'one', 'again'])
})

t.test('a key-value store that fails falls back to the in-process sessions', async t => {
  const { s, fake } = await startChat(t, { extra: [memory({ kv: true, kv_fail: true })] })
  fake.enqueue({ text: 'one' }, { text: 'two' })
  const first = await s.post('/api/agent/chat', { message: 'hello', use_memory: false })
  t.equal(first.status, 200)
  const sid = (await first.json() as Json).session_id
  await s.post('/api/agent/chat', { message: 'again', session_id: sid, use_memory: false })
  t.same((fake.completions[1].body.messages as Json[]).slice(1).map(m => m.content), ['hello', 'one', 'again'])
})

t.test('a live reload keeps the in-process sessions', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ text: 'before' }, { text: 'after' })
  const first = await (await s.post('/api/agent/chat', { message: 'pre-reload' })).json() as Json
  const outcome = await s.kernel.reload('test')
  t.equal(outcome.ok, true)
  t.equal(s.kernel.api.generation(), 2)
  await s.post('/api/agent/chat', { message: 'post-reload', session_id: first.session_id })
  t.same((fake.completions[1].body.messages as Json[]).slice(1).map(m => m.content), ['pre-reload', 'before', 'post-reload'])
})

t.test('long histories are trimmed to the context window, keeping system prompt, newest turns and tool pairs', async t => {
  // A 1000-token window: ~750 tokens for the prompt, less the tool definitions.
  const { s, fake } = await startChat(t, { config: { models: { overrides: { 'gpt-4o-mini': { context_window: 1000, max_output_tokens: 250 } } } } })
  // turn-0 has a tool round and is dropped; turn-5 has one and is kept.
  fake.enqueue({ text: 'first', tool_calls: [{ id: 'k0', name: 'slow_echo', arguments: { text: 'T'.repeat(400), ms: 0 } }] }, { text: 'A'.repeat(400) })
  const sid = (await (await s.post('/api/agent/chat', { message: 'turn-0 ' + 'x'.repeat(400) })).json() as Json).session_id
  for (let i = 1; i <= 6; i++) {
    if (i === 5) fake.enqueue({ text: 'checking', tool_calls: [{ id: 'k5', name: 'slow_echo', arguments: { text: 'five', ms: 0 } }] })
    fake.enqueue({ text: `answer-${i} ` + 'y'.repeat(i === 5 ? 10 : 300) })
    const r = await s.post('/api/agent/chat', { message: `turn-${i} ` + 'x'.repeat(i >= 5 ? 100 : 400), session_id: sid })
    t.equal(r.status, 200)
  }
  const last = fake.completions.at(-1)!.body.messages as Json[]
  t.equal(last[0].role, 'system', 'the system prompt is kept')
  t.match(last.at(-1)!.content, /^turn-6 /, 'the new message is kept')
  t.notOk(last.some(m => /^turn-0 /.test(m.content ?? '')), 'the oldest turn was dropped')
  t.ok(last.some(m => /^turn-5 /.test(m.content ?? '')), 'the newest turns are kept')
  const chars = last.reduce((n, m) => n + String(m.content ?? '').length + JSON.stringify(m.tool_calls ?? '').length, 0)
  t.ok(chars / 4 < 1000, `the prompt fits the window (${chars} chars)`)

  // Every kept tool result answers a call of the assistant message that opens its run of results.
  const callIds = (m: Json | undefined): string[] => (m?.tool_calls ?? []).map((c: Json) => c.id)
  const kept = last.filter(m => m.role === 'tool')
  t.same(kept.map(m => m.tool_call_id), ['k5'], 'the kept turn\'s tool result is sent, the dropped one\'s is not')
  for (const [i, m] of last.entries()) {
    if (m.role !== 'tool') continue
    let j = i - 1
    while (last[j]?.role === 'tool') j--
    t.ok(callIds(last[j]).includes(m.tool_call_id), `tool result ${m.tool_call_id} follows the assistant call that made it`)
  }
  t.notOk(last.some(m => callIds(m).includes('k0')), 'the dropped turn\'s tool call went with it (no call without its result)')
  t.ok(last.some(m => callIds(m).includes('k5')), 'the kept turn\'s tool call is sent')
})

t.test('two concurrent turns on one session are both kept', async t => {
  const { s, fake } = await startChat(t)
  // The first turn's model call is held until the second turn has finished.
  const slow = gate()
  t.teardown(slow.open)
  fake.enqueue({ text: 'slow answer', gate: slow.promise }, { text: 'fast answer' }, { text: 'third' })
  const sid = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b'
  const a = s.post('/api/agent/chat', { message: 'slow question', session_id: sid })
  await until('the slow turn to reach the model', () => fake.completions.length === 1)
  const b = await s.post('/api/agent/chat', { message: 'fast question', session_id: sid })
  t.equal(b.status, 200)
  slow.open()
  t.equal((await a).status, 200)
  await s.post('/api/agent/chat', { message: 'third question', session_id: sid })
  const sent = (fake.completions[2].body.messages as Json[]).slice(1).map(m => m.content)
  t.same(sent, ['fast question', 'fast answer', 'slow question', 'slow answer', 'third question'])
})
