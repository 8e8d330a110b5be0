// Shared by the MCP tests: a kernel with the mcp plugin and a workspace mcp_servers.json,
// and a poll on GET /api/mcp/servers until a condition holds.
import path from 'node:path'
import type { Test } from 'tap'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { Workspace, REPO, repoPlugin, type PluginSpec } from '../helpers/workspace.ts'
import { pollUntil } from '../helpers/poll.ts'

export const EVERYTHING_BIN = path.join(REPO, 'node_modules', '.bin', 'mcp-server-everything')
export const everything = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ command: EVERYTHING_BIN, args: ['stdio'], timeout: 20, ...extra })

export interface ServerRow {
  name: string, transport: string, active_transport?: string, status: string, error?: string, tools: string[],
  enabled?: boolean, tools_count: number, resources_count: number, prompts_count: number, pid?: number, connected_at?: string,
  reconnect_attempt?: number, next_retry_at?: string
}

export interface McpStarted extends Started {
  writeServers: (servers: Record<string, unknown>) => void
  servers: () => Promise<ServerRow[]>
  server: (name: string) => Promise<ServerRow | undefined>
  waitFor: (name: string, pred: (s: ServerRow) => boolean, what: string, timeoutMs?: number) => Promise<ServerRow>
}

export async function startMcp (t: Test, servers: Record<string, unknown>, opts: { plugins?: PluginSpec[], env?: Record<string, string>, mcpOptions?: Record<string, unknown>, logLevel?: string } = {}): Promise<McpStarted> {
  const ws = new Workspace('agentd-mcp-')
  t.teardown(() => { ws.remove() })
  const file = path.join(ws.dir, 'mcp_servers.json')
  const writeServers = (s: Record<string, unknown>): void => { ws.write('mcp_servers.json', JSON.stringify({ servers: s }, null, 2)) }
  writeServers(servers)
  const plugins: PluginSpec[] = opts.plugins ?? [{ name: 'mcp', module: repoPlugin('mcp'), options: { reconnect_initial_ms: 100, reconnect_max_ms: 1000, ...opts.mcpOptions } }]
  const s = await startKernel(t, { ws, plugins, env: { MCP_SERVERS_FILE: file, ...opts.env }, logLevel: opts.logLevel })
  const list = async (): Promise<ServerRow[]> => (await s.json<{ servers: ServerRow[] }>('/api/mcp/servers')).body.servers
  const one = async (name: string): Promise<ServerRow | undefined> => (await list()).find(x => x.name === name)
  return {
    ...s,
    writeServers,
    servers: list,
    server: one,
    waitFor: async (name, pred, what, timeoutMs = 15_000) => {
      const last = await pollUntil(async () => await one(name), row => row !== undefined && pred(row), timeoutMs, 50)
      if (last === undefined || !pred(last)) throw new Error(`server "${name}" did not become ${what} within ${timeoutMs} ms; last: ${JSON.stringify(last)}`)
      return last
    },
  }
}

export const isConnected = (s: ServerRow): boolean => s.status === 'connected'

/** Whether a process still exists (signal 0 checks without sending anything). */
export function pidAlive (pid: number): boolean {
  try { process.kill(pid, 0); return true } catch { return false }
}
