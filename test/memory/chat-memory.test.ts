// The chat flow wired to the real memory service (embedded defaults) through the registry.
// One server for the file (a memory server's start is its PGlite and migrations): each test
// chats in channels of its own and reads only those.
import t from 'tap'
import type { Test } from 'tap'
import { memoryPlugins } from './memory-kernel.ts'
import { startChat, until } from '../chat/helpers.ts'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'

const { s, fake } = await startChat(t, { extra: memoryPlugins() })
const svc = (): MemoryServiceImpl => s.kernel.current?.app.registry.memoryServices.first() as MemoryServiceImpl

t.test('chat with use_memory stores both turns and a later chat recalls the earlier one', async t => {
  fake.enqueue({ text: 'Nice, teal is a calm colour.' }, { text: 'It is teal.' })

  const first = await s.post('/api/agent/chat', { message: 'My favourite colour is teal', use_memory: true, channel: 'home' })
  t.equal(first.status, 200)
  const { session_id: firstSession } = await first.json() as { session_id: string }
  await until('both turns of the first chat to be stored', async () => (await svc().ctx.relational?.conversationTurns(firstSession, 10))?.length === 2)
  const turns = await svc().ctx.relational?.conversationTurns(firstSession, 10) ?? []
  t.same(turns.map(x => [x.role, x.content, x.channel]), [['user', 'My favourite colour is teal', 'home'], ['assistant', 'Nice, teal is a calm colour.', 'home']])
  t.match(turns[1].metadata, { model: 'gpt-4o-mini', latency_ms: Number })
  t.equal(turns[0].embedder, 'hash-v2', 'stored with its vector and embedder')

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

t.test('tool calls made in a chat are kept as procedural memory, in its conversation and channel', async t => {
  fake.enqueue({ tool_calls: [{ name: 'slow_echo', arguments: { text: 'ping', ms: 1 } }] }, { tool_calls: [{ name: 'explode', arguments: {} }] }, { text: 'done' })
  const res = await s.post('/api/agent/chat', { message: 'use the tools', use_memory: true, channel: 'tools-ch' })
  t.equal(res.status, 200)
  const { session_id: session } = await res.json() as { session_id: string }
  await until('both invocations to be recorded', async () => (await svc().ctx.relational?.toolInvocations({ channel: 'tools-ch', limit: 10 }))?.length === 2)
  const list = await svc().ctx.relational?.toolInvocations({ channel: 'tools-ch', limit: 10 }) ?? []
  t.match(list[0], { tool: 'slow_echo', arguments: { text: 'ping' }, is_error: false, result: /ping/, conversation_id: session, channel: 'tools-ch', duration_ms: Number })
  t.match(list[1], { tool: 'explode', is_error: true, conversation_id: session, channel: 'tools-ch' })
  t.ok((list[0].duration_ms ?? -1) >= 0, 'the call was timed')
  t.same((await svc().ctx.relational?.toolInvocations({ conversation_id: session, limit: 10 }))?.map(x => x.tool), ['slow_echo', 'explode'])

  // Deleting the conversation removes its tool calls.
  await until('the turns to be stored', async () => (await svc().ctx.relational?.conversationTurns(session, 10))?.length === 2)
  const del = await s.get(`/api/memory/conversations/${session}`, { method: 'DELETE' })
  t.equal(del.status, 200)
  t.match(await del.json(), { deleted: { tool_invocations: 2 } })
  t.same(await svc().ctx.relational?.toolInvocations({ channel: 'tools-ch', limit: 10 }), [])
})

t.test('deleting a channel removes the tool calls made in it', async t => {
  fake.enqueue({ tool_calls: [{ name: 'slow_echo', arguments: { text: 'a', ms: 1 } }] }, { text: 'ok' }, { tool_calls: [{ name: 'slow_echo', arguments: { text: 'b', ms: 1 } }] }, { text: 'ok' })
  t.equal((await s.post('/api/agent/chat', { message: 'one', use_memory: true, channel: 'gone' })).status, 200)
  t.equal((await s.post('/api/agent/chat', { message: 'two', use_memory: true, channel: 'kept' })).status, 200)
  const inBoth = async (): Promise<Array<[string, unknown]>> => [
    ...(await svc().ctx.relational?.toolInvocations({ channel: 'gone', limit: 10 }) ?? []),
    ...(await svc().ctx.relational?.toolInvocations({ channel: 'kept', limit: 10 }) ?? []),
  ].map(x => [x.channel, x.arguments.text])
  await until('both invocations to be recorded', async () => (await inBoth()).length === 2)
  const del = await s.get('/api/memory/channels/gone', { method: 'DELETE' })
  t.equal(del.status, 200)
  t.same(await inBoth(), [['kept', 'b']])
})

t.test('a chat with use_memory false keeps no tool calls', async t => {
  fake.enqueue({ tool_calls: [{ name: 'slow_echo', arguments: { text: 'private', ms: 1 } }] }, { text: 'done' },
    { tool_calls: [{ name: 'slow_echo', arguments: { text: 'public', ms: 1 } }] }, { text: 'done' })
  t.equal((await s.post('/api/agent/chat', { message: 'no memory', use_memory: false })).status, 200)
  // A second chat that does use memory: once its call is recorded, the first one would have been too.
  t.equal((await s.post('/api/agent/chat', { message: 'memory', use_memory: true })).status, 200)
  // Both chats are in channel _default, which no other test uses.
  await until('the memory chat\'s invocation to be recorded', async () => ((await svc().ctx.relational?.toolInvocations({ channel: '_default', limit: 10 }))?.length ?? 0) >= 1)
  const list = await svc().ctx.relational?.toolInvocations({ channel: '_default', limit: 10 }) ?? []
  t.same(list.map(x => [x.arguments.text, x.channel]), [['public', '_default']], 'only the chat that uses memory, in _default')
})

/** Counts the calls of some methods of a registered store (patched on the instance, restored in teardown). */
function countCalls<S extends object> (t: Test, store: S, methods: Array<keyof S & string>): Array<{ method: string, args: unknown[] }> {
  const calls: Array<{ method: string, args: unknown[] }> = []
  const target = store as Record<string, unknown>
  for (const m of methods) {
    const own = Object.hasOwn(target, m)
    const original = target[m] as (...args: unknown[]) => unknown
    target[m] = function (this: unknown, ...args: unknown[]) { calls.push({ method: m, args }); return original.apply(this, args) }
    t.teardown(() => { if (own) target[m] = original; else delete target[m] })
  }
  return calls
}

t.test('one chat reads its conversation once, as its session: memory reads no copy of it for context or recall', async t => {
  fake.enqueue({ text: 'Noted, your boat is the Kestrel.' }, { text: 'It is the Kestrel.' })
  const first = await s.post('/api/agent/chat', { message: 'My sailing boat is called Kestrel', use_memory: true, channel: 'reads' })
  t.equal(first.status, 200)
  const { session_id: sid } = await first.json() as { session_id: string }
  // The test's own reads ask for POLL turns, which no memory code asks for, so they are told apart.
  const POLL = 99
  const stored = async (): Promise<number> => (await svc().ctx.relational?.conversationTurns(sid, POLL))?.length ?? 0
  await until('the first chat\'s turns to be stored', async () => await stored() === 2)

  const registry = s.kernel.current?.app.registry
  const rel = registry?.relationalStores.first()
  const kv = registry?.kvStores.first()
  if (rel === undefined || kv === undefined) throw new Error('the memory stores are not registered')
  const relReads = countCalls(t, rel, ['conversationTurns', 'recentTurns'])
  const kvReads = countCalls(t, kv, ['get', 'getList'])
  const second = await s.post('/api/agent/chat', { message: 'What is my sailing boat called?', use_memory: true, channel: 'reads', session_id: sid })
  t.equal(second.status, 200)
  await until('the second chat\'s turns to be stored', async () => await stored() === 4)

  t.same(relReads.filter(c => c.args[1] !== POLL), [], 'the relational store was not read for the conversation (context, recall exclusion)')
  t.same(kvReads.filter(c => c.method === 'getList'), [], 'no working-memory list')
  const sessionReads = kvReads.filter(c => c.method === 'get' && c.args[0] === `chat:session:${sid}`)
  t.equal(sessionReads.length, 2, 'the session: read for the history, and again when saving so a concurrent turn is kept')
  t.same(kvReads.filter(c => c.method === 'get' && !String(c.args[0]).startsWith('chat:')), [], 'nothing else in the key-value store')
  // What the history holds is not recalled a second time into the system prompt.
  const sent = fake.completions.at(-1)?.body as { messages: Array<{ role: string, content: string }> }
  t.notMatch(sent.messages.filter(m => m.role === 'system').map(m => m.content).join('\n'), /Kestrel/, 'the history\'s turns (and the new message) are left out of recall')
  t.same(sent.messages.filter(m => m.role !== 'system').map(m => m.content), ['My sailing boat is called Kestrel', 'Noted, your boat is the Kestrel.', 'What is my sailing boat called?'])
})
