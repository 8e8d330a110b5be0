// ReAct through the real server, provider and builtin tools: the model calls a real tool,
// sees its observation, and answers; the trace shows thought, action, observation, answer.
import t from 'tap'
import { startAgent } from '../../test/helpers/agent.ts'
import { parseTextAction } from './loop.ts'

const types = (trace: Array<{ type: string }>): string[] => trace.map(e => e.type).filter(x => ['thought', 'action', 'observation', 'answer'].includes(x))

t.test('native tool calls: calculate runs and its result reaches the model', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    config: { models: { overrides: { 'fake/m1': { supports_tools: true } } } },
    replies: {
      react: (req) => req.body.messages.some((m: { role: string }) => m.role === 'tool')
        ? { text: 'Thought: I have the product.\nFinal Answer: 17 * 23 = 391' }
        : { text: 'Thought: I should compute this exactly.', tool_calls: [{ id: 'c1', name: 'calculate', arguments: { expression: '17 * 23' } }] },
    },
  })
  const { body } = await h.run({ task: 'What is 17 * 23?', reasoning_strategy: 'react' })
  t.equal(body.status, 'complete')
  t.equal(body.answer, '17 * 23 = 391')
  t.same(body.tools_used, ['calculate'])
  t.equal(h.fake.completions.length, 2)
  t.ok(Array.isArray(h.fake.completions[0].body.tools) && h.fake.completions[0].body.tools.some((x: { function: { name: string } }) => x.function.name === 'calculate'), 'tools offered natively')
  const toolMsg = h.fake.completions[1].body.messages.find((m: { role: string }) => m.role === 'tool')
  t.match(toolMsg.content, /"result":391/, 'the real tool result went back to the model')
  t.same(types(body.trace), ['thought', 'action', 'observation', 'thought', 'answer'])
  const thought = body.trace.find((e: { type: string }) => e.type === 'thought')
  t.equal(thought.content, 'I should compute this exactly.')
  t.ok(thought.tokens > 0 && typeof thought.time_ms === 'number', 'the thought carries the call\'s tokens and time')
  t.equal(body.reasoning_steps, 2)
})

t.test('text protocol for models without native tools', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    // An unknown model is offered tools until its server refuses them; this one is known not to take them.
    config: { models: { overrides: { 'fake/m1': { supports_tools: false } } } },
    replies: {
      react: (req) => String(req.body.messages.at(-1).content).startsWith('Observation:')
        ? { text: 'Final Answer: 4' }
        : { text: 'Thought: add them\nAction: calculate\nAction Input: {"expression": "2+2"}' },
    },
  })
  const { body } = await h.run({ task: 'Add 2 and 2 with the calculator', reasoning_strategy: 'react' })
  t.equal(body.answer, '4')
  t.same(body.tools_used, ['calculate'])
  t.equal(h.fake.completions[0].body.tools, undefined, 'no native tools sent')
  t.match(h.fake.completions[1].body.messages.at(-1).content, /^Observation: .*"result":4/)
})

t.test('tool rounds are capped by max_tool_rounds, then the model must answer', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false, max_tool_rounds: 2 },
    config: { models: { overrides: { 'fake/m1': { supports_tools: true } } } },
    replies: { react: (req) => req.body.tools === undefined ? { text: 'Final Answer: gave up looping' } : { text: 'Thought: again', tool_calls: [{ name: 'current_time', arguments: {} }] } },
  })
  const { body } = await h.run({ task: 'Loop forever', reasoning_strategy: 'react' })
  t.equal(body.status, 'complete')
  t.equal(body.answer, 'gave up looping')
  t.equal(h.fake.completions.length, 3, 'two tool rounds, then one call without tools')
  t.equal(body.trace.filter((e: { type: string }) => e.type === 'action').length, 2)
})

t.test('parseTextAction only accepts known tools', async t => {
  const tools = [{ name: 'calculate', description: '', input_schema: {} }]
  t.same(parseTextAction('Action: calculate\nAction Input: {"expression":"1"}', tools, 'x'), { id: 'x', name: 'calculate', arguments: { expression: '1' } })
  t.equal(parseTextAction('Action: rm_rf\nAction Input: {}', tools, 'x'), undefined)
})
