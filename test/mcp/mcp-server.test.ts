// agentd as an MCP server, driven by the MCP SDK's own client over streamable HTTP:
// list the tools, remember a fact, recall it, forget it (recall no longer has it), read
// the resources, and the API key guarding /mcp like every other route.
import t, { type Test } from 'tap'
import { request } from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { memoryPlugins } from '../memory/memory-kernel.ts'

const KEY = 'mcp-test-key'

async function connect (t: Test, url: string, key: string | undefined, as: 'x-api-key' | 'bearer' = 'x-api-key'): Promise<Client> {
  const client = new Client({ name: 'agentd-test', version: '1.0.0' })
  const headers: Record<string, string> = key === undefined ? {} : as === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key }
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } })
  await client.connect(transport)
  t.teardown(async () => { await client.close() })
  return client
}

const textOf = (r: Record<string, unknown>): string => (r.content as Array<{ type: string, text?: string }>).map(c => c.text ?? '').join('\n')

t.test('MCP over streamable HTTP with the SDK client', async t => {
  const s = await startKernel(t, {
    plugins: [...memoryPlugins(), { name: 'mcp-server', module: repoPlugin('mcp-server') }],
    env: { AGENT_API_KEY_REQUIRED: 'true', AGENT_API_KEY: KEY },
  })
  const client = await connect(t, s.url, KEY)
  t.match(client.getServerVersion(), { name: 'agentd' })

  const { tools } = await client.listTools()
  t.same(tools.map(x => x.name).sort(), ['forget', 'list_channels', 'recall', 'remember', 'run_agent_task'])
  t.match(tools.find(x => x.name === 'remember')?.inputSchema, { type: 'object', required: ['fact'] })

  const remembered = await client.callTool({ name: 'remember', arguments: { fact: 'The user keeps bees on the roof', channel: 'mcp' } })
  t.notOk(remembered.isError)
  const id = (remembered.structuredContent as { id: string }).id
  t.match(textOf(remembered), /Remembered: The user keeps bees on the roof/)
  const twice = await client.callTool({ name: 'remember', arguments: { fact: 'the user keeps bees on the roof.', channel: 'mcp' } })
  t.match(twice.structuredContent, { id, created: false }, 'deduplicated like the API')

  const recalled = await client.callTool({ name: 'recall', arguments: { query: 'What does the user keep on the roof? bees', channel: 'mcp' } })
  t.notOk(recalled.isError)
  t.match(textOf(recalled), /bees on the roof/)
  t.ok((recalled.structuredContent as { facts: Array<{ id: string }> }).facts.some(f => f.id === id), 'the fact is recalled with its id')

  const channels = await client.callTool({ name: 'list_channels', arguments: {} })
  t.match(textOf(channels), /mcp: .*1 facts/)

  const resources = await client.listResources()
  t.same(resources.resources.map(r => r.uri).sort(), ['agentd://memory/channels', 'agentd://memory/entities', 'agentd://memory/facts'])
  const factRes = await client.readResource({ uri: `agentd://memory/facts/${id}` })
  t.match(JSON.parse((factRes.contents[0] as { text: string }).text), { id, claim: 'The user keeps bees on the roof' })
  const listRes = await client.readResource({ uri: 'agentd://memory/facts' })
  t.ok((JSON.parse((listRes.contents[0] as { text: string }).text) as { facts: Array<{ id: string }> }).facts.some(f => f.id === id))
  t.same((await client.listResourceTemplates()).resourceTemplates.map(r => r.uriTemplate).length, 3)
  await t.rejects(client.readResource({ uri: 'agentd://memory/nothing' }), /No resource/)

  const forgot = await client.callTool({ name: 'forget', arguments: { id } })
  t.notOk(forgot.isError)
  t.match(textOf(forgot), `Forgot fact ${id}`)
  const after = await client.callTool({ name: 'recall', arguments: { query: 'What does the user keep on the roof? bees', channel: 'mcp' } })
  t.notOk((after.structuredContent as { facts: Array<{ id: string }> }).facts.some(f => f.id === id), 'forgotten: recall no longer returns it')
  const again = await client.callTool({ name: 'forget', arguments: { id } })
  t.equal(again.isError, true, 'forgetting it twice is a tool error the model can read')
  t.match(textOf(again), /No fact with id/)

  await t.rejects(client.callTool({ name: 'remember', arguments: { fact: 42 } }), /Invalid arguments for remember/, 'bad arguments are a protocol error')
  await t.rejects(client.callTool({ name: 'teleport', arguments: {} }), /Unknown tool/)
  const agent = await client.callTool({ name: 'run_agent_task', arguments: { task: 'say hi' } })
  t.equal(agent.isError, true)
  t.match(textOf(agent), /agent plugin is not enabled/)

  t.test('the same API key as every route', async t => {
    await t.rejects(connect(t, s.url, undefined), /401|Unauthorized|X-API-Key/)
    await t.rejects(connect(t, s.url, 'wrong'), /401|Unauthorized|X-API-Key/)
    const get = await fetch(`${s.url}/mcp`, { headers: { 'x-api-key': KEY, accept: 'text/event-stream' } })
    t.equal(get.status, 405, 'no server-to-client stream: the server is stateless')
  })

  t.test('a client authenticated with Authorization: Bearer: its tools call the API with that credential', async t => {
    const bearer = await connect(t, s.url, KEY, 'bearer')
    const r = await bearer.callTool({ name: 'remember', arguments: { fact: 'The user prefers green tea', channel: 'mcp-bearer' } })
    t.notOk(r.isError, textOf(r))
    t.match(textOf(await bearer.callTool({ name: 'list_channels', arguments: {} })), /mcp-bearer: .*1 facts/)
  })
})

/** One raw initialize POST to /mcp with the Host and Origin given (fetch cannot set Host). */
async function initializeAs (url: string, host: string, origin?: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'rebinding', version: '1' } } })
  const headers: Record<string, string> = { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(Buffer.byteLength(body)) }
  if (origin !== undefined) headers.origin = origin
  return await new Promise((resolve, reject) => {
    const req = request(`${url}/mcp`, { method: 'POST', headers }, res => { res.resume(); res.on('end', () => { resolve(res.statusCode ?? 0) }) })
    req.on('error', reject)
    req.end(body)
  })
}

t.test('/mcp refuses a foreign Host or Origin (DNS rebinding) and serves the names it is told', async t => {
  const s = await startKernel(t, {
    plugins: [{ name: 'mcp-server', module: repoPlugin('mcp-server') }],
    env: { AGENT_ALLOWED_HOSTS: 'agent.example.org, *.corp.example', AGENT_CORS_ORIGINS: 'https://app.example.net' },
  })
  const here = new URL(s.url).host
  const port = new URL(s.url).port
  t.equal(await initializeAs(s.url, 'evil.example.com', 'http://evil.example.com'), 403, 'rebinding: foreign Host and Origin')
  t.equal(await initializeAs(s.url, `evil.example.com:${port}`), 403, 'a foreign Host alone')
  t.equal(await initializeAs(s.url, here, 'http://evil.example.com'), 403, 'a foreign Origin alone')
  t.equal(await initializeAs(s.url, here, `http://${here}`), 200, 'this server on loopback, from its own page')
  t.equal(await initializeAs(s.url, `localhost:${port}`, 'http://localhost:5173'), 200, 'a loopback page on another port')
  t.equal(await initializeAs(s.url, `agent.example.org:${port}`, `http://agent.example.org:${port}`), 200, 'an AGENT_ALLOWED_HOSTS name, from its own page')
  t.equal(await initializeAs(s.url, 'agent.example.org'), 200, 'on any port (behind a proxy)')
  t.equal(await initializeAs(s.url, 'a.b.corp.example'), 200, 'a subdomain of a *. entry')
  t.equal(await initializeAs(s.url, here, 'https://app.example.net'), 200, 'an AGENT_CORS_ORIGINS origin')
  t.equal(await initializeAs(s.url, `agent.example.org:${port}`, 'http://corp.example'), 403, 'an allowed Host does not make any Origin allowed')
  const client = new Client({ name: 'agentd-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)))
  t.teardown(async () => { await client.close() })
  t.match(client.getServerVersion(), { name: 'agentd' }, 'the MCP SDK client still connects')
  t.ok((await client.listTools()).tools.length > 0)
})
