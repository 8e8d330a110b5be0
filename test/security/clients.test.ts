// The checks refuse browsers' cross-site requests, not clients: curl, the OpenAI SDK and the
// MCP SDK, each as it is used against agentd started as a user starts it, still work. (The
// console in Chromium: test/console/*.test.ts, which drive it through the same checks.)
import t from 'tap'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import OpenAI from 'openai'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { startAgentd } from './agentd.ts'

const run = promisify(execFile)
const s = await startAgentd(t)

t.test('curl: reads and a state-changing POST', async t => {
  const health = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', `${s.url}/api/health`])
  t.equal(health.stdout, '200')
  const call = await run('curl', ['-s', '-X', 'POST', `${s.url}/api/tools/call`, '-H', 'content-type: application/json', '-d', '{"name":"calculate","arguments":{"expression":"2 * (3 + 4)"}}'])
  t.match(JSON.parse(call.stdout), { content: /14/ })
  const viaLocalhost = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', `http://localhost:${s.port}/api/index`])
  t.equal(viaLocalhost.stdout, '200', 'by the name localhost too')
})

t.test('the OpenAI SDK against /v1', async t => {
  const client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: 'unused', maxRetries: 0 })
  const models = await client.models.list()
  t.ok(Array.isArray(models.data), '/v1/models answers the SDK')
  // No provider is reachable here: the SDK gets OpenAI's error shape, not a 403.
  const err = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).then(() => ({ status: 200 }), (e: unknown) => e as { status?: number })
  t.not(err.status, 403, `a chat reaches the server (status ${String(err.status)})`)
})

t.test('the MCP SDK client against /mcp', async t => {
  const client = new Client({ name: 'security-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)))
  t.teardown(async () => { await client.close() })
  const { tools } = await client.listTools()
  t.ok(tools.length > 0, `${tools.length} tools listed`)
})
