// The tool:after hook carries the context of the call (session, memory channel, whether
// memory is on, the tool's own duration), so a listener such as memory's procedural
// record can attribute it.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { startChat, fixture } from './helpers.ts'
import { toolAfterPayloads } from './fixtures/tool-after-recorder/index.ts'

const recorder = { name: 'tool-after-recorder', module: fixture('tool-after-recorder') }

t.test('tool:after gets the session id, the channel, use_memory and the duration', async t => {
  toolAfterPayloads().length = 0
  const { s, fake } = await startChat(t, { extra: [recorder] })
  const sessionId = randomUUID()
  fake.enqueue({ tool_calls: [{ id: 'w1', name: 'slow_echo', arguments: { text: 'hi', ms: 200 } }] }, { text: 'done' })
  const res = await s.post('/api/agent/chat', { message: 'echo', session_id: sessionId, channel: 'work', use_memory: false })
  t.equal(res.status, 200)
  const [p] = toolAfterPayloads()
  t.equal(toolAfterPayloads().length, 1)
  t.match(p, { tool: 'slow_echo', arguments: { text: 'hi', ms: 200 }, result: { content: 'hi', isError: false }, conversation_id: sessionId, channel: 'work', use_memory: false })
  t.ok(p.duration_ms >= 150 && p.duration_ms < 5000, `duration_ms is the tool's time (${p.duration_ms})`)
})

t.test('tool:after without a channel says null, and use_memory follows the default (on)', async t => {
  toolAfterPayloads().length = 0
  const { s, fake } = await startChat(t, { extra: [recorder] })
  fake.enqueue({ tool_calls: [{ id: 'w1', name: 'slow_echo', arguments: { text: 'x', ms: 0 } }] }, { text: 'done' })
  const res = await s.post('/api/agent/chat/stream', { message: 'echo' })
  const text = await res.text()
  const sessionId = /"session_id":"([^"]+)"/.exec(text)?.[1]
  t.ok(sessionId !== undefined, 'the stream named its session')
  t.match(toolAfterPayloads(), [{ conversation_id: sessionId, channel: null, use_memory: true }])
})
