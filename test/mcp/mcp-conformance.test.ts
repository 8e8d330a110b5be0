// agentd's /mcp held to what a client may expect of a compliant MCP server, the
// expectations @modelcontextprotocol/server-everything (the reference server) is built and
// tested to meet, where they apply to agentd: with the SDK's Client over
// StreamableHTTPClientTransport for the protocol, with raw fetch for the HTTP rules.
//
// What applies and what does not: agentd advertises tools, resources and prompts (its prompt
// profiles; no listChanged, the transport being stateless) and completions, not logging or
// resource subscriptions, so those methods must be "method not found" rather than half
// there; it lists everything on one page, so a cursor it never
// gave is invalid params; its tools declare an outputSchema and the SDK client checks
// each structuredContent against it. The transport is stateless (each POST stands alone,
// no Mcp-Session-Id is issued), so the session rules of a stateful server such as
// server-everything (404 for an unknown session, 400 for a request before initialize,
// DELETE ending a session) have no session to act on: the tests pin the stateless
// answers instead (no session id, DELETE and GET 405, any POST served on its own).
import t, { type Test } from 'tap'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { EmptyResultSchema, ErrorCode, LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { memoryPlugins } from '../memory/memory-kernel.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON-RPC bodies

const KEY = 'mcp-conformance-key'
const RESOURCE_NOT_FOUND = -32002
const MCP_HEADERS = { 'x-api-key': KEY, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

async function connect (t: Test, url: string): Promise<{ client: Client, transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'conformance', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { 'x-api-key': KEY } } })
  await client.connect(transport)
  t.teardown(async () => { await client.close() })
  return { client, transport }
}

/** The McpError a call fails with (a test failure if it does not fail). */
async function mcpError (t: Test, p: Promise<unknown>, what: string): Promise<McpError | undefined> {
  try {
    await p
    t.fail(`${what}: expected an MCP error, got a result`)
    return undefined
  } catch (err) {
    t.ok(err instanceof McpError, `${what}: an McpError (${(err as Error).message})`)
    return err instanceof McpError ? err : undefined
  }
}

const post = async (s: Started, body: string | Json, headers: Record<string, string> = MCP_HEADERS): Promise<{ status: number, headers: Headers, text: string, json: Json | undefined }> => {
  const res = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
  const text = await res.text()
  let json: Json | undefined
  try { json = text === '' ? undefined : JSON.parse(text) } catch { json = undefined }
  return { status: res.status, headers: res.headers, text, json }
}

const initialize = (protocolVersion: string, id: number | string = 1): Json => ({
  jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
})

t.test('MCP server conformance', async t => {
  const s = await startKernel(t, {
    plugins: [...memoryPlugins(), { name: 'prompts', module: repoPlugin('prompts') }, { name: 'mcp-server', module: repoPlugin('mcp-server') }],
    env: { AGENT_API_KEY_REQUIRED: 'true', AGENT_API_KEY: KEY },
  })
  const { client, transport } = await connect(t, s.url)

  t.test('initialize: server info, instructions, the capabilities it has and no others', async t => {
    t.match(client.getServerVersion(), { name: 'agentd', version: String })
    t.match(client.getInstructions(), /recall/)
    t.same(client.getServerCapabilities(), { tools: {}, resources: {}, prompts: {}, completions: {} }, 'tools, resources, prompts and completions; no logging, subscriptions or list_changed')
    t.equal(transport.sessionId, undefined, 'stateless: no Mcp-Session-Id was issued')
    t.equal(transport.protocolVersion, LATEST_PROTOCOL_VERSION, 'the client\'s latest version was accepted')
  })

  t.test('ping', async t => {
    t.same(await client.ping(), {})
  })

  t.test('tools/list: one page, every tool with a title, an object input schema and an object output schema', async t => {
    const page = await client.listTools()
    t.equal(page.nextCursor, undefined, 'everything on one page')
    t.ok(page.tools.length > 0)
    for (const tool of page.tools) {
      t.match(tool.name, /^[A-Za-z0-9_.-]{1,128}$/, `${tool.name}: a name as the spec allows`)
      t.match(tool, { title: String, description: String, inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }, `${tool.name}: title, description, schemas`)
      t.type(tool.annotations?.readOnlyHint, 'boolean', `${tool.name}: says whether it changes anything`)
    }
    t.match(page.tools.find(x => x.name === 'recall')?.annotations, { readOnlyHint: true })
    t.match(page.tools.find(x => x.name === 'forget')?.annotations, { readOnlyHint: false, destructiveHint: true })
    const bad = await mcpError(t, client.listTools({ cursor: 'not-a-cursor-we-gave' }), 'a cursor the server never gave')
    t.equal(bad?.code, ErrorCode.InvalidParams)
  })

  t.test('tools/call: structuredContent matches the declared outputSchema (the SDK client checks it); errors are the spec\'s', async t => {
    await client.listTools() // the client caches the output schemas it validates against
    const remembered = await client.callTool({ name: 'remember', arguments: { fact: 'The conformance test keeps a lighthouse', channel: 'conf' } })
    t.notOk(remembered.isError)
    t.match(remembered.structuredContent, { id: String, created: true, channel: 'conf' })
    t.match(remembered.content, [{ type: 'text', text: /lighthouse/ }], 'a text block as well, for clients that do not read structuredContent')
    const recalled = await client.callTool({ name: 'recall', arguments: { query: 'lighthouse', channel: 'conf' } })
    t.match(recalled.structuredContent, { facts: Array, entities: Array })
    t.match((await client.callTool({ name: 'list_channels', arguments: {} })).structuredContent, { channels: Array })
    const id = (remembered.structuredContent as { id: string }).id
    t.match((await client.callTool({ name: 'forget', arguments: { id } })).structuredContent, { id, kind: 'fact', deleted: true })

    const toolError = await client.callTool({ name: 'forget', arguments: { id } })
    t.equal(toolError.isError, true, 'an error of the tool itself is a result with isError, for the model to read')
    t.equal(toolError.structuredContent, undefined)

    const unknown = await mcpError(t, client.callTool({ name: 'no_such_tool', arguments: {} }), 'an unknown tool')
    t.equal(unknown?.code, ErrorCode.InvalidParams, 'unknown tool: -32602')
    const badArgs = await mcpError(t, client.callTool({ name: 'recall', arguments: { query: 5 } }), 'arguments against the input schema')
    t.equal(badArgs?.code, ErrorCode.InvalidParams, 'invalid arguments: -32602')
    const noName = await mcpError(t, client.request({ method: 'tools/call', params: { arguments: {} } } as never, EmptyResultSchema), 'tools/call without a name')
    t.equal(noName?.code, ErrorCode.InvalidParams)
  })

  t.test('resources: list and templates on one page; every listed resource and every template reads', async t => {
    const list = await client.listResources()
    t.equal(list.nextCursor, undefined)
    for (const r of list.resources) {
      t.match(r, { uri: /^agentd:\/\//, name: String, mimeType: 'application/json' })
      const read = await client.readResource({ uri: r.uri })
      t.equal(read.contents.length, 1)
      t.match(read.contents[0], { uri: r.uri, mimeType: 'application/json', text: String }, `${r.uri}: read back under its own uri`)
      t.doesNotThrow(() => JSON.parse((read.contents[0] as { text: string }).text), `${r.uri}: JSON as its mimeType says`)
    }
    const templates = await client.listResourceTemplates()
    t.equal(templates.nextCursor, undefined)
    const fact = (await client.callTool({ name: 'remember', arguments: { fact: 'Templates expand to readable resources', channel: 'tpl' } })).structuredContent as { id: string }
    const created = await s.post('/api/memory/entities', { name: 'Lighthouse', type: 'Location', channel: 'tpl' }, { headers: { 'x-api-key': KEY, 'content-type': 'application/json' } })
    t.equal(created.status, 201)
    const entity = (await created.json() as Json).entity
    const values: Record<string, string> = { id: '', name: 'tpl' }
    for (const tpl of templates.resourceTemplates) {
      t.match(tpl, { uriTemplate: /\{[a-z]+\}/, name: String, mimeType: 'application/json' })
      values.id = tpl.uriTemplate.includes('/facts/') ? fact.id : entity.id
      const uri = tpl.uriTemplate.replace(/\{([a-z]+)\}/g, (_m, k: string) => encodeURIComponent(values[k]))
      const read = await client.readResource({ uri })
      t.match(read.contents[0], { uri, mimeType: 'application/json' }, `${tpl.uriTemplate} expanded reads`)
    }
    for (const cursorCall of [client.listResources({ cursor: 'x' }), client.listResourceTemplates({ cursor: 'x' })]) {
      t.equal((await mcpError(t, cursorCall, 'a cursor the server never gave'))?.code, ErrorCode.InvalidParams)
    }
    const missing = await mcpError(t, client.readResource({ uri: 'agentd://memory/facts/00000000-0000-4000-8000-000000000000' }), 'a fact that is not there')
    t.equal(missing?.code, RESOURCE_NOT_FOUND, 'resource not found: -32002')
    t.equal((await mcpError(t, client.readResource({ uri: 'file:///etc/passwd' }), 'a uri of no resource'))?.code, RESOURCE_NOT_FOUND)
  })

  t.test('prompts: the prompt profiles, each its composed system prompt; an unknown one is invalid params', async t => {
    const { prompts } = await client.listPrompts()
    t.ok(prompts.length > 0, `${prompts.length} prompts`)
    const first = prompts[0]
    const expected = (await s.json(`/api/prompts/profiles/${encodeURIComponent(first.name)}`, { headers: { 'x-api-key': KEY } })).body.composed_prompt
    const got = await client.getPrompt({ name: first.name })
    t.same(got.messages, [{ role: 'user', content: { type: 'text', text: expected } }])
    t.equal((await mcpError(t, client.getPrompt({ name: 'no-such-profile' }), 'an unknown prompt'))?.code, ErrorCode.InvalidParams)
  })

  t.test('completions: a channel name of the channel-facts template by prefix; ids and prompt arguments complete to nothing', async t => {
    const channels = (await s.json('/api/memory/channels', { headers: { 'x-api-key': KEY } })).body as { channels: Array<{ name: string }> }
    const first = channels.channels.map(c => c.name).sort()[0]
    const prefix = first.slice(0, 2)
    const byPrefix = await client.complete({ ref: { type: 'ref/resource', uri: 'agentd://memory/channels/{name}/facts' }, argument: { name: 'name', value: prefix } })
    t.same(byPrefix.completion.values, channels.channels.map(c => c.name).filter(n => n.startsWith(prefix)).sort())
    t.ok(byPrefix.completion.values.includes(first))
    const ids = await client.complete({ ref: { type: 'ref/resource', uri: 'agentd://memory/facts/{id}' }, argument: { name: 'id', value: '' } })
    t.same(ids.completion.values, [])
    const prompt = await client.complete({ ref: { type: 'ref/prompt', name: 'default' }, argument: { name: 'x', value: 'a' } })
    t.same(prompt.completion.values, [])
    t.equal((await mcpError(t, client.request({ method: 'completion/complete', params: { ref: { type: 'ref/elsewhere' }, argument: { name: 'x', value: '' } } } as never, EmptyResultSchema), 'a bad ref'))?.code, ErrorCode.InvalidParams)
  })

  t.test('progress: a long tool called with a progressToken reports its start and end before the result', async t => {
    const seen: Array<{ progress: number, total?: number, message?: string }> = []
    const r = await client.callTool({ name: 'recall', arguments: { query: 'anything at all' } }, undefined, { onprogress: (p) => { seen.push(p) } })
    t.notOk(r.isError)
    t.same(seen.map(p => [p.progress, p.total]), [[0, 1], [1, 1]])
    t.match(seen[0].message, /recall: recalling from memory/)
    const quiet: unknown[] = []
    await client.callTool({ name: 'list_channels', arguments: {} }, undefined, { onprogress: (p) => { quiet.push(p) } })
    t.same(quiet, [], 'a quick tool reports none (its result came, so any progress would have come before it)')
  })

  t.test('what is not advertised is method not found: logging, subscriptions, anything else', async t => {
    const calls: Array<[string, Json | undefined]> = [
      ['logging/setLevel', { level: 'info' }],
      ['resources/subscribe', { uri: 'agentd://memory/facts' }],
      ['resources/unsubscribe', { uri: 'agentd://memory/facts' }],
      ['no/such/method', undefined],
    ]
    for (const [method, params] of calls) {
      const err = await mcpError(t, client.request({ method, ...(params === undefined ? {} : { params }) } as never, EmptyResultSchema), method)
      t.equal(err?.code, ErrorCode.MethodNotFound, `${method}: -32601`)
    }
  })

  t.test('HTTP: initialize answers JSON with no session; versions negotiated; a notification is 202', async t => {
    const init = await post(s, initialize(LATEST_PROTOCOL_VERSION))
    t.equal(init.status, 200)
    t.match(init.headers.get('content-type'), /^application\/json/)
    t.equal(init.headers.get('mcp-session-id'), null, 'no Mcp-Session-Id: stateless')
    t.match(init.json, { jsonrpc: '2.0', id: 1, result: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: { tools: {}, resources: {} }, serverInfo: { name: 'agentd' } } })
    t.match((await post(s, initialize('2025-03-26', 'older'))).json, { id: 'older', result: { protocolVersion: '2025-03-26' } }, 'an older supported version is kept')
    t.match((await post(s, initialize('1999-01-01'))).json, { result: { protocolVersion: LATEST_PROTOCOL_VERSION } }, 'an unknown one gets the server\'s latest')
    const note = await post(s, { jsonrpc: '2.0', method: 'notifications/initialized' })
    t.equal(note.status, 202)
    t.equal(note.text, '')
  })

  t.test('HTTP: stateless answers where a stateful server would check a session', async t => {
    const alone = await post(s, { jsonrpc: '2.0', id: 7, method: 'tools/list' })
    t.equal(alone.status, 200, 'a request without initialize before it is served: each POST stands alone')
    t.ok(Array.isArray(alone.json?.result?.tools))
    const withId = await post(s, { jsonrpc: '2.0', id: 8, method: 'ping' }, { ...MCP_HEADERS, 'mcp-session-id': 'made-up' })
    t.match(withId, { status: 200, json: { id: 8, result: {} } }, 'a session id it never issued names no session: the request is served')
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${s.url}/mcp`, { method, headers: { 'x-api-key': KEY, accept: 'application/json, text/event-stream' } })
      t.equal(res.status, 405, `${method}: 405 (no server-to-client stream, no session to end)`)
      t.match(res.headers.get('allow'), /POST/)
    }
    await transport.terminateSession() // the client's DELETE: with no session id issued there is nothing to end
    t.pass('the SDK client\'s terminateSession is a no-op without a session')
  })

  t.test('HTTP: bad requests get the transport\'s status and a JSON-RPC error body', async t => {
    const noSse = await post(s, { jsonrpc: '2.0', id: 1, method: 'ping' }, { ...MCP_HEADERS, accept: 'application/json' })
    t.match(noSse, { status: 406, json: { jsonrpc: '2.0', error: { code: Number, message: /Accept|accept/ } } }, 'Accept must list both types')
    const plain = await post(s, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { ...MCP_HEADERS, 'content-type': 'text/plain' })
    t.match(plain, { status: 415, json: { jsonrpc: '2.0', error: { code: Number, message: /Content-Type/ } } })
    const broken = await post(s, '{"jsonrpc":"2.0","id":1,', MCP_HEADERS)
    t.match(broken, { status: 400, json: { jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError } } }, 'JSON that does not parse: -32700')
    t.match(await post(s, '', MCP_HEADERS), { status: 400, json: { jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError } } }, 'no body at all: -32700 too')
    const notRpc = await post(s, { hello: 'world' })
    t.match(notRpc, { status: 400, json: { jsonrpc: '2.0', error: { code: Number } } }, 'JSON that is no JSON-RPC message')
    const version = await post(s, { jsonrpc: '2.0', id: 2, method: 'ping' }, { ...MCP_HEADERS, 'mcp-protocol-version': '1999-01-01' })
    t.match(version, { status: 400, json: { error: { message: /protocol version/ } } }, 'an unsupported MCP-Protocol-Version header')
    const unknown = await post(s, { jsonrpc: '2.0', id: 3, method: 'no/such/method' })
    t.match(unknown, { status: 200, json: { jsonrpc: '2.0', id: 3, error: { code: ErrorCode.MethodNotFound } } })
    const tool = await post(s, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'teleport', arguments: {} } })
    t.match(tool, { status: 200, json: { id: 4, error: { code: ErrorCode.InvalidParams, message: /^Unknown tool "teleport"/ } } }, 'the message as said, with no "MCP error" prefix for the client to prefix again')
    const read = await post(s, { jsonrpc: '2.0', id: 5, method: 'resources/read', params: {} })
    t.match(read, { status: 200, json: { id: 5, error: { code: ErrorCode.InvalidParams, message: /resources\/read.*uri/ } } }, 'params against the method\'s schema: -32602, not an internal error')
  })

  t.test('HTTP: behind the API key like every route (AGENT_API_KEY_REQUIRED)', async t => {
    const { 'x-api-key': _key, ...noKey } = MCP_HEADERS
    const none = await post(s, initialize(LATEST_PROTOCOL_VERSION), noKey)
    t.equal(none.status, 401)
    t.match(none.json, { error: String, code: String })
    t.equal((await post(s, initialize(LATEST_PROTOCOL_VERSION), { ...MCP_HEADERS, 'x-api-key': 'wrong' })).status, 401)
  })
})
