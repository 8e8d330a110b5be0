// The first run's log: the start-up line names the console's URL, and when no provider
// answers, one warning says so with the fix (not one per reload).
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { freePort } from '../helpers/net.ts'
import { until } from '../helpers/poll.ts'

t.test('console URL at start; one warning when no provider is reachable', async t => {
  const refused = await freePort() // nothing listens there: the local provider is unreachable
  const s = await startKernel(t, {
    logLevel: 'info',
    env: { LOCAL_MODEL_URL: `http://127.0.0.1:${refused}/v1` },
    plugins: ['local:provider-openai-compatible', 'openai:provider-openai-compatible', 'providers-api', 'console'].map(e => {
      const [name, dir] = e.includes(':') ? e.split(':') : [e, e]
      return { name, module: repoPlugin(dir) }
    }),
  })
  const listening = s.logs.find(l => /listening on/.test(String(l.msg)))
  t.match(listening?.msg, new RegExp(`web console at ${s.url}/ \\(API docs at ${s.url}/docs\\)`))
  const warnings = (): Array<Record<string, unknown>> => s.logs.filter(l => /no model provider is reachable/.test(String(l.msg)))
  await until('the no-provider warning', () => warnings().length > 0)
  t.match(warnings()[0], { level: 40, msg: /ollama pull llama3\.2.*OPENAI_API_KEY/ })
  t.match(warnings()[0].providers, [/^local: /, 'openai: not configured'])
  // The next generation's activation runs the same check, which returns at once once warned.
  t.equal((await s.kernel.reload('test')).ok, true)
  t.equal(warnings().length, 1, 'warned once, not again after a reload')
})
