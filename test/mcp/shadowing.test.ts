// An MCP tool named like a tool of a source registered earlier (the builtin `calculate`)
// loses the name in the chat's tool set: GET /api/mcp/tools says so and the log warns.
import t from 'tap'
import { eventually } from '../helpers/poll.ts'
import { startKernel } from '../helpers/kernel.ts'
import { Workspace, repoPlugin } from '../helpers/workspace.ts'
import { startFixtureServer } from '../fixtures/mcp/server.ts'

interface ToolRow { name: string, server: string, shadowed_by?: string }

t.test('a tool shadowed by the builtin source is marked and warned about once', async t => {
  const fx = await startFixtureServer('streamable_http')
  t.teardown(fx.close)
  const ws = new Workspace('agentd-mcp-shadow-')
  t.teardown(() => { ws.remove() })
  const file = ws.write('mcp_servers.json', JSON.stringify({ servers: { fx: { url: fx.url, timeout: 5 } } }))
  // Registration order is plugins.json order: the builtin source comes first and wins clashes.
  const s = await startKernel(t, {
    ws,
    plugins: [{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }, { name: 'mcp', module: repoPlugin('mcp') }, { name: 'prompts', module: repoPlugin('prompts') }],
    env: { MCP_SERVERS_FILE: file },
    logLevel: 'info',
  })
  const { kernel, url, logs: lines } = s
  const tools = async (): Promise<ToolRow[]> => ((await (await fetch(`${url}/api/mcp/tools`)).json()) as { tools: ToolRow[] }).tools


  await eventually('fx connected', async () => (await tools()).find(x => x.name === 'greet'))
  t.notOk((await tools()).some(x => x.shadowed_by !== undefined), 'no clash yet')

  await fx.addTool('calculate', 'from the tool server')
  const row = await eventually('calculate listed', async () => (await tools()).find(x => x.name === 'calculate'))
  t.match(row, { name: 'calculate', server: 'fx', shadowed_by: 'tools-builtin' })
  t.equal((await tools()).find(x => x.name === 'greet')?.shadowed_by, undefined, 'other tools are not marked')
  const warning = await eventually('the warning', () => lines.find(l => l.tool === 'calculate' && l.level === 40))
  t.match(warning, { mcp_server: 'fx', shadowed_by: 'tools-builtin', msg: /MCP tool "calculate" of server "fx" is shadowed by tool source "tools-builtin"/ })

  // The chat's tool set indeed calls the builtin one.
  const { collectToolSet } = await import('@agentd/sdk/kits/tools')
  const set = await collectToolSet(kernel.current!.app.registry.toolSources.entries(), {})
  const r = await set.call({ id: 'c1', name: 'calculate', arguments: { expression: '2+3' } }, { timeoutMs: 5000 })
  t.match(r, { isError: false, content: /"result":5/ }, 'the builtin answers, not the tool server')
  const count = (await (await fetch(`${url}/api/prompts/mcp-tools`)).json() as { tools_count: number }).tools_count
  t.equal(count, set.definitions.length, 'tools_count counts the shadowed name once, as the chat offers it')

  // Another list change does not repeat the warning. The change shadows a second builtin
  // name, so its warning proves the check after that change ran before counting.
  await fx.addTool('current_time', 'from the tool server too')
  await eventually('the warning for the second clash', () => lines.find(l => l.tool === 'current_time' && l.level === 40))
  t.equal(lines.filter(l => l.tool === 'calculate' && l.level === 40).length, 1, 'warned once')
})
