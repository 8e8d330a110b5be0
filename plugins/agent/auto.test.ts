// The `auto` rule: tools needed -> react, open-ended -> tot, quality-sensitive writing ->
// reflection, else cot; rules can be replaced in the agent's options.
import t from 'tap'
import { chooseStrategy, DEFAULT_AUTO_RULES } from './auto.ts'
import { startAgent } from '../../test/helpers/agent.ts'

const ALL = ['cot', 'tot', 'react', 'reflection']
const pick = (task: string, tools = ['calculate', 'current_time'], registered = ALL): string =>
  chooseStrategy({ task, toolNames: tools, registered, rules: DEFAULT_AUTO_RULES, fallback: 'cot' }).strategy

t.test('the built-in rule, case by case', async t => {
  t.equal(pick('What is 17 * 23?'), 'react', 'arithmetic needs the calculator')
  t.equal(pick('What time is it in Tokyo right now?'), 'react')
  t.equal(pick('Use current_time to tell me the weekday'), 'react', 'a tool named in the task')
  t.equal(pick('What is 17 * 23?', []), 'cot', 'no tools available: not react')
  t.equal(pick('Brainstorm ideas for a team offsite'), 'tot')
  t.equal(pick('What are the pros and cons of remote work?'), 'tot')
  t.equal(pick('Write a cover letter for a junior developer job'), 'reflection')
  t.equal(pick('Proofread this email to my landlord'), 'reflection')
  t.equal(pick('Why is the sky blue?'), 'cot')
  t.equal(pick('Brainstorm ideas', ['calculate'], ['cot', 'react']), 'cot', 'an unregistered strategy is skipped')
  t.equal(chooseStrategy({ task: 'Summarise this', toolNames: [], registered: ['cot'], rules: DEFAULT_AUTO_RULES, fallback: 'cot', planNeedsTools: true }).strategy, 'cot')
  t.equal(chooseStrategy({ task: 'Do the thing', toolNames: ['x'], registered: ALL, rules: DEFAULT_AUTO_RULES, fallback: 'cot', planNeedsTools: true }).strategy, 'react', 'a plan step of type action needs tools')
})

t.test('auto picks per the rule through the server, and says why in the trace', async t => {
  const h = await startAgent(t, { agent: { enable_planning: false } })
  const cases: Array<[string, string]> = [
    ['What is 17 * 23?', 'react'],
    ['Brainstorm ideas for a birthday party', 'tot'],
    ['Write a short poem about rain', 'reflection'],
    ['Why is the sky blue?', 'cot'],
  ]
  for (const [task, expected] of cases) {
    const { status, body } = await h.run({ task, reasoning_strategy: 'auto' })
    t.equal(status, 200)
    t.equal(body.strategy, expected, `${task} -> ${expected}`)
    const entry = body.trace.find((e: { type: string }) => e.type === 'strategy')
    t.match(entry.content, new RegExp(`^auto chose ${expected}: `))
  }
})

t.test('auto is the default, and an explicit strategy overrides it', async t => {
  const h = await startAgent(t, { agent: { enable_planning: false } })
  t.equal((await h.run({ task: 'What is 2 + 2?' })).body.strategy, 'react', 'no reasoning_strategy means auto')
  t.equal((await h.run({ task: 'What is 2 + 2?', reasoning_strategy: 'cot' })).body.strategy, 'cot')
})

t.test('auto_rules in the options replace the built-in rule', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false, auto_rules: [{ strategy: 'reflection', pattern: '\\bhaiku\\b', reason: 'haiku need polish' }], auto_fallback: 'tot' },
  })
  const a = await h.run({ task: 'A haiku about snow, please' })
  t.equal(a.body.strategy, 'reflection')
  t.match(a.body.trace.find((e: { type: string }) => e.type === 'strategy').content, /haiku need polish/)
  t.equal((await h.run({ task: 'What is 17 * 23?' })).body.strategy, 'tot', 'the built-in react rule is gone; the fallback applies')
})

t.test('auto never picks a tool-using strategy for a run without tools', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false, auto_rules: [{ strategy: 'react', pattern: '.' }], auto_fallback: 'react' },
    tools: false,
  })
  const { body } = await h.run({ task: 'What is 17 * 23?' })
  t.equal(body.strategy, 'cot', 'react (usesTools) is skipped, even as the fallback')
})

t.test('auto with only tool-using strategies and no tools still runs one of them', async t => {
  const h = await startAgent(t, { agent: { enable_planning: false }, strategies: ['strategy-react'], tools: false, replies: { other: { text: 'Answered without tools.' } } })
  const { status, body } = await h.run({ task: 'Why is the sky blue?' })
  t.equal(status, 200, JSON.stringify(body))
  t.equal(body.status, 'complete')
  t.equal(body.strategy, 'react')
  t.equal(body.answer, 'Answered without tools.')
})
