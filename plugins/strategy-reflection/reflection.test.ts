// Reflection call pattern through the real server and provider: it stops at the first
// passing critique, and at the round cap otherwise; drafts and critiques use their models.
import t from 'tap'
import { startAgent } from '../../test/helpers/agent.ts'
import { parseVerdict } from './loop.ts'

t.test('stops when the critique passes', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    replies: {
      other: { text: 'Draft one.' },
      critique: (_req, n) => ({ text: n === 0 ? 'REVISE: the greeting is missing.' : 'PASS' }),
      revise: { text: 'Hello! Draft two.' },
    },
  })
  const { body } = await h.run({ task: 'Write a greeting', reasoning_strategy: 'reflection' })
  t.equal(body.status, 'complete')
  t.same(h.kinds(), ['other', 'critique', 'revise', 'critique'], 'draft, critique (fail), revise, critique (pass): no further call')
  t.equal(body.answer, 'Hello! Draft two.')
  t.equal(body.reasoning_steps, 2)
  const revise = h.fake.completions[2]
  t.match(revise.body.messages.at(-1).content, /the greeting is missing/, 'the revision gets the critique\'s issues')
  t.same(body.trace.filter((e: { type: string }) => e.type === 'critique').map((e: { pass: boolean }) => e.pass), [false, true])
})

t.test('stops at the round cap when no critique passes', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false, strategy_options: { reflection: { max_rounds: 2 } } },
    replies: { other: { text: 'Draft.' }, critique: { text: 'REVISE: still weak.' }, revise: (_req, n) => ({ text: `Revision ${n + 1}.` }) },
  })
  const { body } = await h.run({ task: 'Write a poem', reasoning_strategy: 'reflection' })
  t.equal(body.status, 'complete')
  t.same(h.kinds(), ['other', 'critique', 'revise', 'critique', 'revise'], '1 + 2 * max_rounds calls')
  t.equal(body.answer, 'Revision 2.')
  t.ok(body.trace.some((e: { type: string, content: string }) => e.type === 'note' && /round cap \(2\)/.test(e.content)))
})

t.test('drafts use drafting_model and critiques use reasoning_model when enabled', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false, enable_drafting: true, drafting_model: 'fake/m2', reasoning_model: 'fake/m3' },
    replies: { other: { text: 'Draft.' }, critique: { text: '{"pass": true, "issues": []}' } },
  })
  const { body } = await h.run({ task: 'Write a note', reasoning_strategy: 'reflection' })
  t.same(h.fake.completions.map(r => r.body.model), ['m2', 'm3'])
  t.same(body.models_used.sort(), ['fake/m2', 'fake/m3'])
})

t.test('verdict parsing: JSON, leading word, unclear means revise', async t => {
  t.same(parseVerdict('{"pass": false, "issues": ["too long"]}'), { pass: false, issues: ['too long'] })
  t.same(parseVerdict('```json\n{"verdict": "pass"}\n```'), { pass: true, issues: [] })
  t.equal(parseVerdict('PASS - looks good').pass, true)
  t.equal(parseVerdict('**Approved**').pass, true)
  t.equal(parseVerdict('The draft could be better.').pass, false)
})
