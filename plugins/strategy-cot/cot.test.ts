// Chain-of-thought through the real server, provider and fake upstream: one model call,
// the numbered reasoning traced as thoughts, the answer without the think block.
import t from 'tap'
import { startAgent } from '../../test/helpers/agent.ts'

t.test('cot makes one reasoned call and answers without its think block', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    replies: { cot: { text: '<think>1. 6 times 7 is 42.\n2. Nothing else to do.</think>The answer is 42.' } },
  })
  const { status, body } = await h.run({ task: 'What is six times seven?', reasoning_strategy: 'cot' })
  t.equal(status, 200)
  t.equal(body.status, 'complete')
  t.equal(body.answer, 'The answer is 42.')
  t.match(body.thinking, /6 times 7 is 42/)
  t.equal(body.has_thinking, true)
  t.equal(body.reasoning_steps, 2)
  t.same(h.kinds(), ['cot'], 'one model call, no planning call')
  t.same(body.models_used, ['fake/m1'])
  t.ok(body.total_tokens > 0)
  t.same(body.trace.filter((e: { type: string }) => e.type === 'thought').map((e: { content: string }) => e.content), ['6 times 7 is 42.', 'Nothing else to do.'])
})
