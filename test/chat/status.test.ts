// GET /api/agent/status follows a chat through its tool loop: `executing` while tools
// run (until the last parallel call ends), `reasoning` while the model writes the answer
// that reads the tool results.
import t from 'tap'
import { startChat } from './helpers.ts'

const sleep = async (ms: number): Promise<void> => { await new Promise(resolve => setTimeout(resolve, ms)) }

for (const stream of [false, true]) {
  t.test(`status during the model call after a round of parallel tools (${stream ? 'stream' : 'JSON'})`, async t => {
    const { s, fake } = await startChat(t)
    fake.enqueue(
      { tool_calls: [{ id: 'a', name: 'slow_echo', arguments: { text: 'a', ms: 100 } }, { id: 'b', name: 'slow_echo', arguments: { text: 'b', ms: 500 } }], firstDelayMs: 300 },
      { text: 'Both done.', firstDelayMs: 600 },
    )
    let done = false
    const pending = s.post(stream ? '/api/agent/chat/stream' : '/api/agent/chat', { message: 'echo twice' }).then(async r => await r.text()).finally(() => { done = true })
    const seen: string[] = []
    const duringSecondCall: string[] = []
    while (!done) {
      const calls = fake.completions.length
      const { body } = await s.json('/api/agent/status')
      const task = body.active_tasks[0]
      if (task !== undefined && seen.at(-1) !== task.status) seen.push(task.status)
      // The second model call is in flight when the upstream has it and it has not answered.
      if (task !== undefined && calls === 2 && fake.completions.length === 2) duringSecondCall.push(task.status)
      await sleep(20)
    }
    await pending
    t.same(seen, ['reasoning', 'executing', 'reasoning'], `transitions: ${seen.join(' -> ')}`)
    t.ok(duringSecondCall.length >= 3, `polled during the second model call (${duringSecondCall.length} times)`)
    t.ok(duringSecondCall.every(x => x === 'reasoning'), `reasoning throughout the second call: ${duringSecondCall.join(',')}`)
  })
}
