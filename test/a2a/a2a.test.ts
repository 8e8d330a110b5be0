// A2A driven by the official SDK's own client (@a2a-js/sdk/client) against agentd, with
// the real OpenAI-compatible provider on the scripted fake upstream: the card, message/send
// and message/stream (SendMessage, SendStreamingMessage), tasks/get, tasks/cancel in the
// middle of a streamed answer, one context remembering its turns, an unknown task, and a
// caller's mistake answered with A2A's invalid-params error. One server for the file.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { Role, TaskState, type Message, type StreamResponse, type Task } from '@a2a-js/sdk'
import { ClientFactory, type Client } from '@a2a-js/sdk/client'
import { startWithFake } from '../chat/helpers.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { until } from '../helpers/poll.ts'

const { s, fake } = await startWithFake(t, {
  extra: [{ name: 'agent', module: repoPlugin('agent'), options: { enable_planning: false } }, { name: 'cot', module: repoPlugin('strategy-cot') }],
  last: { name: 'a2a', module: repoPlugin('a2a') },
})
const client: Client = await new ClientFactory().createFromUrl(s.url)

function message (text: string, opts: { contextId?: string, metadata?: Record<string, unknown> } = {}): Message {
  return {
    messageId: randomUUID(),
    contextId: opts.contextId ?? '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined }],
    metadata: opts.metadata,
    extensions: [],
    referenceTaskIds: [],
  }
}
const send = (m: Message): { tenant: string, message: Message, configuration: undefined, metadata: undefined } => ({ tenant: '', message: m, configuration: undefined, metadata: undefined })
const answerOf = (task: Task): string => task.artifacts.flatMap(a => a.parts).map(p => p.content?.$case === 'text' ? p.content.value : '').join('')
const asTask = (r: Message | Task): Task => { if (!('status' in r)) throw new Error('expected a task, got a message'); return r }

t.test('the card names the skills, streaming without push notifications, and the JSON-RPC endpoint', async t => {
  const card = await client.getAgentCard()
  t.equal(card.name, 'agentd')
  t.same(card.skills.map(k => k.id), ['chat', 'agent-run', 'translate'])
  t.equal(card.capabilities?.streaming, true)
  t.equal(card.capabilities?.pushNotifications, false)
  t.equal(card.supportedInterfaces[0].url, `${s.url}/a2a`)
  t.same(Object.keys(card.securitySchemes ?? {}), [], 'no API key required: no scheme announced')
})

t.test('message/send runs a chat turn through the pipeline and answers with a completed task; tasks/get reads it', async t => {
  fake.enqueue({ text: 'Hello from agentd.' })
  const task = asTask(await client.sendMessage(send(message('Say hello.'))))
  t.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED)
  t.equal(answerOf(task), 'Hello from agentd.')
  const sent = fake.completions.at(-1)?.body as { messages: Array<{ role: string, content: string }> }
  t.equal(sent.messages.at(-1)?.content, 'Say hello.')
  t.equal(sent.messages[0].role, 'system', 'the composed system prompt (the pipeline\'s compose stage)')
  const read = await client.getTask({ tenant: '', id: task.id })
  t.equal(read.status?.state, TaskState.TASK_STATE_COMPLETED)
  t.equal(answerOf(read), 'Hello from agentd.')
})

t.test('message/stream sends the task, working, the answer in artifact chunks as tokens arrive, then completed', async t => {
  fake.enqueue({ text: 'one two three four five', chunkSize: 4 })
  const events: StreamResponse[] = []
  for await (const e of client.sendMessageStream(send(message('Count.')))) events.push(e)
  const kinds = events.map(e => e.payload?.$case)
  t.equal(kinds[0], 'task')
  const states = events.flatMap(e => e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : [])
  t.same(states, [TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED])
  const chunks = events.flatMap(e => e.payload?.$case === 'artifactUpdate' ? [e.payload.value] : [])
  t.ok(chunks.length > 2, `several chunks (${chunks.length})`)
  const streamed = chunks.filter(c => !c.lastChunk).map(c => c.artifact?.parts[0].content?.$case === 'text' ? c.artifact.parts[0].content.value : '').join('')
  t.equal(streamed, 'one two three four five')
  const last = chunks.at(-1)
  t.equal(last?.lastChunk, true)
  t.equal(last?.append, false, 'the last chunk sets the whole answer')
})

t.test('two messages in one context: the second turn carries the first', async t => {
  const contextId = randomUUID()
  fake.enqueue({ text: 'Noted, your cat is Miso.' }, { text: 'Your cat is Miso.' })
  await client.sendMessage(send(message('My cat is called Miso.', { contextId })))
  const second = asTask(await client.sendMessage(send(message('What is my cat called?', { contextId }))))
  t.equal(second.contextId, contextId)
  const sent = fake.completions.at(-1)?.body as { messages: Array<{ role: string, content: string }> }
  t.same(sent.messages.slice(1).map(m => [m.role, m.content]), [
    ['user', 'My cat is called Miso.'],
    ['assistant', 'Noted, your cat is Miso.'],
    ['user', 'What is my cat called?'],
  ])
})

t.test('tasks/cancel in the middle of a stream aborts the upstream request and ends the task canceled', async t => {
  // An answer that would take an hour: only a cancel ends it.
  fake.enqueue({ tokens: { count: 100_000, next: i => `t${i} ` }, delayMs: 30 })
  const before = fake.completions.length
  const stream = client.sendMessageStream(send(message('Write forever.')))
  let taskId = ''
  const states: TaskState[] = []
  for await (const e of stream) {
    if (e.payload?.$case === 'task') taskId = e.payload.value.id
    if (e.payload?.$case === 'artifactUpdate' && taskId !== '' && states.length === 1) {
      const canceled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined })
      t.equal(canceled.status?.state, TaskState.TASK_STATE_CANCELED)
      states.push(TaskState.TASK_STATE_UNSPECIFIED) // marks: cancel sent
    }
    if (e.payload?.$case === 'statusUpdate' && e.payload.value.status !== undefined) states.push(e.payload.value.status.state)
  }
  t.equal(states.at(-1), TaskState.TASK_STATE_CANCELED, 'the stream ends with the canceled status')
  await until('the upstream request aborted', () => fake.completions[before]?.aborted === true)
  t.equal((await client.getTask({ tenant: '', id: taskId })).status?.state, TaskState.TASK_STATE_CANCELED)
})

t.test('the agent-run skill runs a full agent run with the strategy the metadata names', async t => {
  fake.enqueue({ text: 'Step by step: 6 times 7 is 42.' })
  const before = fake.completions.length
  const task = asTask(await client.sendMessage(send(message('What is 6 times 7?', { metadata: { skill: 'agent-run', reasoning_strategy: 'cot' } }))))
  t.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED)
  t.match(answerOf(task), /42/)
  t.equal(task.metadata?.skill, 'agent-run')
  const sent = JSON.stringify(fake.completions[before]?.body)
  t.match(sent, /What is 6 times 7\?/, 'the task reached the model through the agent run')
  await t.rejects(client.sendMessage(send(message('x', { metadata: { skill: 'agent-run', reasoning_strategy: 'astrology' } }))), { name: 'RequestMalformedError', message: /Unknown reasoning_strategy "astrology"/ })
})

t.test('A2A 0.3 method names (message/send, tasks/get) are served on the same endpoint', async t => {
  fake.enqueue({ text: 'Old-style hello.' })
  const res = await s.post('/a2a', { jsonrpc: '2.0', id: 7, method: 'message/send', params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'Hi (0.3).' }] } } })
  const body = await res.json() as { id: number, result?: { kind: string, id: string, status: { state: string }, artifacts: Array<{ parts: Array<{ text?: string }> }> } }
  t.equal(body.id, 7)
  t.equal(body.result?.status.state, 'completed')
  t.equal(body.result?.artifacts[0].parts[0].text, 'Old-style hello.')
  const got = await (await s.post('/a2a', { jsonrpc: '2.0', id: 8, method: 'tasks/get', params: { id: body.result?.id } })).json() as { result?: { status: { state: string } } }
  t.equal(got.result?.status.state, 'completed')
})

t.test('an unknown task id is A2A\'s task-not-found error for tasks/get and tasks/cancel', async t => {
  const id = randomUUID()
  await t.rejects(client.getTask({ tenant: '', id }), { name: 'TaskNotFoundError' })
  await t.rejects(client.cancelTask({ tenant: '', id, metadata: undefined }), { name: 'TaskNotFoundError' })
})

t.test('a caller\'s mistake is invalid params before any task or model call: an unknown skill, a translation without a target', async t => {
  const before = fake.completions.length
  await t.rejects(client.sendMessage(send(message('Hi', { metadata: { skill: 'dance' } }))), { name: 'RequestMalformedError', message: /Unknown skill "dance".*chat, agent-run, translate/ })
  await t.rejects(client.sendMessage(send(message('Hi', { metadata: { skill: 'translate' } }))), { name: 'RequestMalformedError', message: /target_language/ })
  t.equal(fake.completions.length, before)
})

t.test('a body that is not JSON is JSON-RPC\'s parse error (-32700) in its envelope, not the API\'s 400', async t => {
  for (const body of ['{"jsonrpc":', '']) {
    const r = await fetch(`${s.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    t.equal(r.status, 200, JSON.stringify(body))
    t.match(await r.json(), { jsonrpc: '2.0', id: null, error: { code: -32700 } })
  }
})
