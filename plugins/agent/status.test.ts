// GET /api/agent/status during an agent run with two parallel tool calls: `executing`
// until the last of them ends (not when the first does), then `reasoning` while the
// model reads the results.
import t from 'tap'
import { startAgent } from './test-support.ts'
import { fixturePlugin, repoPlugin } from '../../test/helpers/workspace.ts'
import { slowToolCalls } from '../../test/fixtures/plugins/slow-tool/index.ts'

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
