// env and header values never appear in a response or a log line; a stdio child's stderr
// reaches the log with the server name.
import t, { type Test } from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { Workspace, repoPlugin } from '../helpers/workspace.ts'
import { pollUntil } from '../helpers/poll.ts'
import { EVERYTHING_BIN } from './helpers.ts'
import { startFixtureServer } from '../fixtures/mcp/server.ts'

const SECRET = 'sk-test-0123456789-very-secret'

async function startLogged (t: Test, servers: Record<string, unknown>) {
  const ws = new Workspace('agentd-mcp-secrets-')
  t.teardown(() => { ws.remove() })
  const file = ws.write('mcp_servers.json', JSON.stringify({ servers }))
  const s = await startKernel(t, {
    ws,
    plugins: [{ name: 'mcp', module: repoPlugin('mcp') }, { name: 'prompts', module: repoPlugin('prompts') }], // prompts serves /api/prompts/mcp-tools
    env: { MCP_SERVERS_FILE: file, AGENTD_TEST_SECRET: SECRET },
    logLevel: 'debug',
  })
  const waitFor = async (name: string, status: string): Promise<Record<string, unknown>> => {
    const read = async (): Promise<Record<string, unknown> | undefined> =>
      (await s.json<{ servers: Array<Record<string, unknown>> }>('/api/mcp/servers')).body.servers.find(x => x.name === name)
    const row = await pollUntil(read, r => r?.status === status, 15_000)
    if (row?.status !== status) throw new Error(`${name} not ${status}: ${JSON.stringify(row)}`)
    return row
  }
  return { kernel: s.kernel, url: s.url, lines: s.logRaw, waitFor }
}

t.test('env values are redacted from tool results, responses and logs', async t => {
  const s = await startLogged(t, { everything: { command: EVERYTHING_BIN, args: ['stdio'], env: { MY_TOKEN: '${AGENTD_TEST_SECRET}' } } })
  await s.waitFor('everything', 'connected')
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  // server-everything's get-env returns its whole environment.
  const r = await source.callTool('get-env', {})
  t.equal(r.isError, false)
  t.match(r.content, /MY_TOKEN/)
  t.notMatch(r.content, SECRET)
  t.match(r.content, /\[redacted\]/)
  for (const p of ['/api/mcp/servers', '/api/mcp/tools', '/api/mcp/resources', '/api/prompts/mcp-tools']) {
    t.notMatch(await (await fetch(s.url + p)).text(), SECRET, `${p} does not carry the secret`)
  }
  t.ok(s.lines.length > 0)
  t.notOk(s.lines.some(l => l.includes(SECRET)), 'no log line carries the secret')
})

t.test('a stdio child\'s stderr is logged with the server name, redacted', async t => {
  const script = `console.error('starting, token=' + process.env.MY_TOKEN); setInterval(() => {}, 1000)`
  // A connect timeout long enough for a busy machine to start the child and read its stderr.
  const s = await startLogged(t, { leaky: { command: process.execPath, args: ['-e', script], env: { MY_TOKEN: '${AGENTD_TEST_SECRET}' }, timeout: 4, auto_reconnect: false } })
  const row = await s.waitFor('leaky', 'error')
  t.notMatch(JSON.stringify(row), SECRET)
  const stderr = s.lines.map(l => JSON.parse(l) as Record<string, unknown>).find(l => l.stream === 'stderr')
  t.match(stderr, { mcp_server: 'leaky', msg: 'starting, token=[redacted]' })
  t.notOk(s.lines.some(l => l.includes(SECRET)), 'no log line carries the secret')
})

t.test('header values reach the server but never a response', async t => {
  const fx = await startFixtureServer('streamable_http')
  t.teardown(fx.close)
  const s = await startLogged(t, { web: { url: fx.url, headers: { Authorization: 'Bearer ${AGENTD_TEST_SECRET}' }, timeout: 5 } })
  await s.waitFor('web', 'connected')
  t.equal(fx.lastHeaders().authorization, `Bearer ${SECRET}`, 'the header is sent')
  for (const p of ['/api/mcp/servers', '/api/mcp/tools']) t.notMatch(await (await fetch(s.url + p)).text(), SECRET)
  t.notOk(s.lines.some(l => l.includes(SECRET)))
})


t.test('a server that repeats a secret in its tool and resource descriptions: redacted in every list', async t => {
  const fx = await startFixtureServer('streamable_http', 'fixture', 0, { describeWith: `token ${SECRET}` })
  t.teardown(fx.close)
  const s = await startLogged(t, { web: { url: fx.url, headers: { Authorization: 'Bearer ${AGENTD_TEST_SECRET}' }, timeout: 5 } })
  await s.waitFor('web', 'connected')
  for (const p of ['/api/mcp/servers', '/api/mcp/tools', '/api/mcp/resources', '/api/prompts/mcp-tools']) {
    const text = await (await fetch(s.url + p)).text()
    t.notMatch(text, SECRET, `${p} does not carry the secret`)
  }
  t.match(await (await fetch(`${s.url}/api/mcp/tools`)).json(), { tools: [{ description: /\(token \[redacted\]\)$/ }] })
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  const listed = await source.listTools()
  t.notMatch(JSON.stringify(listed), SECRET, 'the tools offered to the model do not carry it')
  t.notMatch(source.toolsPrompt?.() ?? '', SECRET)
  t.same(await source.callTool('greet', { name: 'Ada' }), { content: 'Hello, Ada! (from fixture)', isError: false }, 'the tools still work')
})

t.test('a server answering HTTP 500 with the Authorization header in its body: the lost connection is logged redacted', async t => {
  const fx = await startFixtureServer('streamable_http', 'fixture', 0, { explodeTool: true })
  t.teardown(fx.close)
  const s = await startLogged(t, { web: { url: fx.url, headers: { Authorization: 'Bearer ${AGENTD_TEST_SECRET}' }, timeout: 5 } })
  await s.waitFor('web', 'connected')
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  const r = await source.callTool('explode', {})
  t.equal(r.isError, true)
  t.match(r.content, /HTTP 500/)
  t.notMatch(r.content, SECRET)
  const row = await s.waitFor('web', 'error')
  t.match(row.error, /connection lost: HTTP 500: .*authorization: \[redacted\]/)
  const lost = s.lines.filter(l => l.includes('connection lost'))
  t.ok(lost.length > 0, 'the lost connection is logged')
  t.match(lost.join('\n'), /\[redacted\]/)
  t.notOk(s.lines.some(l => l.includes(SECRET)), 'no log line carries the secret')
})
