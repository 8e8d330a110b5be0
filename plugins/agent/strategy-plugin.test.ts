// A third party's strategy plugin (test/fixtures/plugins/strategy-vote, written only
// against core/contracts/strategy.ts), added to plugins.json by a relative path while the
// server runs, is usable after the live reload, with its own options.
import t from 'tap'
import path from 'node:path'
import { agentPlugins, startAgent } from '../../test/helpers/agent.ts'
import { fixturePlugin } from '../../test/helpers/workspace.ts'

t.test('a strategy plugin loaded from plugins.json by path is usable after a live reload', async t => {
  const answers = ['Paris', 'Lyon', 'paris.', 'Lyon', 'Paris']
  const h = await startAgent(t, { agent: { enable_planning: false }, replies: { other: (_req, n) => ({ text: answers[n % answers.length] }) } })
  const before = await h.run({ task: 'Capital of France?', reasoning_strategy: 'vote' })
  t.equal(before.status, 400)
  t.match(before.body.error, /registered: auto, cot, tot, react, reflection\.$/)

  const reloaded = h.s.nextReload()
  const relative = path.relative(h.s.ws.dir, fixturePlugin('strategy-vote'))
  t.notOk(path.isAbsolute(relative))
  h.s.ws.writePlugins([
    ...agentPlugins(h.fake.url, { agent: { enable_planning: false } }),
    { name: 'vote', module: relative, options: { samples: 5 } },
  ])
  await reloaded
  t.equal(h.s.kernel.api.lastReload()?.ok, true, h.s.kernel.api.lastReload()?.error ?? 'reloaded')

  const { status, body } = await h.run({ task: 'Capital of France?', reasoning_strategy: 'vote' })
  t.equal(status, 200)
  t.equal(body.status, 'complete')
  t.equal(body.strategy, 'vote')
  t.equal(body.answer, 'Paris', 'three of five samples agree')
  t.equal(h.fake.completions.length, 5, 'samples: 5 from its plugins.json options')
  t.equal(body.trace.filter((e: { type: string }) => e.type === 'sample').length, 5)
  t.match(body.trace.find((e: { type: string }) => e.type === 'vote').content, /3 of 5/)

  const list = await h.run({ task: 'x', reasoning_strategy: 'nope' })
  t.match(list.body.error, /registered: auto, cot, tot, react, reflection, vote\./)
})
