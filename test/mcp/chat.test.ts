// MCP tools in the chat loop: a scripted fake model (real OpenAI wire format, through the
// real provider plugin) calls server-everything's `echo` over stdio and answers with its
// result, non-streaming and streaming; during an outage the call is a tool error result.
import t, { type Test } from 'tap'
import { startMcp, everything, isConnected, type McpStarted } from './helpers.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../fakes/openai-upstream.ts'
import { parseSse } from '../chat/helpers.ts'
import { startFixtureServer } from '../fixtures/mcp/server.ts'
import { until } from '../helpers/poll.ts'

interface Msg { role: string, content: string, tool_call_id?: string }

async function startWithChat (t: Test, mcpOptions: Record<string, unknown> = {}, servers: Record<string, unknown> = { everything: everything() }): Promise<{ s: McpStarted, fake: FakeOpenAI }> {
  const fake = await startFakeOpenAI(t)
  const s = await startMcp(t, servers, {
    plugins: [
      { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } },
      { name: 'mcp', module: repoPlugin('mcp'), options: { reconnect_initial_ms: 100, reconnect_max_ms: 1000, ...mcpOptions } },
      { name: 'prompts', module: repoPlugin('prompts') },
      { name: 'providers-api', module: repoPlugin('providers-api') },
      { name: 'chat', module: repoPlugin('chat') },
    ],
    env: { OPENAI_API_KEY: 'test-key', DEFAULT_MODEL: 'gpt-4o-mini' },
  })
  for (const name of Object.keys(servers)) await s.waitFor(name, isConnected, 'connected')
  return { s, fake }
}

/** The model's second turn: answers with what the tool message said. */
const answerWithToolResult = (req: RecordedRequest): { text: string } => {
  const tool = (req.body.messages as Msg[]).filter(m => m.role === 'tool').at(-1)
  return { text: `The tool said: ${tool?.content ?? '(nothing)'}` }
}

t.test('non-streaming chat: the model calls an MCP tool and answers with its result', async t => {
  const { s, fake } = await startWithChat(t)
  fake.enqueue({ tool_calls: [{ id: 'c1', name: 'echo', arguments: { message: 'ping over stdio' } }] }, answerWithToolResult)
  const r = await s.post('/api/agent/chat', { message: 'echo something', use_memory: false })
  t.equal(r.status, 200)
  const body = await r.json() as { answer: string, tools_used: string[] }
  t.equal(body.answer, 'The tool said: Echo: ping over stdio')
  t.same(body.tools_used, ['echo'])
  const first = fake.completions[0].body as { tools: Array<{ function: { name: string } }>, messages: Msg[] }
  t.ok(first.tools.some(x => x.function.name === 'echo'), 'MCP tools are offered to the model')
  t.match(first.messages[0].content, /- echo \(server "everything"\)/, 'the system prompt carries the MCP tools prompt')
  const tool = (fake.completions[1].body.messages as Msg[]).at(-1)
  t.match(tool, { role: 'tool', tool_call_id: 'c1', content: 'Echo: ping over stdio' })
})

t.test('streaming chat: tool_call and tool_result events for the MCP tool', async t => {
  const { s, fake } = await startWithChat(t)
  fake.enqueue({ tool_calls: [{ id: 'c1', name: 'echo', arguments: { message: 'streamed' } }] }, answerWithToolResult)
  const res = await s.post('/api/agent/chat/stream', { message: 'echo, streaming', use_memory: false })
  t.equal(res.status, 200)
  const events = parseSse(await res.text())
  const names = events.map(e => e.event).filter(n => n !== ':')
  t.same(names.filter((n, i) => i === 0 || n !== names[i - 1]), ['start', 'tool_call', 'tool_result', 'chunk', 'done'])
  t.same(events.find(e => e.event === 'tool_call')?.data, { tool: 'echo', arguments: { message: 'streamed' } })
  t.same(events.find(e => e.event === 'tool_result')?.data, { tool: 'echo', content: 'Echo: streamed' })
  const text = events.filter(e => e.event === 'chunk').map(e => e.data.content as string).join('')
  t.equal(text, 'The tool said: Echo: streamed')
})

t.test('a chat during an outage gets a tool error result, not a failure', async t => {
  // Reconnection far away, so the outage lasts through the chat.
  const { s, fake } = await startWithChat(t, { reconnect_initial_ms: 60_000, reconnect_max_ms: 60_000 })
  const row = await s.server('everything')
  // The server dies while the model is thinking: echo was offered, then its server is gone.
  fake.enqueue(() => {
    process.kill(row!.pid!, 'SIGKILL')
    return { tool_calls: [{ id: 'c1', name: 'echo', arguments: { message: 'anyone there?' } }] }
  }, answerWithToolResult)
  const r = await s.post('/api/agent/chat', { message: 'echo during the outage', use_memory: false })
  t.equal(r.status, 200, 'the chat itself succeeds')
  const first = fake.completions[0].body as { tools: Array<{ function: { name: string } }> }
  t.ok(first.tools.some(x => x.function.name === 'echo'), 'echo was offered before the outage')
  const tool = (fake.completions[1].body.messages as Msg[]).at(-1)
  t.equal(tool?.role, 'tool')
  t.equal(tool?.tool_call_id, 'c1')
  t.notMatch(tool?.content, /^Echo:/, 'no result from the dead server')
  t.match(tool?.content, /everything/, 'the error names the server')
  const body = await r.json() as { answer: string }
  t.match(body.answer, /^The tool said: Error: Tool "echo"/, 'the model sees an error result')
  t.equal((await s.server('everything'))?.status, 'error')
})

t.test('an isError result from an MCP tool reaches the model as an error', async t => {
  const fx = await startFixtureServer('streamable_http')
  t.teardown(fx.close)
  const { s, fake } = await startWithChat(t, {}, { fx: { url: fx.url, timeout: 5 } })
  fake.enqueue({ tool_calls: [{ id: 'f1', name: 'fail', arguments: {} }] }, answerWithToolResult)
  const r = await s.post('/api/agent/chat', { message: 'run the failing tool', use_memory: false })
  t.equal(r.status, 200)
  const tool = (fake.completions[1].body.messages as Msg[]).at(-1)
  t.match(tool, { role: 'tool', tool_call_id: 'f1', content: 'Error: the fixture failed on purpose' })
})

t.test('a streaming client that disconnects while an MCP tool runs cancels the call on the server', async t => {
  const fx = await startFixtureServer('streamable_http')
  t.teardown(fx.close)
  const { s, fake } = await startWithChat(t, {}, { fx: { url: fx.url, timeout: 5 } })
  fake.enqueue({ tool_calls: [{ id: 's1', name: 'slow', arguments: { ms: 600_000 } }] })
  const ctl = new AbortController()
  const res = await s.post('/api/agent/chat/stream', { message: 'run the slow tool', use_memory: false }, { signal: ctl.signal })
  const reader = res.body!.getReader()
  let text = ''
  while (!text.includes('event: tool_call')) text += new TextDecoder().decode((await reader.read()).value)
  await until('the call to reach the server', () => fx.slowStarted() === 1)
  ctl.abort()
  // The tool would run ten minutes: only the cancellation can end it in the test's time.
  await until('the MCP server to get notifications/cancelled', () => fx.cancelled() === 1)
  t.equal(fake.completions.length, 1, 'no further model call')
})
