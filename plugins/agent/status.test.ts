// GET /api/agent/status for agent runs: with two parallel tool calls `executing` until
// the last of them ends (not when the first does), then `reasoning` while the model reads
// the results; the route exists without the chat plugin, and once with both.
import t from 'tap'
import { startAgent } from '../../test/helpers/agent.ts'
import { fixturePlugin, repoPlugin } from '../../test/helpers/workspace.ts'
import { slowToolCalls } from '../../test/fixtures/plugins/slow-tool/index.ts'
import { startKernel } from '../../test/helpers/kernel.ts'
import { startFakeOpenAI } from '../../test/fakes/openai-upstream.ts'

const sleep = async (ms: number): Promise<void> => { await new Promise(resolve => setTimeout(resolve, ms)) }
const statusPlugins = [{ name: 'prompts', module: repoPlugin('prompts') }, { name: 'chat', module: repoPlugin('chat') }]

t.test('two parallel slow tools: executing until both ended, reasoning during the next model call', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    config: { models: { overrides: { 'fake/m1': { supports_tools: true } } } },
    replies: {
      react: (req) => req.body.messages.some((m: { role: string }) => m.role === 'tool')
        ? { text: 'Final Answer: waited twice', firstDelayMs: 500 }
        : { text: 'Thought: wait twice', tool_calls: [{ id: 'w1', name: 'wait', arguments: { ms: 100 } }, { id: 'w2', name: 'wait', arguments: { ms: 1000 } }] },
    },
    extraPlugins: [...statusPlugins, { name: 'slow-tool', module: fixturePlugin('slow-tool') }],
  })
  slowToolCalls().length = 0
  let done = false
  const run = h.run({ task: 'Wait using the wait tool', reasoning_strategy: 'react' }).finally(() => { done = true })
  const duringTools: string[] = []
  const duringSecondCall: string[] = []
  while (!done) {
    const tools = slowToolCalls().length
    const calls = h.fake.completions.length
    const { body } = await h.s.json('/api/agent/status')
    const task = body.active_tasks.find((x: { kind: string }) => x.kind === 'agent')
    // Sampled only when nothing moved on while the request was in flight.
    if (task !== undefined && slowToolCalls().length === tools && h.fake.completions.length === calls) {
      if (tools === 2 && calls === 1) duringTools.push(task.status)
      if (calls === 2) duringSecondCall.push(task.status)
    }
    await sleep(20)
  }
  const { body } = await run
  t.equal(body.status, 'complete')
  t.ok(duringTools.length >= 4, `polled while the tools ran (${duringTools.length} times)`)
  t.ok(duringTools.every(x => x === 'executing'), `executing while either tool runs: ${duringTools.join(',')}`)
  t.ok(duringSecondCall.filter(x => x === 'reasoning').length >= 3, `reasoning during the model call after the tools: ${duringSecondCall.join(',')}`)
  t.notOk(duringSecondCall.includes('executing'))
})

t.test('agent without the chat plugin: GET /api/agent/status exists and lists the run', async t => {
  const h = await startAgent(t, { agent: { enable_planning: false }, replies: { cot: { text: 'Tides follow the moon.', firstDelayMs: 600 } } })
  t.same((await h.s.json('/api/agent/status')).body, { status: 'idle', active_tasks: [] })
  let done = false
  const run = h.run({ task: 'Explain tides', reasoning_strategy: 'cot' }).finally(() => { done = true })
  const seen: string[] = []
  while (!done) {
    const { status, body } = await h.s.json('/api/agent/status')
    t.equal(status, 200)
    const task = body.active_tasks.find((x: { kind: string }) => x.kind === 'agent')
    if (task !== undefined && !seen.includes(task.status)) seen.push(task.status)
    await sleep(20)
  }
  t.equal((await run).body.status, 'complete')
  t.ok(seen.includes('reasoning'), `the run was listed: ${seen.join(',')}`)
  t.same((await h.s.json('/api/agent/status')).body, { status: 'idle', active_tasks: [] })
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
  t.same((await s.json('/api/agent/status')).body, { status: 'idle', active_tasks: [] })
  t.equal((await s.post('/api/agent/chat', { message: 'hi', model: 'fake/m1' })).status, 200, 'chat loaded too')
})
