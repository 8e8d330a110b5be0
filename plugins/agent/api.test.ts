// Request errors of POST /api/agent/run: clear 4xx bodies, never a 500, nothing run.
import t from 'tap'
import { startAgent } from '../../test/helpers/agent.ts'
import { startKernel } from '../../test/helpers/kernel.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'

t.test('bad requests get DECISIONS.md error bodies and reach no model', async t => {
  const h = await startAgent(t, { env: { AGENT_MAX_CHAT_LENGTH: '50' } })
  const empty = await h.run({ task: '   ' })
  t.equal(empty.status, 400)
  t.equal(empty.body.code, 'AGENT_ERR_AGENT_EMPTY_TASK')
  t.match(empty.body.error, /non-empty string/)

  const missing = await h.run({ reasoning_strategy: 'cot' })
  t.equal(missing.status, 400)
  t.equal(missing.body.code, 'AGENT_ERR_VALIDATION')
  t.match(missing.body.details[0].message, /task/)

  const unknown = await h.run({ task: 'hi', reasoning_strategy: 'astrology' })
  t.equal(unknown.status, 400)
  t.equal(unknown.body.code, 'AGENT_ERR_AGENT_UNKNOWN_STRATEGY')
  t.equal(unknown.body.error, 'Unknown reasoning_strategy "astrology"; registered: auto, cot, tot, react, reflection.')

  const long = await h.run({ task: 'x'.repeat(51) })
  t.equal(long.status, 413)
  t.match(long.body.error, /limit is 50/)

  const badConfig = await h.run({ task: 'hi', config: { max_iterations: 0, bogus: true } })
  t.equal(badConfig.status, 400)
  t.equal(badConfig.body.code, 'AGENT_ERR_VALIDATION')

  const badModel = await h.run({ task: 'hi', config: { default_model: 'nosuch/model' } })
  t.equal(badModel.status, 400)
  t.equal(badModel.body.code, 'AGENT_ERR_PROVIDER_UNKNOWN')
  t.match(badModel.body.error, /fake/, 'lists the configured providers')

  const wrongType = await h.run({ task: 42 })
  t.equal(wrongType.status, 400)

  t.equal(h.fake.completions.length, 0, 'no request reached the model')
})

t.test('without strategy plugins: 503 that says what to enable', async t => {
  const h = await startAgent(t, { strategies: [] })
  const r = await h.run({ task: 'hi' })
  t.equal(r.status, 503)
  t.equal(r.body.code, 'AGENT_ERR_AGENT_NO_STRATEGIES')
})

t.test('without a provider: 503 naming what to add', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'cot', module: repoPlugin('strategy-cot') }, { name: 'providers-api', module: repoPlugin('providers-api') }, { name: 'agent', module: repoPlugin('agent') }] })
  const res = await s.post('/api/agent/run', { task: 'hi' })
  t.equal(res.status, 503)
  t.match((await res.json() as { error: string }).error, /provider/)
})

t.test('an upstream error ends the run as failed: 502 with the error body and the partial result', async t => {
  const h = await startAgent(t, { agent: { enable_planning: false }, replies: { cot: { status: 401, message: 'bad key' } } })
  const r = await h.run({ task: 'Why is the sky blue?', reasoning_strategy: 'cot' })
  t.equal(r.status, 502)
  t.equal(r.body.statusCode, 502)
  t.equal(r.body.code, 'AGENT_ERR_PROVIDER_AUTH', 'a 401 upstream is the provider\'s auth error')
  t.match(r.body.error, /rejected the API key/)
  t.equal(r.body.status, 'failed')
  t.match(r.body.task_id, /\S/)
  t.same(h.kinds(), ['cot'], 'the one model call was made')
  t.ok(r.body.trace.length > 0, 'what was done is kept')
  t.match(r.body.trace.at(-1), { type: 'error', content: /rejected the API key/ }, 'the trace ends with the failure')
})

t.test('a default_reasoning_strategy that is not registered refuses to load, saying which exist', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'cot', module: repoPlugin('strategy-cot') }, { name: 'providers-api', module: repoPlugin('providers-api') }, { name: 'agent', module: repoPlugin('agent'), options: { default_reasoning_strategy: 'tot' } }] })
  const { body } = await s.json('/api/plugins')
  t.match(body.last_reload.error, /default_reasoning_strategy "tot" is not registered; registered: auto, cot/)
})

t.test('include_trace false leaves the trace out', async t => {
  const h = await startAgent(t, { agent: { enable_planning: false } })
  const r = await h.run({ task: 'Why?', reasoning_strategy: 'cot', include_trace: false })
  t.equal(r.body.status, 'complete')
  t.equal(r.body.trace, undefined)
})

t.test('a model the provider does not know is a 404 naming it, found by the planning call', async t => {
  const h = await startAgent(t, { replies: { plan: { status: 404, message: 'model "m9" not found, try pulling it first' } } })
  const r = await h.run({ task: 'Why is the sky blue?', reasoning_strategy: 'cot', config: { default_model: 'fake/m9' } })
  t.equal(r.status, 404)
  t.equal(r.body.code, 'AGENT_ERR_PROVIDER_MODEL_NOT_FOUND')
  t.match(r.body.error, /"m9"/)
  t.equal(r.body.status, 'failed')
  t.same(h.kinds(), ['plan'], 'no step runs on a model that does not exist')
})
