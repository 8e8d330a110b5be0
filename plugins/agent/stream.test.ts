// POST /api/agent/run/stream: the plan, the steps and the tool calls arrive as events while
// the run works, then the answer; input errors stay JSON 4xx; closing the stream cancels
// the run and its model call.
import t from 'tap'
import { EventSourceParserStream } from 'eventsource-parser/stream'
import { startAgent } from '../../test/helpers/agent.ts'
import { fixturePlugin } from '../../test/helpers/workspace.ts'
import { pollUntil } from '../../test/helpers/poll.ts'

interface Ev { event: string, data: any } // eslint-disable-line @typescript-eslint/no-explicit-any

/** Reads SSE events from `res` until the stream ends, calling `onEvent` for each. */
async function readEvents (res: Response, onEvent: (e: Ev) => void = () => {}): Promise<Ev[]> {
  const out: Ev[] = []
  const reader = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return out
    const e = { event: value.event ?? 'message', data: JSON.parse(value.data) }
    out.push(e)
    onEvent(e)
  }
}

t.test('agent run stream', async t => {
  const h = await startAgent(t, {
    config: { models: { overrides: { 'fake/m1': { supports_tools: true } } } },
    replies: {
      plan: { text: '{"steps":[{"type":"action","description":"wait a little"}]}' },
      react: (req) => JSON.stringify(req.body.messages).includes('never ends')
        ? { hang: true }
        : req.body.messages.some((m: { role: string }) => m.role === 'tool')
          ? { text: 'Final Answer: waited' }
          : { text: 'Thought: wait', tool_calls: [{ name: 'wait', arguments: { ms: 1 } }] },
    },
    extraPlugins: [{ name: 'slow-tool', module: fixturePlugin('slow-tool') }],
  })

  t.test('plan, steps and the tool call as events, then the answer with its trace', async t => {
    const res = await h.s.post('/api/agent/run/stream', { task: 'Wait using the wait tool', reasoning_strategy: 'react' })
    t.equal(res.status, 200)
    t.match(res.headers.get('content-type'), /^text\/event-stream/)
    const events = await readEvents(res)
    const names = events.map(e => e.event)
    t.equal(names[0], 'plan', 'the plan first')
    t.same(events[0].data.steps.map((s: { description: string }) => s.description), ['wait a little'])
    t.equal(names.at(-1), 'answer', 'the answer last')
    const tools = events.filter(e => e.event === 'tool').map(e => [e.data.phase, e.data.tool])
    t.same(tools, [['call', 'wait'], ['result', 'wait']], 'the tool call, then its result')
    t.equal(events.find(e => e.event === 'tool' && e.data.phase === 'result')?.data.content, 'waited 1 ms')
    t.ok(names.indexOf('step') > 0 && names.indexOf('step') < names.indexOf('tool'), `steps stream before the tool: ${names.join(',')}`)
    const answer = events.at(-1)!.data
    t.equal(answer.status, 'complete')
    t.equal(answer.answer, 'waited')
    t.equal(answer.result, 'waited')
    t.equal(answer.strategy, 'react')
    t.same(answer.trace.map((s: { type: string }) => s.type), events.filter(e => e.event !== 'answer').flatMap(e => e.event === 'plan' ? ['plan'] : e.event === 'tool' ? [e.data.phase === 'call' ? 'action' : 'observation'] : [e.data.type]), 'the trace is what was streamed')
  })

  t.test('input errors are JSON answers before the stream starts', async t => {
    const empty = await h.s.post('/api/agent/run/stream', { task: '  ' })
    t.equal(empty.status, 400)
    t.equal(((await empty.json()) as { code: string }).code, 'AGENT_ERR_AGENT_EMPTY_TASK')
    const unknown = await h.s.post('/api/agent/run/stream', { task: 'hi', reasoning_strategy: 'astrology' })
    t.equal(unknown.status, 400)
    t.equal(((await unknown.json()) as { code: string }).code, 'AGENT_ERR_AGENT_UNKNOWN_STRATEGY')
    const model = await h.s.post('/api/agent/run/stream', { task: 'hi', model: 'nosuch/model' })
    t.equal(model.status, 400, 'a model no provider knows')
    t.equal(((await model.json()) as { code: string }).code, 'AGENT_ERR_PROVIDER_UNKNOWN')
  })

  t.test('closing the stream cancels the run and its model call', async t => {
    const before = h.fake.completions.length
    const ac = new AbortController()
    const res = await h.s.post('/api/agent/run/stream', { task: 'A task that never ends', reasoning_strategy: 'react' }, { signal: ac.signal })
    // The plan is streamed; the strategy's model call then hangs until the client leaves.
    const read = readEvents(res, e => { if (e.event === 'step' && e.data.type === 'strategy') ac.abort() }).catch((err: Error) => err.name)
    t.equal(await read, 'AbortError')
    const hung = await pollUntil(() => h.fake.completions.slice(before).find(r => JSON.stringify(r.body.messages).includes('never ends') && !JSON.stringify(r.body.messages).includes('You are a planner')), r => r?.aborted === true)
    t.equal(hung?.aborted, true, 'the model call was cancelled upstream')
  })
})
