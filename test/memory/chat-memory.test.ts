// The chat flow wired to the real memory service (embedded defaults) through the registry.
import t from 'tap'
import { memoryPlugins } from './memory-kernel.ts'
import { startChat, until } from '../chat/helpers.ts'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'

t.test('chat with use_memory stores both turns and a later chat recalls the earlier one', async t => {
  const { s, fake } = await startChat(t, { extra: memoryPlugins() })
  const svc = (): MemoryServiceImpl => s.kernel.current?.app.registry.memory.service.first() as MemoryServiceImpl
  fake.enqueue({ text: 'Nice, teal is a calm colour.' }, { text: 'It is teal.' })

  const first = await s.post('/api/agent/chat', { message: 'My favourite colour is teal', use_memory: true, channel: 'home' })
  t.equal(first.status, 200)
  const { session_id: firstSession } = await first.json() as { session_id: string }
  await until('both turns of the first chat to be stored', async () => (await svc().relational?.conversationTurns(firstSession, 10))?.length === 2)
  const turns = await svc().relational?.conversationTurns(firstSession, 10) ?? []
  t.same(turns.map(x => [x.role, x.content, x.channel]), [['user', 'My favourite colour is teal', 'home'], ['assistant', 'Nice, teal is a calm colour.', 'home']])
  t.match(turns[1].metadata, { model: 'gpt-4o-mini', latency_ms: Number })
  t.equal(turns[0].embedder, 'hash-v1', 'stored with its vector and embedder')

  // A new session: nothing in the chat history, so the answer can only come from memory.
  const second = await s.post('/api/agent/chat', { message: 'What is my favourite colour?', use_memory: true, channel: 'home' })
  t.equal(second.status, 200)
  const sent = fake.completions.at(-1)?.body as { messages: Array<{ role: string, content: string }> }
  const system = sent.messages.filter(m => m.role === 'system').map(m => m.content).join('\n')
  t.match(system, /My favourite colour is teal/, 'the earlier turn was recalled into the prompt')

  const other = await s.post('/api/agent/chat', { message: 'What is my favourite colour?', use_memory: true, channel: 'work' })
  t.equal(other.status, 200)
  const sentOther = fake.completions.at(-1)?.body as { messages: Array<{ role: string, content: string }> }
  t.notMatch(sentOther.messages.map(m => m.content).join('\n'), /teal/, 'another channel does not see it')
})

t.test('tool calls made in a chat are kept as procedural memory', async t => {
  const { s, fake } = await startChat(t, { extra: memoryPlugins() })
  const svc = (): MemoryServiceImpl => s.kernel.current?.app.registry.memory.service.first() as MemoryServiceImpl
  fake.enqueue({ tool_calls: [{ name: 'slow_echo', arguments: { text: 'ping', ms: 1 } }] }, { tool_calls: [{ name: 'explode', arguments: {} }] }, { text: 'done' })
  const res = await s.post('/api/agent/chat', { message: 'use the tools', use_memory: true })
  t.equal(res.status, 200)
  await until('both invocations to be recorded', async () => (await svc().relational?.toolInvocations({ limit: 10 }))?.length === 2)
  const list = await svc().relational?.toolInvocations({ limit: 10 }) ?? []
  t.match(list[0], { tool: 'slow_echo', arguments: { text: 'ping' }, is_error: false, result: /ping/ })
  t.match(list[1], { tool: 'explode', is_error: true })
})
