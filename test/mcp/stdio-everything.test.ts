// server-everything (from npm) over stdio: connect, list tools and resources, call echo.
import t from 'tap'
import { startMcp, everything, isConnected } from './helpers.ts'
import { repoPlugin } from '../helpers/workspace.ts'

const withToolsApi = [
  { name: 'mcp', module: repoPlugin('mcp') },
  { name: 'tools-api', module: repoPlugin('tools-api') },
]

t.test('server-everything over stdio: connects, lists tools and resources, calls echo', async t => {
  const s = await startMcp(t, { everything: everything() }, { plugins: withToolsApi })
  const row = await s.waitFor('everything', isConnected, 'connected')
  t.equal(row.transport, 'stdio')
  t.equal(row.active_transport, 'stdio')
  t.ok(row.tools.includes('echo'), 'echo is listed')
  t.ok(row.tools_count >= 5, `tools_count ${row.tools_count}`)
  t.ok(row.resources_count > 0, `resources_count ${row.resources_count}`)
  t.type(row.pid, 'number')

  const tools = await s.json('/api/mcp/tools?server=everything')
  t.equal(tools.status, 200)
  const echo = tools.body.tools.find((x: { name: string }) => x.name === 'echo')
  t.match(echo, { name: 'echo', server: 'everything', status: 'available', input_schema: { type: 'object' } })
  t.equal(tools.body.count, tools.body.tools.length)

  const res = await s.json('/api/mcp/resources?server=everything')
  t.equal(res.status, 200)
  t.ok(res.body.count > 0)
  t.match(res.body.resources[0], { uri: String, name: String, server: 'everything' })

  const prompts = await s.json('/api/mcp/prompts?server=everything')
  t.equal(prompts.status, 200)
  t.ok(prompts.body.prompts.some((p: { name: string, server: string }) => p.name === 'simple-prompt' && p.server === 'everything'))
  t.equal(row.prompts_count, prompts.body.count)

  const call = await s.post('/api/tools/call', { name: 'echo', arguments: { message: 'hello mcp' } })
  t.equal(call.status, 200)
  t.same(await call.json(), { tool: 'echo', server: 'everything', content: 'Echo: hello mcp', is_error: false })
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  const result = await source.callTool('echo', { message: 'hello mcp' })
  t.same(result, { content: 'Echo: hello mcp', isError: false })
})

t.test('the tools prompt lists the connected tools', async t => {
  // The prompts plugin serves /api/prompts/mcp-tools from the tool sources' prompts.
  const s = await startMcp(t, { everything: everything() }, { plugins: [{ name: 'mcp', module: repoPlugin('mcp') }, { name: 'prompts', module: repoPlugin('prompts') }] })
  await s.waitFor('everything', isConnected, 'connected')
  const { status, body } = await s.json('/api/prompts/mcp-tools')
  t.equal(status, 200)
  t.ok(body.tools_count >= 5)
  t.match(body.mcp_tools_prompt, /- echo \(server "everything"\)/)
  t.match(body.mcp_tools_prompt, /message \(string, required\)/)
  const source = s.kernel.current!.app.registry.toolSources.get('mcp')
  t.equal(source.toolsPrompt?.(), body.mcp_tools_prompt)
})
