// timeout_seconds covers the whole run: the tool listing before planning counts, and the
// memory store after the run is waited for only within the time that is left.
import t from 'tap'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startAgent } from '../../test/helpers/agent.ts'
import { memoryJournal, releaseStores, storeGate } from '../../test/helpers/fake-memory.ts'
import { fixturePlugin } from '../../test/helpers/workspace.ts'

const chatFixture = (name: string): string => path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/chat/fixtures', name)

t.test('a slow tool listing counts toward timeout_seconds', async t => {
  const h = await startAgent(t, {
    tools: false,
    agent: { enable_planning: false, timeout_seconds: 1 },
    replies: { cot: { text: 'Answered.' } },
    // A listing of ten minutes: only the run's time limit can end the wait for it.
    extraPlugins: [{ name: 'test-tools', module: chatFixture('test-tools'), options: { list_delay_ms: 600_000 } }],
  })
  const { status, body } = await h.run({ task: 'Explain tides', reasoning_strategy: 'cot' })
  t.equal(status, 200)
  t.equal(body.status, 'failed')
  t.equal(body.error.code, 'AGENT_ERR_AGENT_TIMEOUT')
  t.equal(h.fake.completions.length, 0, 'no model call was started after the time ran out')
})

t.test('a store slower than the remaining time does not hold the answer past timeout_seconds', async t => {
  memoryJournal().length = 0
  storeGate()
  const h = await startAgent(t, {
    agent: { enable_planning: false, timeout_seconds: 1 },
    replies: { cot: { text: 'Answered quickly.' } },
    extraPlugins: [{ name: 'fake-memory', module: fixturePlugin('fake-memory'), options: { gate_stores: true } }],
  })
  t.teardown(releaseStores)
  const { body } = await h.run({ task: 'Explain tides', reasoning_strategy: 'cot' })
  t.equal(body.status, 'complete')
  t.equal(body.answer, 'Answered quickly.')
  // Waiting out the store's own 5 s bound would end in its error, not `background`: the
  // trace tells the two apart without a clock.
  t.notOk(body.trace.some((e: { type: string, content: string }) => e.type === 'memory' && /failed|no answer/.test(e.content)), 'the store\'s own bound was not waited out')
  t.ok(body.trace.some((e: { type: string, content: string }) => e.type === 'memory' && /background/.test(e.content)), 'the trace says the store continues in the background')
  t.equal(memoryJournal().filter(c => c.op === 'storeTurn').length, 1, 'the store had started')
  releaseStores()
})
