// The agent's tool:after hook carries the run's memory conversation, no channel, the
// run's enable_memory and the tool's duration.
import t from 'tap'
import { startAgent } from '../../test/helpers/agent.ts'
import { fixturePlugin } from '../../test/helpers/workspace.ts'
import { storedTurns } from '../../test/helpers/fake-memory.ts'
import { toolAfterPayloads } from '../../test/chat/fixtures/tool-after-recorder/index.ts'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const recorder = { name: 'tool-after-recorder', module: path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/chat/fixtures/tool-after-recorder') }

const waitOnce = {
  react: (req: { body: { messages: Array<{ role: string }> } }) => req.body.messages.some(m => m.role === 'tool')
    ? { text: 'Final Answer: waited' }
    : { text: 'Thought: wait', tool_calls: [{ id: 'w1', name: 'wait', arguments: { ms: 200 } }] },
}

for (const enableMemory of [true, false]) {
  t.test(`tool:after names the run's conversation, use_memory ${enableMemory}, and the tool's duration`, async t => {
    toolAfterPayloads().length = 0
    storedTurns().length = 0
    const h = await startAgent(t, {
      agent: { enable_planning: false },
      config: { models: { overrides: { 'fake/m1': { supports_tools: true } } } },
      replies: waitOnce,
      extraPlugins: [{ name: 'slow-tool', module: fixturePlugin('slow-tool') }, { name: 'fake-memory', module: fixturePlugin('fake-memory') }, recorder],
    })
    const { body } = await h.run({ task: 'Wait using the wait tool', reasoning_strategy: 'react', config: { enable_memory: enableMemory } })
    t.equal(body.status, 'complete')
    t.equal(toolAfterPayloads().length, 1)
    const [p] = toolAfterPayloads()
    t.match(p, { tool: 'wait', arguments: { ms: 200 }, channel: null, use_memory: enableMemory })
    t.type(p.conversation_id, 'string')
    if (enableMemory) t.equal(p.conversation_id, storedTurns()[0]?.conversation_id, 'the same conversation the run is stored under')
    t.ok(p.duration_ms >= 150 && p.duration_ms < 5000, `duration_ms (${p.duration_ms})`)
  })
}
