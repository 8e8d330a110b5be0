// Tree-of-thought call pattern through the real server and provider: `depth` proposal
// calls, k scoring calls per expansion (k*depth in all), best-first order, one answer
// call from the best path.
import t from 'tap'
import { startAgent } from '../../test/helpers/agent.ts'
import type { RecordedRequest } from '../../test/fakes/openai-upstream.ts'
import { parseCandidates, parseScore } from './search.ts'

const lastMessage = (req: RecordedRequest): string => String(req.body.messages.at(-1).content)
/** The last thought of the path a scoring request rates ("2. p1-a" -> "p1-a"). */
const ratedThought = (req: RecordedRequest): string => /(\S+)\s*$/.exec(lastMessage(req))?.[1] ?? ''

t.test('k=3, depth=3: 3 proposals, 9 scoring calls, answer from the best path', async t => {
  const scores: Record<string, number> = { a: 9, b: 5, c: 2 }
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    replies: {
      propose: (_req, n) => ({ text: JSON.stringify([`p${n}-a`, `p${n}-b`, `p${n}-c`]) }),
      score: (req) => ({ text: `Score: ${scores[ratedThought(req).slice(-1)]}/10` }),
      tot_answer: (req) => ({ text: `final from: ${lastMessage(req).split('\n\n')[1].replaceAll('\n', ' | ')}` }),
    },
  })
  const { status, body } = await h.run({ task: 'Find the path', reasoning_strategy: 'tot' })
  t.equal(status, 200)
  t.equal(body.status, 'complete')
  const kinds = h.kinds()
  t.equal(kinds.filter(k => k === 'score').length, 9, 'k*depth = 9 scoring calls')
  t.equal(kinds.filter(k => k === 'propose').length, 3, 'one proposal per level')
  t.same(kinds, ['propose', 'score', 'score', 'score', 'propose', 'score', 'score', 'score', 'propose', 'score', 'score', 'score', 'tot_answer'])
  t.equal(body.answer, 'final from: 1. p0-a | 2. p1-a | 3. p2-a', 'the answer follows the best path')
  t.equal(body.reasoning_steps, 3)
  t.equal(body.iterations, 13)
  t.equal(body.trace.filter((e: { type: string }) => e.type === 'candidate').length, 9)
  t.ok(body.trace.filter((e: { type: string }) => e.type === 'score').every((e: { tokens: number, model: string }) => e.tokens > 0 && e.model === 'fake/m1'), 'each score has tokens and model')
})

t.test('best-first: a better shallower node is expanded before a weak deeper one', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false },
    replies: {
      propose: (_req, n) => ({ text: `1. p${n}-a\n2. p${n}-b\n3. p${n}-c` }),
      score: (req) => {
        const th = ratedThought(req)
        const table: Record<string, number> = { 'p0-a': 8, 'p0-b': 7, 'p0-c': 1, 'p1-a': 3, 'p1-b': 3, 'p1-c': 3, 'p2-a': 9, 'p2-b': 2, 'p2-c': 2 }
        return { text: String(table[th]) }
      },
      tot_answer: (req) => ({ text: lastMessage(req).split('\n\n')[1] }),
    },
  })
  const { body } = await h.run({ task: 'Explore', reasoning_strategy: 'tot' })
  const proposals = h.fake.completions.filter(r => lastMessage(r).includes('Propose '))
  t.equal(proposals.length, 3)
  t.match(lastMessage(proposals[1]), /1\. p0-a/, 'second expansion: the best first-level node')
  t.match(lastMessage(proposals[2]), /Reasoning so far:\n1\. p0-b\n\n/, 'third expansion backtracks to the second-best first-level node')
  t.equal(body.answer, '1. p0-b\n2. p2-a')
})

t.test('options k/depth/breadth from the agent options, and JSON mode when the model has it', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false, strategy_options: { tot: { k: 2, depth: 2, breadth: 1 } } },
    config: { models: { overrides: { 'fake/m1': { supports_json_mode: true } } } },
    replies: { propose: (_req, n) => ({ text: JSON.stringify({ thoughts: [`p${n}-a`, `p${n}-b`] }) }), score: { text: '6' } },
  })
  const { body } = await h.run({ task: 'Small tree', reasoning_strategy: 'tot' })
  t.equal(body.status, 'complete')
  t.equal(h.kinds().filter(k => k === 'score').length, 4, 'k*depth = 2*2')
  const propose = h.fake.completions.find(r => lastMessage(r).includes('Propose '))
  t.equal(propose?.body.response_format?.type, 'json_schema', 'the proposal is schema-constrained')
})

t.test('tolerant candidate and score parsing', async t => {
  t.same(parseCandidates('Here:\n```json\n["x", "y", "z", "w"]\n```', 3), ['x', 'y', 'z'])
  t.same(parseCandidates('1. first\n2. second', 3), ['first', 'second'])
  t.same(parseCandidates('{"thoughts": ["a"]}', 3), ['a'])
  t.equal(parseScore('Score: 7/10'), 0.7)
  t.equal(parseScore('0.4'), 0.4)
  t.equal(parseScore('1'), 0.1, 'a whole number is on the 1-10 scale')
  t.equal(parseScore('{"score": 10}'), 1)
  t.equal(parseScore('no idea'), undefined)
})

t.test('per-run strategy_options merge over the plugin-level ones', async t => {
  const h = await startAgent(t, {
    agent: { enable_planning: false, strategy_options: { tot: { k: 2, depth: 3 } } },
    replies: { propose: { text: '["x", "y", "z"]' }, score: { text: '5' } },
  })
  await h.run({ task: 'Tree', reasoning_strategy: 'tot', config: { strategy_options: { tot: { depth: 1 } } } })
  t.same(h.kinds(), ['propose', 'score', 'score', 'tot_answer'], 'k=2 from the plugin options, depth=1 from the request')
})
