// Execution: the iteration and time caps, cancellation on disconnect, status transitions
// in GET /api/agent/status, memory storage that never fails a run.
import t from 'tap'
import { startAgent } from '../../test/helpers/agent.ts'
import { fixturePlugin, repoPlugin } from '../../test/helpers/workspace.ts'
import { storedTurns } from '../../test/helpers/fake-memory.ts'
import { slowToolCalls } from '../../test/fixtures/plugins/slow-tool/index.ts'
import { gate, namedGate } from '../../test/helpers/gate.ts'
import { until } from '../../test/helpers/poll.ts'
import { statusNow } from '../../test/helpers/status.ts'

const statusPlugins = [{ name: 'prompts', module: repoPlugin('prompts') }, { name: 'chat', module: repoPlugin('chat') }]

t.test('max_iterations: the run stops at the cap as failed, with what was done', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false, max_iterations: 3, strategy_options: { reflection: { max_rounds: 5 } } },
    replies: { other: { text: 'Draft.' }, critique: { text: 'REVISE: more.' }, revise: (_req, n) => ({ text: `Revision ${n + 1}.` }) },
  })
  const { status, body } = await h.run({ task: 'Write a limerick', reasoning_strategy: 'reflection' })
  t.equal(status, 200)
  t.equal(body.status, 'failed')
  t.equal(body.error.code, 'AGENT_ERR_AGENT_MAX_ITERATIONS')
  t.match(body.error.error, /max_iterations \(3 model calls\)/)
  t.equal(h.fake.completions.length, 3, 'exactly max_iterations model calls reached the upstream')
  t.equal(body.iterations, 3)
  t.equal(body.answer, 'Revision 1.', 'the latest revision is returned')
  t.equal(body.trace.at(-1).type, 'error')
})

t.test('planning counts against max_iterations', async t => {
  const h = await startAgent(t, { agent: { max_iterations: 1 } })
  const { body } = await h.run({ task: 'Explain tides', reasoning_strategy: 'cot' })
  t.equal(body.status, 'failed')
  t.same(h.kinds(), ['plan'])
})

t.test('timeout_seconds: a hung model call is abandoned; failed with what was done', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false, timeout_seconds: 0.5 },
    replies: { other: { text: 'First draft.' }, critique: { hang: true } },
  })
  // The critique never answers: an answer at all is the time limit's doing.
  const { status, body } = await h.run({ task: 'Write a toast', reasoning_strategy: 'reflection' })
  t.equal(status, 200)
  t.equal(body.status, 'failed')
  t.equal(body.error.code, 'AGENT_ERR_AGENT_TIMEOUT')
  t.equal(body.answer, 'First draft.')
  t.ok(body.trace.some((e: { type: string }) => e.type === 'draft'), 'the trace keeps the finished draft')
  await until('the hung upstream request to be closed', () => h.fake.completions[1]?.aborted === true)
})

t.test('client disconnect cancels the run and its upstream call', async t => {
  const h = await startAgent(t, { agent: { enable_planning: false }, replies: { cot: { hang: true } }, extraPlugins: statusPlugins })
  const ac = new AbortController()
  const pending = h.s.post('/api/agent/run', { task: 'Explain tides', reasoning_strategy: 'cot' }, { signal: ac.signal }).catch((err: Error) => err)
  await until('the model call', () => h.fake.completions.length === 1)
  ac.abort()
  t.type(await pending, Error, 'the client gave up')
  await until('the upstream call to be aborted', () => h.fake.completions[0]?.aborted === true)
  await until('the task to leave the active list', async () => (await statusNow(h.s)).task === undefined)
})

t.test('status transitions show in GET /api/agent/status while the run works', async t => {
  // Each phase is held by a gate while the status is read: the plan call, the model call
  // that asks for the tool, the tool, and the model call that reads its result.
  const plan = gate()
  const act = gate()
  const tool = namedGate('run-status-wait', t)
  const answer = gate()
  t.teardown(() => { plan.open(); act.open(); answer.open() })
  const h = await startAgent(t, {
    config: { models: { overrides: { 'fake/m1': { supports_tools: true } } } },
    replies: {
      plan: { text: '{"steps":[{"type":"action","description":"wait a bit"}]}', gate: plan.promise },
      react: (req) => req.body.messages.some((m: { role: string }) => m.role === 'tool')
        ? { text: 'Final Answer: waited', gate: answer.promise }
        : { text: 'Thought: wait', tool_calls: [{ name: 'wait', arguments: { gate: 'run-status-wait' } }], gate: act.promise },
    },
    extraPlugins: [...statusPlugins, { name: 'slow-tool', module: fixturePlugin('slow-tool') }],
  })
  slowToolCalls().length = 0
  const run = h.run({ task: 'Wait using the wait tool', reasoning_strategy: 'react' })
  const seen: string[] = []
  const look = async (): Promise<void> => {
    const { overall, task } = await statusNow(h.s, 'agent')
    seen.push(task?.status ?? 'absent')
    t.equal(overall, task?.status, 'the overall status is the running task\'s')
  }
  await until('the plan call', () => h.fake.completions.length === 1)
  await look()
  plan.open()
  await until('the first strategy call', () => h.fake.completions.length === 2)
  await look()
  act.open()
  await until('the tool call', () => slowToolCalls().some(c => c.gate === 'run-status-wait'))
  await look()
  tool.open()
  await until('the model call that reads the result', () => h.fake.completions.length === 3)
  await look()
  answer.open()
  const { body } = await run
  t.equal(body.status, 'complete')
  t.same(seen, ['planning', 'reasoning', 'executing', 'reasoning'], `transitions seen: ${seen.join(' -> ')}`)
  t.equal((await h.s.json('/api/agent/status')).body.status, 'idle', 'idle once the run ended')
})

t.test('a disconnect during a tool call aborts the tool', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    config: { models: { overrides: { 'fake/m1': { supports_tools: true } } } },
    replies: { react: { text: 'Thought: wait long', tool_calls: [{ name: 'wait', arguments: { ms: 5000 } }] } },
    extraPlugins: [{ name: 'slow-tool', module: fixturePlugin('slow-tool') }],
  })
  slowToolCalls().length = 0
  const ac = new AbortController()
  const pending = h.s.post('/api/agent/run', { task: 'Wait using the wait tool', reasoning_strategy: 'react' }, { signal: ac.signal }).catch((err: Error) => err)
  await until('the tool call', () => slowToolCalls().length === 1)
  ac.abort()
  await pending
  await until('the tool to be aborted', () => slowToolCalls()[0]?.outcome === 'aborted')
})

t.test('memory on: the task and the result are stored', async t => {
  storedTurns().length = 0
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    replies: { cot: { text: 'Because of Rayleigh scattering.' } },
    extraPlugins: [{ name: 'fake-memory', module: fixturePlugin('fake-memory') }],
  })
  const { body } = await h.run({ task: 'Why is the sky blue?', reasoning_strategy: 'cot' })
  t.equal(body.status, 'complete')
  const turns = storedTurns()
  t.same(turns.map(x => [x.role, x.content]), [['user', 'Why is the sky blue?'], ['assistant', 'Because of Rayleigh scattering.']])
  t.equal(turns[0].conversation_id, turns[1].conversation_id)
  t.equal(turns[1].metadata?.task_id, body.task_id)
  t.ok(body.trace.some((e: { type: string, content: string }) => e.type === 'memory' && /stored/.test(e.content)))

  storedTurns().length = 0
  await h.run({ task: 'Again', reasoning_strategy: 'cot', config: { enable_memory: false } })
  t.same(storedTurns(), [], 'enable_memory false stores nothing')
})

for (const mode of ['unstored', 'throw']) {
  t.test(`a memory service that fails (${mode}) never fails the run`, async t => {
    const h = await startAgent(t, {
      agent: { enable_planning: false },
      replies: { cot: { text: 'Still answered.' } },
      extraPlugins: [{ name: 'fake-memory', module: fixturePlugin('fake-memory'), options: { mode } }],
    })
    const { status, body } = await h.run({ task: 'Why is the sky blue?', reasoning_strategy: 'cot' })
    t.equal(status, 200)
    t.equal(body.status, 'complete')
    t.equal(body.answer, 'Still answered.')
    t.ok(body.trace.some((e: { type: string, content: string }) => e.type === 'memory' && /failed/.test(e.content)))
  })
}

t.test('a tool the run may not use is refused to the model and not listed in tools_used', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    config: { models: { overrides: { 'fake/m1': { supports_tools: true } } } },
    replies: {
      react: (req) => req.body.messages.some((m: { role: string }) => m.role === 'tool')
        ? { text: 'Final Answer: could not compute' }
        : { text: 'Thought: compute it', tool_calls: [{ id: 'c1', name: 'calculate', arguments: { expression: '1+1' } }] },
    },
  })
  const { body } = await h.run({ task: 'What is 1+1?', reasoning_strategy: 'react', config: { blocked_tools: ['calculate'] } })
  t.equal(body.status, 'complete')
  t.notOk(h.fake.completions[0].body.tools.some((x: { function: { name: string } }) => x.function.name === 'calculate'), 'not offered')
  const toolMsg = h.fake.completions[1].body.messages.find((m: { role: string }) => m.role === 'tool')
  t.match(toolMsg.content, /not available/, 'the model is told it cannot use it')
  t.same(body.tools_used, [], 'a refused call is not a tool used')
})
