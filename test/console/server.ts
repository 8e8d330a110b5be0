// A real agentd for the console's browser tests: the OpenAI-compatible provider pointed
// at the fake upstream, the chat with a test tool source, prompts, providers, tools, MCP
// (with the test MCP server on loopback, not connected until asked), the memory plugins on
// the embedded defaults, and the console.
import path from 'node:path'
import type { Test } from 'tap'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { memoryWithRecall, repoPlugin, Workspace, REPO, type PluginSpec } from '../helpers/workspace.ts'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai-upstream.ts'
import { startFixtureServer, type FixtureServer } from '../fixtures/mcp/server.ts'

export const MODEL = 'gpt-4o-mini'
const testTools = path.join(REPO, 'test', 'chat', 'fixtures', 'test-tools')

export interface ConsoleServer { s: Started, fake: FakeOpenAI, mcp: FixtureServer }

export interface ConsoleSetup {
  env?: Record<string, string>
  /** Leave the memory plugins out (faster; chat-only tests). */
  memory?: boolean
  /** Load the jobs plugin even without the memory plugins. */
  jobs?: boolean
  /** Leave the console plugin disabled. */
  consoleEnabled?: boolean
  /** The OpenAI provider's default address (the fake upstream's when not given). */
  openaiBaseUrl?: string
  /** More plugins, loaded before the console (the agent and its strategies, translation). */
  extra?: PluginSpec[]
}

export function consolePlugins (setup: ConsoleSetup, fakeUrl: string): PluginSpec[] {
  const memory: PluginSpec[] = setup.memory === false
    ? []
    // The shipped techniques too: each brings its recall settings (the settings form shows them).
    : memoryWithRecall()
  // The scheduler on the embedded database (the memory plugins' when they are in).
  // Without memory, one manual job of the test fixture gives the page something to run.
  const jobs: PluginSpec[] = [
    ...(setup.jobs === true && setup.memory === false ? [{ name: 'test-jobs', module: path.join(REPO, 'test', 'fixtures', 'plugins', 'test-jobs'), options: { jobs: [{ name: 'tidy', schedule: null }] } }] : []),
    ...(setup.jobs === true || setup.memory !== false ? [{ name: 'jobs', module: repoPlugin('jobs') }] : []),
  ]
  return [
    { name: 'test-tools', module: testTools },
    { name: 'tools-api', module: repoPlugin('tools-api') },
    { name: 'mcp', module: repoPlugin('mcp'), options: { reconnect_initial_ms: 100, reconnect_max_ms: 1000 } },
    { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: setup.openaiBaseUrl ?? fakeUrl, max_retries: 0 } },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'config-api', module: repoPlugin('config-api') },
    { name: 'prompts', module: repoPlugin('prompts') },
    { name: 'chat', module: repoPlugin('chat') },
    ...memory,
    ...jobs,
    ...(setup.extra ?? []),
    { name: 'console', module: repoPlugin('console'), enabled: setup.consoleEnabled ?? true },
  ]
}

export async function startConsoleServer (t: Test, setup: ConsoleSetup = {}): Promise<ConsoleServer> {
  const fake = await startFakeOpenAI(t)
  const mcp = await startFixtureServer('streamable_http', 'fixture')
  t.teardown(async () => { await mcp.close() })
  const ws = new Workspace('agentd-console-')
  t.teardown(() => { ws.remove() })
  const serversFile = ws.write('mcp_servers.json', JSON.stringify({ servers: { fixture: { url: mcp.url, transport: 'streamable_http', auto_connect: false, description: 'The test MCP server' } } }, null, 2))
  const s = await startKernel(t, {
    ws,
    plugins: consolePlugins(setup, fake.url),
    env: { OPENAI_API_KEY: 'test-key', DEFAULT_MODEL: MODEL, MCP_SERVERS_FILE: serversFile, ...setup.env },
  })
  return { s, fake, mcp }
}
