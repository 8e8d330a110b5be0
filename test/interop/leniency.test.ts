// What clients may send (DECISIONS.md): lenient where it is safe, strict where it matters.
// One test per rule: an empty body is no body on every route; chat, stream and agent-run
// requests drop fields they do not know (logged at debug) but refuse wrong types of the
// ones they know; settings and config updates keep refusing unknown keys.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { startChat, streamChat, MODEL } from '../chat/helpers.ts'
import { startAgent } from '../helpers/agent.ts'
import { repoPlugin } from '../helpers/workspace.ts'

t.test('an empty body is no body, whatever its Content-Type; a non-empty body nobody parses is still a 415', async t => {
  const s = await startKernel(t, { plugins: [] })
  for (const type of ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded']) {
    const r = await s.json('/api/plugins/reload', { method: 'POST', headers: { 'content-type': type } })
    t.equal(r.status, 200, `${type} with no body works as no header does`)
    t.equal(r.body.ok, true)
  }
  const bad = await s.json('/api/plugins/reload', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' })
  t.equal(bad.status, 415)
  const broken = await s.json('/api/plugins/reload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' })
  t.equal(broken.status, 400)
  t.equal(broken.body.code, 'AGENT_ERR_MALFORMED_JSON', 'non-empty JSON is still parsed strictly')
})

t.test('a route that needs a body answers an empty JSON body as it answers no body at all', async t => {
  const { s } = await startChat(t)
  const withHeader = await s.json('/api/agent/chat', { method: 'POST', headers: { 'content-type': 'application/json' } })
  const without = await s.json('/api/agent/chat', { method: 'POST' })
  t.equal(withHeader.status, 400)
  t.equal(withHeader.body.code, 'AGENT_ERR_VALIDATION')
  // The same answer but for each request's own id.
  t.same({ ...withHeader.body, request_id: undefined }, { ...without.body, request_id: undefined })
})

t.test('chat ignores fields it does not know and names them at debug level', async t => {
  const { s, fake } = await startChat(t, { logLevel: 'debug' })
  fake.enqueue({ text: 'Hello.' })
  const r = await s.post('/api/agent/chat', { message: 'hi', model: MODEL, show_reasoning: true, agent_profile_id: 'x', stream_mode: { a: 1 } })
  t.equal(r.status, 200)
  t.equal(((await r.json()) as { response: string }).response, 'Hello.')
  const logged = s.logs.find(l => l.msg === 'ignored request fields this server does not know')
  t.match(logged, { level: 20, ignored: ['show_reasoning', 'agent_profile_id', 'stream_mode'] })
})

t.test('the chat stream ignores fields it does not know', async t => {
  const { s, fake } = await startChat(t)
  fake.enqueue({ text: 'Streamed.' })
  const r = await streamChat(s, { message: 'hi', model: MODEL, show_reasoning: true, agent_profile_id: 'p' })
  t.equal(r.status, 200)
  t.same(r.events.map(e => e.event).filter(e => e !== 'chunk' && e !== ':'), ['start', 'done'])
  t.equal(r.events.filter(e => e.event === 'chunk').map(e => e.data.content).join(''), 'Streamed.')
})

t.test('an agent run ignores fields it does not know, at the top and in config', async t => {
  const h = await startAgent(t, { strategies: ['strategy-cot'] })
  const r = await h.run({ task: 'Say hi', reasoning_strategy: 'cot', show_reasoning: true, config: { enable_planning: false, future_knob: 3 } })
  t.equal(r.status, 200)
  t.equal(r.body.status, 'complete')
  t.notOk(h.kinds().includes('plan'), 'the known config field still applies')
})

t.test('wrong types of known fields are still refused, naming the field', async t => {
  const { s } = await startChat(t)
  const chat = await s.post('/api/agent/chat', { message: 'hi', temperature: 'hot', show_reasoning: true })
  t.equal(chat.status, 400)
  const body = (await chat.json()) as { code: string, details: Array<{ path: string }> }
  t.equal(body.code, 'AGENT_ERR_VALIDATION')
  t.same(body.details.map(d => d.path), ['body.temperature'])
  const stream = await streamChat(s, { message: 'hi', use_memory: 'yes' })
  t.equal(stream.status, 400)
  t.match(stream.type, /application\/json/, 'refused before any event')

  const h = await startAgent(t, { strategies: ['strategy-cot'] })
  const run = await h.run({ task: 'x', config: { max_iterations: 'many' } })
  t.equal(run.status, 400)
  t.match(run.body.details[0].path, /config\.max_iterations/)
})

t.test('config updates keep refusing unknown keys', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'local', module: repoPlugin('provider-openai-compatible') }, { name: 'config-api', module: repoPlugin('config-api') }] })
  for (const patch of [{ providers: { local: { show_reasoning: true } } }, { preferences: { theme: 'dark' } }, { providers: { lmstudio: { colour: 'red' } } }]) {
    const r = await s.post('/api/config/update', patch)
    t.equal(r.status, 400, JSON.stringify(patch))
    t.match(((await r.json()) as { error: string }).error, /Unknown configuration key/)
  }
})
