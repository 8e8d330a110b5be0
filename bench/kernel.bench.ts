// Kernel overhead: requests/s of /api/health and /api/index through the generation
// dispatcher against a bare Fastify app serving the same routes, measured in the same
// run (autocannon over loopback; each server in its own process, the load generator in
// this one). Then the time to build and swap a generation with the example plugins.
// Targets (issue 2): ratio >= 0.9; build+swap < 250 ms.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir, availableParallelism } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'

const self = fileURLToPath(import.meta.url)
const REPO = path.resolve(path.dirname(self), '..')
const DURATION = Number(process.env.BENCH_SECONDS ?? 2)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8)
/** Pin with taskset where there are two or more cores and taskset exists. */
const PIN = availableParallelism() >= 2 && (() => { try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true } catch { return false } })()

/** The server's own CPU time, asked over IPC: it does not depend on how fast the load generator is. */
function answerCpuQueries (): void {
  process.on('message', () => { const u = process.cpuUsage(); process.send?.({ cpu_us: u.user + u.system }) })
}

async function serverCpuUs (child: ChildProcess): Promise<number> {
  return await new Promise(resolve => {
    child.once('message', (m: { cpu_us: number }) => { resolve(m.cpu_us) })
    child.send('cpu')
  })
}

async function serveKernel (): Promise<void> {
  const { Kernel } = await import('../core/kernel.ts')
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-bench-'))
  writeFileSync(path.join(dir, 'plugins.json'), JSON.stringify({ plugins: [
    { name: 'tools-builtin', module: path.join(REPO, 'plugins/tools-builtin') },
    { name: 'tools-api', module: path.join(REPO, 'plugins/tools-api') },
  ] }))
  const kernel = new Kernel({ cwd: dir, env: { PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'warn', AGENT_DATA_DIR: path.join(dir, 'data') }, watch: false })
  const addr = await kernel.start()
  // Build-and-swap timing, after the first build has loaded every module.
  const times: number[] = []
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now()
    const r = await kernel.reload('bench')
    times.push(performance.now() - t0)
    if (!r.ok) throw new Error(r.error)
    await kernel.settled()
  }
  times.sort((a, b) => a - b)
  answerCpuQueries()
  process.stdout.write(`${JSON.stringify({ port: addr.port, swap_ms: { median: times[5], max: times[9] } })}\n`)
  process.on('SIGTERM', () => { void kernel.close().then(() => { rmSync(dir, { recursive: true, force: true }); process.exit(0) }) })
}

async function serveBare (): Promise<void> {
  const Fastify = (await import('fastify')).default
  const app = Fastify({ logger: false })
  app.get('/api/health', async () => ({ status: 'healthy', version: '0.1.0', api: { status: 'healthy' }, translation: { status: 'not_loaded', models: { language_detection: 'not_loaded', translation: 'not_loaded' } } }))
  app.get('/api/index', async () => ({ message: 'agentd: a self-hosted agent server. See /docs for the API.', version: '0.1.0', docs: '/docs' }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const addr = app.server.address() as { port: number }
  answerCpuQueries()
  process.stdout.write(`${JSON.stringify({ port: addr.port })}\n`)
  process.on('SIGTERM', () => { void app.close().then(() => process.exit(0)) })
}

async function start (mode: string): Promise<{ child: ChildProcess, info: { port: number, swap_ms?: { median: number, max: number } } }> {
  // Both servers on the same core and the load generator on the other: on a shared host
  // the two cores are not equally fast, and a server landing on the slower one would be
  // measured against a server on the faster one.
  const args = ['--import=tsx', self, mode]
  const child = PIN ? spawn('taskset', ['-c', '1', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] }) : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const info = await new Promise<{ port: number }>((resolve, reject) => {
    let buf = ''
    child.stdout!.on('data', (d: Buffer) => { buf += d.toString(); const nl = buf.indexOf('\n'); if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl))) })
    child.once('exit', code => { reject(new Error(`${mode} exited ${code}`)) })
  })
  return { child, info }
}

interface Round { rps: number, cpuUsPerRequest: number }

async function round (server: { child: ChildProcess, info: { port: number } }, route: string): Promise<Round> {
  const cpu0 = await serverCpuUs(server.child)
  const r = await autocannon({ url: `http://127.0.0.1:${server.info.port}${route}`, connections: 50, duration: DURATION, pipelining: 1 })
  const cpu1 = await serverCpuUs(server.child)
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${route}: ${r.non2xx} non-2xx, ${r.errors} errors`)
  return { rps: r.requests.average, cpuUsPerRequest: (cpu1 - cpu0) / r.requests.total }
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] }

async function main (): Promise<void> {
  if (PIN) execFileSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' })
  const kernel = await start('serve-kernel')
  const bare = await start('serve-bare')
  try {
    for (const route of ['/api/health', '/api/index']) {
      await round(kernel, route); await round(bare, route) // warm-up
      // This machine's speed drifts by a third over minutes (shared host), so the two
      // servers run in short adjacent rounds, ABBA-ordered, and each pair gives a ratio:
      // the drift cancels within a pair; the median of the pairs is the figure.
      const pairs: Array<{ ours: Round, base: Round }> = []
      for (let i = 0; i < ROUNDS; i++) {
        if (i % 2 === 0) { const ours = await round(kernel, route); pairs.push({ ours, base: await round(bare, route) }) } else { const base = await round(bare, route); pairs.push({ ours: await round(kernel, route), base }) }
      }
      const rps = median(pairs.map(p => p.ours.rps / p.base.rps))
      const cpu = median(pairs.map(p => p.base.cpuUsPerRequest / p.ours.cpuUsPerRequest))
      console.log(`${route}: agentd ${median(pairs.map(p => p.ours.rps)).toFixed(0)} req/s, bare Fastify ${median(pairs.map(p => p.base.rps)).toFixed(0)} req/s (medians of ${ROUNDS} ABBA pairs of ${DURATION}s rounds); throughput ratio ${rps.toFixed(3)} (target >= 0.9)`)
      console.log(`${route}: server CPU per request agentd ${median(pairs.map(p => p.ours.cpuUsPerRequest)).toFixed(1)} us, bare ${median(pairs.map(p => p.base.cpuUsPerRequest)).toFixed(1)} us; capacity ratio (bare CPU / ours) ${cpu.toFixed(3)}`)
    }
    console.log(`generation build+swap with the example plugins: median ${kernel.info.swap_ms!.median.toFixed(1)} ms, max ${kernel.info.swap_ms!.max.toFixed(1)} ms (target < 250 ms)`)
  } finally {
    kernel.child.kill('SIGTERM'); bare.child.kill('SIGTERM')
  }
}

const mode = process.argv[2]
if (mode === 'serve-kernel') await serveKernel()
else if (mode === 'serve-bare') await serveBare()
else await main()
