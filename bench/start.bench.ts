// Start-up and footprint, as a user starts agentd (`npm start`: compiled JavaScript with
// the start script's Node flags, the shipped plugins.json, embedded defaults), against a
// bare Fastify hello-world started the same way (node on a .mjs file) in the same run. Targets (issue 23):
//   - time to the first 200 from /api/index within 2x of bare Fastify (median of rounds)
//   - time until /api/health reports ready with every section up, on a new data
//     directory, under 2 s
//   - resident memory (VmRSS) once idle after start under 250 MB, and after 1,000 chats
//     with memory (against a fake OpenAI upstream on loopback) under 350 MB
//
// Short run: BENCH_ROUNDS=2 BENCH_FRESH=1 BENCH_CHATS=200 npx tsx bench/start.bench.ts
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { freePort } from '../test/helpers/net.ts'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FakeOpenAI } from '../test/fakes/openai-upstream.ts'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const CHATS = Number(process.env.BENCH_CHATS ?? 1000)
const FRESH = Number(process.env.BENCH_FRESH ?? 3)
const verdict = (met: boolean): string => met ? 'met' : 'NOT met'
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function rssMb (pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m === null ? NaN : Number(m[1]) / 1024
}

async function until (fn: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    if (await fn().catch(() => false)) return performance.now() - started
    await new Promise(resolve => setTimeout(resolve, 5))
  }
  throw new Error(`not reached within ${timeoutMs} ms`)
}

interface Started { child: ChildProcess, port: number, spawnedAt: number }

function launch (args: string[], env: Record<string, string>, cwd: string, port: number): Started {
  const spawnedAt = performance.now()
  const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, API_PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] })
  return { child, port, spawnedAt }
}

async function stop (s: Started): Promise<void> {
  if (s.child.exitCode !== null) return
  s.child.kill('SIGTERM')
  await new Promise(resolve => s.child.once('exit', resolve))
}

const status = async (port: number, p: string): Promise<number> => (await fetch(`http://127.0.0.1:${port}${p}`)).status

async function firstIndex (s: Started): Promise<number> {
  await until(async () => await status(s.port, '/api/index') === 200, 60_000)
  return performance.now() - s.spawnedAt
}

const BARE = `import Fastify from 'fastify'
const app = Fastify()
app.get('/api/index', async () => ({ message: 'hello' }))
await app.listen({ port: Number(process.env.API_PORT), host: '127.0.0.1' })
`

function agentdEnv (dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { AGENT_DATA_DIR: dataDir, AGENT_PLUGINS_FILE: path.join(REPO, 'plugins.json'), MCP_SERVERS_FILE: path.join(REPO, 'mcp_servers.json'), AGENT_LOG_LEVEL: 'warn', ...extra }
}
/** Node's arguments exactly as `npm start` gives them (package.json's start script), the entry file made absolute. */
function startArgs (): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: { start: string } }
  const [node, ...args] = scripts.start.trim().split(/\s+/)
  if (node !== 'node' || args.length === 0) throw new Error(`the start script is not \`node [flags] <entry>\`: ${scripts.start}`)
  return [...args.slice(0, -1), path.join(REPO, args[args.length - 1])]
}
const AGENTD = startArgs()

async function main (): Promise<void> {
  const build = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('build failed')
  const tmp = mkdtempSync(path.join(tmpdir(), 'agentd-start-bench-'))
  const bare = path.join(REPO, 'node_modules', '.agentd-bench-bare.mjs') // beside node_modules, so `fastify` resolves
  writeFileSync(bare, BARE)
  try {
    // 1. Time to the first 200 from /api/index, alternating the two servers (ABAB...).
    const bareMs: number[] = []
    const agentdMs: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      const b = launch([bare], {}, REPO, await freePort())
      bareMs.push(await firstIndex(b))
      await stop(b)
      const a = launch(AGENTD, agentdEnv(path.join(tmp, `index-${i}`)), REPO, await freePort())
      agentdMs.push(await firstIndex(a))
      await stop(a)
    }
    const ratio = median(agentdMs) / median(bareMs)
    console.log(`first 200 from /api/index: agentd median ${median(agentdMs).toFixed(0)} ms (${agentdMs.map(x => x.toFixed(0)).join(', ')}), bare Fastify ${median(bareMs).toFixed(0)} ms (${bareMs.map(x => x.toFixed(0)).join(', ')})`)
    console.log(`  ratio ${ratio.toFixed(2)}x (target <= 2x): ${verdict(ratio <= 2)}`)

    // 2. Until health is ready with every section up, on a new data directory; then idle
    // RSS. Several fresh starts (medians): one sample swings by a few hundred ms and MB.
    const fake = await new FakeOpenAI({ fallback: () => ({ text: 'noted, thanks' }) }).start()
    const readyMs: number[] = []
    const idleMb: number[] = []
    let a: Started | undefined
    try {
      for (let i = 0; i < FRESH; i++) {
        if (a !== undefined) await stop(a)
        const env = agentdEnv(path.join(tmp, `fresh-${i}`), { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: fake.url, DEFAULT_MODEL: 'openai/gpt-4o-mini' })
        const s: Started = a = launch(AGENTD, env, REPO, await freePort())
        await until(async () => {
          const h = await (await fetch(`http://127.0.0.1:${s.port}/api/health?include_memory=true`)).json() as { ready?: boolean, status?: string }
          return h.ready === true && h.status === 'healthy'
        }, 60_000)
        readyMs.push(performance.now() - s.spawnedAt)
        await new Promise(resolve => setTimeout(resolve, 3000))
        idleMb.push(rssMb(s.child.pid!))
      }
      const ready = median(readyMs)
      const idle = median(idleMb)
      console.log(`health ready with every section up, new data directory: median ${ready.toFixed(0)} ms after spawn (${readyMs.map(x => x.toFixed(0)).join(', ')}) (target < 2000 ms): ${verdict(ready < 2000)}`)
      console.log(`idle RSS after start: median ${idle.toFixed(0)} MB (${idleMb.map(x => x.toFixed(0)).join(', ')}) (target < 250 MB): ${verdict(idle < 250)}`)
      if (a === undefined) throw new Error('BENCH_FRESH must be at least 1')
      const port = a.port
      const pid = a.child.pid!

      // 3. 1,000 chats with memory, a few sessions and channels, one at a time.
      const chatsStarted = performance.now()
      for (let i = 0; i < CHATS; i++) {
        const r = await fetch(`http://127.0.0.1:${port}/api/agent/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: `Note ${i}: I met Dana at the Lisbon office on day ${i % 30}.`, use_memory: true, channel: `c${i % 4}` }),
        })
        if (r.status !== 200) throw new Error(`chat ${i}: ${r.status} ${await r.text()}`)
        fake.requests.length = 0 // the fake keeps what it saw; this bench measures agentd
      }
      const chatsMs = performance.now() - chatsStarted
      await new Promise(resolve => setTimeout(resolve, 3000))
      const after = rssMb(pid)
      console.log(`${CHATS} chats with memory, one at a time: ${(chatsMs / 1000).toFixed(1)} s (${(chatsMs / CHATS).toFixed(1)} ms a chat; the Node flags' cost on throughput, not a target)`)
      console.log(`RSS after ${CHATS} chats with memory: ${after.toFixed(0)} MB (target < 350 MB): ${verdict(after < 350)}`)
    } finally {
      if (a !== undefined) await stop(a)
      await fake.close()
    }
  } finally {
    rmSync(bare, { force: true })
    rmSync(tmp, { recursive: true, force: true })
  }
}

await main()
