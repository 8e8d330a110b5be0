// Tool calls through the tool source: isError passed on, per-call time limit, abort,
// content conversion, and list_changed refreshing the tool, resource and prompt lists.
import t, { type Test } from 'tap'
import { startMcp, isConnected } from './helpers.ts'
import { startFixtureServer } from '../fixtures/mcp/server.ts'
import { pollUntil, until } from '../helpers/poll.ts'

async function setup (t: Test, extra: Record<string, unknown> = {}) {
  const fx = await startFixtureServer('streamable_http')
  t.teardown(fx.close)
  const s = await startMcp(t, { fx: { url: fx.url, timeout: 5, ...extra } })
  await s.waitFor('fx', isConnected, 'connected')
  return { fx, s, source: s.kernel.current!.app.registry.toolSources.get('mcp') }
}

t.test('an isError result reaches the caller as an error', async t => {
  const { source } = await setup(t)
  t.same(await source.callTool('fail', {}), { content: 'the fixture failed on purpose', isError: true })
})

t.test('a call over its time limit is cancelled and reported as a tool error', async t => {
  const { fx, source } = await setup(t)
  // The call would take ten minutes: an answer at all is the time limit's.
  const r = await source.callTool('slow', { ms: 600_000 }, { timeoutMs: 300 })
  t.equal(await pollUntil(() => fx.cancelled(), n => n > 0), 1, 'the server was told to cancel the call')
  t.equal(r.isError, true)
  t.match(r.content, /did not finish within 0.3 s/)
  // The connection is still good afterwards.
  t.same(await source.callTool('add', { a: 1, b: 2 }), { content: '3', isError: false })
})

t.test('the server entry call_timeout applies when the caller gives none', async t => {
  const { source } = await setup(t, { call_timeout: 0.3 })
  const r = await source.callTool('slow', { ms: 5000 })
  t.match(r, { isError: true, content: /within 0.3 s/ })
})

t.test('the server entry call_timeout also bounds a caller that brings a longer limit (the chat does)', async t => {
  const { fx, source } = await setup(t, { call_timeout: 0.3 })
  const r = await source.callTool('slow', { ms: 600_000 }, { timeoutMs: 30_000 })
  t.match(r, { isError: true, content: /within 0.3 s/ }, 'gave up at the entry\'s limit (the message names it)')
  t.equal(await pollUntil(() => fx.cancelled(), n => n > 0), 1, 'the server was told to cancel the call')
  // A caller's shorter limit still wins.
  t.match(await source.callTool('slow', { ms: 5000 }, { timeoutMs: 100 }), { isError: true, content: /within 0.1 s/ })
})

t.test('an aborted call throws the abort reason, does not wait, and cancels on the server', async t => {
  const { fx, source } = await setup(t)
  const ac = new AbortController()
  // Aborted once the server has the call; the call would take ten minutes otherwise.
  const call = source.callTool('slow', { ms: 600_000 }, { signal: ac.signal })
  await until('the call to reach the server', () => fx.slowStarted() === 1)
  ac.abort(new Error('chat aborted'))
  await t.rejects(call, /chat aborted/)
  t.equal(await pollUntil(() => fx.cancelled(), n => n > 0), 1, 'the server was told to cancel the call')
  t.same(await source.callTool('add', { a: 2, b: 2 }), { content: '4', isError: false })
})

t.test('images and embedded resources become short text', async t => {
  const { source } = await setup(t)
  const r = await source.callTool('picture', {})
  t.equal(r.isError, false)
  t.equal(r.content, '[image: image/png, 68 bytes]\n[resource fixture://note]\na note')
})

t.test('an unknown tool name is a tool error that lists the tools', async t => {
  const { source } = await setup(t)
  const r = await source.callTool('nope', {})
  t.match(r, { isError: true, content: /Unknown tool "nope".*greet/ })
})

t.test('tools/list_changed refreshes the tool list', async t => {
  const { fx, s, source } = await setup(t)
  await fx.addTool('late_tool', 'late reply')
  const row = await pollUntil(async () => await s.server('fx'), r => r?.tools.includes('late_tool') === true)
  t.ok(row?.tools.includes('late_tool'))
  t.same(await source.callTool('late_tool', {}), { content: 'late reply', isError: false })
})

t.test('resources/list_changed refreshes the resource list', async t => {
  const { fx, s } = await setup(t)
  t.equal((await s.json('/api/mcp/resources')).body.count, 1)
  await fx.addResource('fixture://late', 'late')
  const body = await pollUntil(async () => (await s.json('/api/mcp/resources')).body as { resources: Array<{ uri: string, server: string }>, count: number }, b => b.count === 2)
  t.equal(body.count, 2)
  t.match(body.resources.find(r => r.uri === 'fixture://late'), { name: 'late', server: 'fx', mime_type: 'text/plain' })
  t.equal((await s.server('fx'))?.resources_count, 2)
})

t.test('prompts/list_changed refreshes the prompt list', async t => {
  const { fx, s } = await setup(t)
  t.equal((await s.json('/api/mcp/prompts')).body.count, 0)
  await fx.addPrompt('late_prompt', 'say hi')
  const body = await pollUntil(async () => (await s.json('/api/mcp/prompts')).body as { prompts: Array<{ name: string, server: string }>, count: number }, b => b.count === 1)
  t.match(body, { prompts: [{ name: 'late_prompt', server: 'fx' }], count: 1 })
  t.equal((await s.server('fx'))?.prompts_count, 1)
})
