// An MCP tool named like a tool of a source registered earlier (the builtin `calculate`)
// loses the name in the chat's tool set: GET /api/mcp/tools says so and the log warns.
import t from 'tap'
import { eventually } from '../helpers/poll.ts'
import { Writable } from 'node:stream'
import pino from 'pino'
import { Kernel } from '../../core/kernel.ts'
import { testEnv } from '../helpers/kernel.ts'
import { Workspace, repoPlugin } from '../helpers/workspace.ts'
import { startFixtureServer } from '../fixtures/mcp/server.ts'

interface ToolRow { name: string, server: string, shadowed_by?: string }

t.test('a tool shadowed by the builtin source is marked and warned about once', async t => {
  const fx = await startFixtureServer('streamable_http')
  t.teardown(fx.close)
  const ws = new Workspace('agentd-mcp-shadow-')
  const lines: Array<Record<string, unknown>> = []
  const sink = new Writable({ write (chunk, _enc, cb) { for (const l of String(chunk).split('\n')) if (l !== '') lines.push(JSON.parse(l)); cb() } })
  const file = ws.write('mcp_servers.json', JSON.stringify({ servers: { fx: { url: fx.url, timeout: 5 } } }))
  // Registration order is plugins.json order: the builtin source comes first and wins clashes.
  ws.writePlugins([{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }, { name: 'mcp', module: repoPlugin('mcp') }, { name: 'prompts', module: repoPlugin('prompts') }])
  const kernel = new Kernel({ cwd: ws.dir, env: testEnv(ws, { MCP_SERVERS_FILE: file }), logger: pino({ level: 'info' }, sink) })
  const { port } = await kernel.start()
  t.teardown(async () => { await kernel.close(); ws.remove() })
  const url = `http://127.0.0.1:${port}`
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

  // Another list change does not repeat the warning.
  await fx.addTool('another', 'x')
  await eventually('another listed', async () => (await tools()).find(x => x.name === 'another'))
  await new Promise(resolve => setTimeout(resolve, 200))
  t.equal(lines.filter(l => l.tool === 'calculate' && l.level === 40).length, 1, 'warned once')
})
