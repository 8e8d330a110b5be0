// GET /api/agent/status for agent runs: with two parallel tool calls `executing` until
// the last of them ends (not when the first does), then `reasoning` while the model reads
// the results; the route exists without the chat plugin, and once with both.
import t from 'tap'
import { startAgent } from '../../test/helpers/agent.ts'
import { fixturePlugin, repoPlugin } from '../../test/helpers/workspace.ts'
import { slowToolCalls } from '../../test/fixtures/plugins/slow-tool/index.ts'
import { startKernel } from '../../test/helpers/kernel.ts'
import { startFakeOpenAI } from '../../test/fakes/openai-upstream.ts'
import { gate, namedGate } from '../../test/helpers/gate.ts'
import { until } from '../../test/helpers/poll.ts'
import { statusNow } from '../../test/helpers/status.ts'

const statusPlugins = [{ name: 'prompts', module: repoPlugin('prompts') }, { name: 'chat', module: repoPlugin('chat') }]

t.test('two parallel slow tools: executing until both ended, reasoning during the next model call', async t => {
  const w1 = namedGate('agent-status-w1', t)
  const w2 = namedGate('agent-status-w2', t)
  const answer = gate()
  t.teardown(answer.open)
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    config: { models: { overrides: { 'fake/m1': { supports_tools: true } } } },
    replies: {
      react: (req) => req.body.messages.some((m: { role: string }) => m.role === 'tool')
        ? { text: 'Final Answer: waited twice', gate: answer.promise }
        : { text: 'Thought: wait twice', tool_calls: [{ id: 'w1', name: 'wait', arguments: { gate: 'agent-status-w1' } }, { id: 'w2', name: 'wait', arguments: { gate: 'agent-status-w2' } }] },
    },
    extraPlugins: [...statusPlugins, { name: 'slow-tool', module: fixturePlugin('slow-tool') }],
  })
  slowToolCalls().length = 0
  const tool = (name: string): string | undefined => slowToolCalls().find(c => c.gate === name)?.outcome
  const run = h.run({ task: 'Wait using the wait tool', reasoning_strategy: 'react' })
  await until('both tools to run', () => tool('agent-status-w1') === 'running' && tool('agent-status-w2') === 'running')
  t.equal((await statusNow(h.s, 'agent')).task?.status, 'executing', 'executing while both tools run')
  w1.open()
  await until('the first tool to end', () => tool('agent-status-w1') === 'done')
  t.equal((await statusNow(h.s, 'agent')).task?.status, 'executing', 'still executing while the other tool runs')
  t.equal(h.fake.completions.length, 1, 'no model call before the last tool ended')
  w2.open()
  await until('the model call that reads the results', () => h.fake.completions.length === 2)
  t.equal((await statusNow(h.s, 'agent')).task?.status, 'reasoning', 'reasoning during the model call after the tools')
  answer.open()
  const { body } = await run
  t.equal(body.status, 'complete')
})

t.test('agent without the chat plugin: GET /api/agent/status exists and lists the run', async t => {
  const answer = gate()
  t.teardown(answer.open)
  const h = await startAgent(t, { agent: { enable_planning: false }, replies: { cot: { text: 'Tides follow the moon.', gate: answer.promise } } })
  t.same((await h.s.json('/api/agent/status')).body, { status: 'idle', active_tasks: [], active_sessions: 0 })
  const run = h.run({ task: 'Explain tides', reasoning_strategy: 'cot' })
  await until('the model call', () => h.fake.completions.length === 1)
  const now = await statusNow(h.s, 'agent')
  t.match(now, { overall: 'reasoning', task: { kind: 'agent', status: 'reasoning' } }, 'the run is listed')
  answer.open()
  t.equal((await run).body.status, 'complete')
  t.same((await h.s.json('/api/agent/status')).body, { status: 'idle', active_tasks: [], active_sessions: 0 })
})

t.test('agent loaded before chat: one status route, serving both', async t => {
  const fake = await startFakeOpenAI(t, { models: ['m1'] })
  fake.fallback = () => ({ text: 'ok' })
  const s = await startKernel(t, {
    plugins: [
      { name: 'fake', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, list_models: 'server', max_retries: 0 } },
      { name: 'cot', module: repoPlugin('strategy-cot') },
      { name: 'providers-api', module: repoPlugin('providers-api') },
      { name: 'agent', module: repoPlugin('agent'), options: { default_model: 'fake/m1' } },
      ...statusPlugins,
    ],
  })
  t.same((await s.json('/api/agent/status')).body, { status: 'idle', active_tasks: [], active_sessions: 0 })
  t.equal((await s.post('/api/agent/chat', { message: 'hi', model: 'fake/m1' })).status, 200, 'chat loaded too')
})
