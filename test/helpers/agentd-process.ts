// Runs agentd as a child process (`node --import tsx core/main.ts`, TypeBox bundled as in .taprc) in a workspace, on a
// free loopback port: for tests that need a second process (a cluster) or a real kill.
// Stopped in teardown (SIGTERM, then SIGKILL if it does not exit).
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { once } from 'node:events'
import path from 'node:path'
import type { Test } from 'tap'
import { REPO, type Workspace } from './workspace.ts'
import { testEnv } from './kernel.ts'
import { pollUntil } from './poll.ts'
import { TS_LOADER } from '../ts-loader/url.ts'

export interface AgentdProcess {
  url: string
  child: ChildProcess
  /** Everything the process wrote, for a failing test's message. */
  output: () => string
  /** Kills it now (no shutdown) and waits for the exit. */
  kill: () => Promise<void>
  /** Asks it to shut down (SIGTERM; SIGKILL after 15 s) and waits for the exit. */
  stop: () => Promise<void>
}

export async function freePort (): Promise<number> {
  const srv = createServer()
  srv.listen(0, '127.0.0.1')
  await once(srv, 'listening')
  const port = (srv.address() as { port: number }).port
  await new Promise(resolve => srv.close(resolve))
  return port
}

/** Attempts at a free port: another process can take the one picked while the child starts (seconds under a loaded suite). */
const PORT_ATTEMPTS = 3

export async function spawnAgentd (t: Test, ws: Workspace, env: Record<string, string> = {}): Promise<AgentdProcess> {
  for (let attempt = 1; ; attempt++) {
    const started = await startOnPort(t, ws, env, await freePort())
    if (started !== 'port taken' || attempt === PORT_ATTEMPTS) {
      if (started === 'port taken') throw new Error(`agentd did not start: ${PORT_ATTEMPTS} free ports were taken by others before it listened`)
      return started
    }
  }
}

async function startOnPort (t: Test, ws: Workspace, env: Record<string, string>, port: number): Promise<AgentdProcess | 'port taken'> {
  const child = spawn(process.execPath, ['--conditions=agentd-typebox-bundle', '--import', TS_LOADER, path.join(REPO, 'core', 'main.ts')], {
    cwd: ws.dir,
    env: testEnv(ws, { AGENT_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...env, API_PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { out += d.toString() })
  const exited = new Promise<void>(resolve => { child.once('exit', () => { resolve() }) })
  const alive = (): boolean => child.exitCode === null && child.signalCode === null
  const kill = async (): Promise<void> => { if (alive()) child.kill('SIGKILL'); await exited }
  const stop = async (): Promise<void> => {
    if (!alive()) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => { child.kill('SIGKILL') }, 15_000)
    await exited
    clearTimeout(timer)
  }
  t.teardown(stop)
  const url = `http://127.0.0.1:${port}`
  const up = await pollUntil(async () => {
    if (!alive()) return 'exited'
    // 503 until the serving generation is activated (schedules started, tool servers configured).
    try { return (await fetch(`${url}/api/health`)).status === 503 ? 'starting' : 'up' } catch { return 'starting' }
  }, s => s !== 'starting', 120_000, 100)
  if (up === 'exited' && out.includes('EADDRINUSE')) return 'port taken'
  if (up !== 'up') throw new Error(`agentd did not start (${up}):\n${out}`)
  return { url, child, output: () => out, kill, stop }
}
