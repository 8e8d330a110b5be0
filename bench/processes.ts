// Starting agentd as `npm start` does (compiled, the start script's Node flags, the shipped
// plugins.json) and a bare Fastify hello world the same way, and reading a process's
// footprint from /proc: shared by the start and idle benches.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
export const verdict = (met: boolean): string => met ? 'met' : 'NOT met'
export const sleep = async (ms: number): Promise<void> => { await new Promise(resolve => setTimeout(resolve, ms)) }

/** Resident set (VmRSS) in MiB. */
export function rssMb (pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m === null ? NaN : Number(m[1]) / 1024
}

const TICK_MS = 1000 / 100 // USER_HZ: Linux reports utime/stime in 1/100 s
/** CPU time the process (all its threads) has used so far, user + system, in ms. */
export function cpuMs (pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold spaces) start at the state, field 3.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * TICK_MS
}

/** CPU ms so far per thread, by thread name (comm): where an idle process's CPU goes. */
export function threadCpuMs (pid: number): Map<string, number> {
  const out = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * TICK_MS)
    } catch { /* the thread ended meanwhile */ }
  }
  return out
}

export async function until (fn: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    if (await fn().catch(() => false)) return performance.now() - started
    await sleep(5)
  }
  throw new Error(`not reached within ${timeoutMs} ms`)
}

export interface Started { child: ChildProcess, port: number, spawnedAt: number }

export function launch (args: string[], env: Record<string, string>, port: number): Started {
  const spawnedAt = performance.now()
  const child = spawn(process.execPath, args, { cwd: REPO, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, API_PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] })
  return { child, port, spawnedAt }
}

export async function stop (s: Started): Promise<void> {
  if (s.child.exitCode !== null) return
  s.child.kill('SIGTERM')
  await new Promise(resolve => s.child.once('exit', resolve))
}

export const status = async (port: number, p: string): Promise<number> => (await fetch(`http://127.0.0.1:${port}${p}`)).status

/** Until /api/health?include_memory=true says healthy and ready: every section up. */
export async function healthy (s: Started, timeoutMs = 60_000): Promise<number> {
  await until(async () => {
    const h = await (await fetch(`http://127.0.0.1:${s.port}/api/health?include_memory=true`)).json() as { ready?: boolean, status?: string }
    return h.ready === true && h.status === 'healthy'
  }, timeoutMs)
  return performance.now() - s.spawnedAt
}

const BARE = `import Fastify from 'fastify'
const app = Fastify()
app.get('/api/index', async () => ({ message: 'hello' }))
await app.listen({ port: Number(process.env.API_PORT), host: '127.0.0.1' })
`

/** Writes the bare Fastify hello world beside node_modules (so `fastify` resolves); returns its path and how to remove it. */
export function bareServer (): { file: string, remove: () => void } {
  const file = path.join(REPO, 'node_modules', `.agentd-bench-bare-${process.pid}.mjs`)
  writeFileSync(file, BARE)
  return { file, remove: () => { rmSync(file, { force: true }) } }
}

export function agentdEnv (dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { AGENT_DATA_DIR: dataDir, AGENT_PLUGINS_FILE: path.join(REPO, 'plugins.json'), MCP_SERVERS_FILE: path.join(REPO, 'mcp_servers.json'), AGENT_LOG_LEVEL: 'warn', ...extra }
}

/** Node's arguments exactly as `npm start` gives them (package.json's start script), the entry file made absolute. */
export function startArgs (): { flags: string[], entry: string } {
  const { scripts } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: { start: string } }
  // `exec node ...`: the shell becomes node, so npm's signals reach the server (the same process here).
  const [node, ...args] = scripts.start.trim().replace(/^exec\s+/, '').split(/\s+/)
  if (node !== 'node' || args.length === 0) throw new Error(`the start script is not \`[exec] node [flags] <entry>\`: ${scripts.start}`)
  return { flags: args.slice(0, -1), entry: path.join(REPO, args[args.length - 1]) }
}

/** `npm start`'s own build step: compiles only when a source is newer than dist/. */
export function buildIfStale (): void {
  const build = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('build failed')
}
