// The planner: JSON-schema-constrained when the model has JSON mode, a tolerant parser
// otherwise, a one-step plan when planning is off or fails; each step runs with the
// model its type calls for.
import t from 'tap'
import { normaliseType, oneStepPlan, parsePlan } from './planner.ts'
import { startAgent } from '../../test/helpers/agent.ts'

t.test('parsePlan reads JSON, fenced JSON in prose, and numbered lists', async t => {
  t.same(parsePlan('{"steps":[{"type":"research","description":"find"},{"type":"generation","description":"write"}]}', 5)?.map(s => [s.index, s.type, s.role]),
    [[1, 'research', 'reasoning'], [2, 'generation', 'drafting']])
  t.same(parsePlan('Sure! Here is the plan:\n```json\n[{"kind": "Analyze", "task": "compare"},]\n```\nGood luck.', 5)?.map(s => [s.type, s.description]), [['analysis', 'compare']])
  t.same(parsePlan('1. [research] look up the facts\n2. Generation: write the summary\n3. verify the numbers', 5)?.map(s => [s.type, s.description]),
    [['research', 'look up the facts'], ['generation', 'write the summary'], ['verification', 'verify the numbers']])
  t.equal(parsePlan('1. a\n2. b\n3. c\n4. d', 2)?.length, 2, 'cut to max_plan_steps')
  t.equal(parsePlan('I cannot plan this.', 5), undefined)
  t.equal(parsePlan('{"steps": []}', 5), undefined)
})

t.test('step types are normalised; unknown ones become analysis', async t => {
  t.equal(normaliseType('tool_use'), 'action')
  t.equal(normaliseType('Writing'), 'generation')
  t.equal(normaliseType('lookup'), 'research')
  t.equal(normaliseType('ponder deeply'), 'analysis')
  t.same(oneStepPlan('Write a haiku').map(s => s.type), ['generation'])
  t.same(oneStepPlan('Why is the sky blue?').map(s => s.type), ['analysis'])
})

t.test('with JSON mode the plan request carries the JSON schema', async t => {
  const h = await startAgent(t, {
    config: { models: { overrides: { 'fake/m1': { supports_json_mode: true } } } },
    replies: { plan: { text: '{"steps":[{"type":"analysis","description":"think"}]}' }, cot: { text: 'done' } },
  })
  const { body } = await h.run({ task: 'Explain gravity', reasoning_strategy: 'cot' })
  t.equal(body.status, 'complete')
  const plan = h.fake.completions[0]
  t.equal(plan.body.response_format?.type, 'json_schema')
  t.same(plan.body.response_format?.json_schema?.schema?.properties?.steps?.items?.properties?.type?.enum, ['research', 'analysis', 'generation', 'action', 'verification'])
  const entry = body.trace.find((e: { type: string }) => e.type === 'plan')
  t.equal(entry.source, 'model')
  t.ok(entry.tokens > 0 && entry.model === 'fake/m1', 'the plan entry has the call\'s model and tokens')
})

t.test('without JSON mode: no response_format, a numbered list is parsed, each step runs in order with its model', async t => {
  const h = await startAgent(t, {
    agent: { reasoning_model: 'fake/m3', drafting_model: 'fake/m2', enable_drafting: true },
    replies: {
      plan: { text: 'Plan:\n1. Research: collect facts about owls\n2. Generation: write the paragraph' },
      cot: (req) => ({ text: String(req.body.messages.at(-1).content).includes('step 1 of 2') ? 'Owls are nocturnal.' : 'Owls hunt at night.' }),
    },
  })
  const { body } = await h.run({ task: 'Tell me about owls', reasoning_strategy: 'cot' })
  t.equal(body.status, 'complete')
  t.equal(h.fake.completions[0].body.response_format, undefined)
  t.equal(body.plan_steps, 2)
  t.same(body.plan.map((s: { type: string }) => s.type), ['research', 'generation'])
  t.same(h.fake.completions.map(r => r.body.model), ['m3', 'm3', 'm2'], 'planner and research on the reasoning model, generation on the drafting model')
  t.match(h.fake.completions[2].body.messages[0].content, /Owls are nocturnal\./, 'step 2 sees step 1\'s result')
  t.equal(body.answer, 'Owls hunt at night.', 'the last step is the answer')
  t.same(body.models_used.sort(), ['fake/m2', 'fake/m3'])
})

t.test('a failing planner call falls back to a one-step plan and the run completes', async t => {
  const h = await startAgent(t, { replies: { plan: { status: 500, message: 'planner exploded' }, cot: { text: 'fine anyway' } } })
  const { body } = await h.run({ task: 'Why is the sky blue?', reasoning_strategy: 'cot' })
  t.equal(body.status, 'complete')
  t.equal(body.answer, 'fine anyway')
  t.equal(body.plan_steps, 1)
  const entry = body.trace.find((e: { type: string }) => e.type === 'plan')
  t.equal(entry.source, 'fallback')
  t.match(entry.error, /planning call failed/)
})

t.test('an unusable plan reply and disabled planning both give the one-step plan', async t => {
  const h = await startAgent(t, { replies: { plan: { text: 'no idea, sorry' } } })
  const a = await h.run({ task: 'Task A', reasoning_strategy: 'cot' })
  t.equal(a.body.trace.find((e: { type: string }) => e.type === 'plan').source, 'fallback')
  const before = h.fake.completions.length
  const b = await h.run({ task: 'Task B', reasoning_strategy: 'cot', config: { enable_planning: false } })
  t.equal(b.body.trace.find((e: { type: string }) => e.type === 'plan').source, 'disabled')
  t.same(h.fake.completions.slice(before).map(r => h.kinds()[h.fake.completions.indexOf(r)]), ['cot'], 'no planning call when disabled')
})
