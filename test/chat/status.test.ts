// GET /api/agent/status follows a chat through its tool loop: `executing` while tools
// run (until the last parallel call ends), `reasoning` while the model writes the answer
// that reads the tool results. Gates hold each phase while the test reads the status.
import t from 'tap'
import { parseSse, startChat } from './helpers.ts'
import { toolJournal } from './fixtures/test-tools/index.ts'
import { gate, namedGate } from '../helpers/gate.ts'
import { until } from '../helpers/poll.ts'
import { statusNow } from '../helpers/status.ts'

for (const stream of [false, true]) {
  t.test(`status during the model call after a round of parallel tools (${stream ? 'stream' : 'JSON'})`, async t => {
    const { s, fake } = await startChat(t)
    const tag = stream ? 'stream' : 'json'
    const firstCall = gate()
    const secondCall = gate()
    const a = namedGate(`status-a-${tag}`, t)
    const b = namedGate(`status-b-${tag}`, t)
    t.teardown(() => { firstCall.open(); secondCall.open() })
    fake.enqueue(
      { tool_calls: [{ id: 'a', name: 'slow_echo', arguments: { text: 'a', gate: `status-a-${tag}` } }, { id: 'b', name: 'slow_echo', arguments: { text: 'b', gate: `status-b-${tag}` } }], gate: firstCall.promise },
      { text: 'Both done.', gate: secondCall.promise },
    )
    const call = (name: string): { ended?: number } | undefined => toolJournal().find(r => r.args.gate === name)
    const pending = s.post(stream ? '/api/agent/chat/stream' : '/api/agent/chat', { message: 'echo twice' }).then(async r => await r.text())

    await until('the first model call', () => fake.completions.length === 1)
    t.equal((await statusNow(s)).task?.status, 'reasoning', 'reasoning during the first model call')
    firstCall.open()

    await until('both tools to start', () => call(`status-a-${tag}`) !== undefined && call(`status-b-${tag}`) !== undefined)
    t.equal((await statusNow(s)).task?.status, 'executing', 'executing while both tools run')
    a.open()
    await until('the first tool to end', () => call(`status-a-${tag}`)?.ended !== undefined)
    t.equal((await statusNow(s)).task?.status, 'executing', 'still executing while the second tool runs')
    t.equal(fake.completions.length, 1, 'the model is not called before the last tool ended')
    b.open()

    await until('the second model call', () => fake.completions.length === 2)
    t.equal((await statusNow(s)).task?.status, 'reasoning', 'reasoning during the model call that reads the results')
    secondCall.open()
    const text = await pending
    const answer = stream ? parseSse(text).filter(e => e.event === 'chunk').map(e => String(e.data.content ?? '')).join('') : String(JSON.parse(text).response)
    t.equal(answer, 'Both done.')
    t.same((await statusNow(s)).task, undefined, 'the chat left the active list')
  })
}
