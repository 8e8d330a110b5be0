// Clean logs: a provider whose server is not running is an expected failure, warned once
// per cause without a stack, however many chats (plain and streamed) hit it; and no log
// line repeats a key (pino writes a binding and a field of the same name twice).
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { freePort } from '../helpers/net.ts'

/** The keys of a JSON object's top level, in order, repeats kept (JSON.parse would drop them). */
function topLevelKeys (line: string): string[] {
  const keys: string[] = []
  let depth = 0
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (c === '"') {
      let j = i + 1
      while (line[j] !== '"') j += line[j] === '\\' ? 2 : 1
      if (depth === 1 && line[j + 1] === ':') keys.push(line.slice(i + 1, j))
      i = j
    } else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') depth--
  }
  return keys
}

// Nobody listens there: connections are refused at once.
const port = await freePort()
const s = await startKernel(t, {
  plugins: [
    { name: 'local', module: repoPlugin('provider-openai-compatible'), options: { base_url: `http://127.0.0.1:${port}/v1`, max_retries: 0 } },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'prompts', module: repoPlugin('prompts') },
    { name: 'chat', module: repoPlugin('chat') },
  ],
  env: { DEFAULT_MODEL: 'local/llama3.2' },
  logLevel: 'debug',
})

t.test('an unreachable provider: 503 every time, one warning without a stack, no error lines', async t => {
  for (let i = 0; i < 3; i++) {
    const res = await s.post('/api/agent/chat', { message: 'hi', use_memory: false })
    t.equal(res.status, 503)
    t.match(await res.json(), { code: 'AGENT_ERR_PROVIDER_UNREACHABLE' })
  }
  const streamed = await (await s.post('/api/agent/chat/stream', { message: 'hi', use_memory: false })).text()
  t.match(streamed, /AGENT_ERR_PROVIDER_UNREACHABLE/, 'the stream reports it too')
  const warnings = s.logs.filter(l => l.level === 40 && l.code === 'AGENT_ERR_PROVIDER_UNREACHABLE')
  t.equal(warnings.length, 1, 'warned once for the cause')
  t.match(warnings[0].msg, /Cannot reach local/)
  t.notOk(s.logRaw.some(l => l.includes('"stack"')), 'no stack trace logged')
  t.same(s.logs.filter(l => l.level >= 50), [], 'nothing at error level')
})

t.test('no log line repeats a key', async t => {
  const repeated = s.logRaw.map(topLevelKeys).filter(keys => new Set(keys).size !== keys.length)
  t.same(repeated, [])
  t.ok(s.logRaw.length > 0, 'there were lines to check')
})
