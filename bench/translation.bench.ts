// Language detection throughput and p99 latency, issue 7's target: through the HTTP
// endpoint at least 0.8 of calling the detector library directly, same run.
//
// The headline, one mode only:
//   HTTP   POST /api/tools/language-detect-20 on agentd (plugin language-detect with its
//          default options: cld3 in worker threads, `workers: "auto"` = the machine's
//          cores - 1, 1 to 4; 1 on a 2-core machine), driven by autocannon with
//          BENCH_CONNECTIONS (100, the load of Fastify's own benchmark) keep-alive
//          connections from this process;
//   direct detectWith(), the function the route calls (cld3 + restriction to the twenty +
//          confidence), one call after another in a process of its own that stays up for
//          the whole run.
// The same ~100-character UDHR snippets of the twenty languages, cycled, on both sides.
// BENCH_ROUNDS (12) pairs of BENCH_SECONDS (2) slices, ABBA-ordered (direct then HTTP,
// HTTP then direct, ...): each pair's slices are adjacent in time, so a drift of the
// machine's speed (large on a shared 2-core VM) hits both alike, and the verdict is the
// median of the pairs' ratios. Exit code 1 when the target is missed.
//
// The server and the direct loop each get a process; the load generator runs in this
// process and needs CPU too. The server's event loop and its detection worker(s) are
// threads of one process, so it can keep more than one core busy. The output says how
// many cores each side kept busy, and says so when the load generator and the server
// had to share the machine's cores. BENCH_DETECT_OPTIONS (JSON, e.g. '{"workers":2}')
// replaces the plugin's options on that server, to compare settings.
//
// After the headline, informative modes (not the target, BENCH_EXTRA=0 skips them): the
// default server's throughput by connections, and its ratio at 8 connections; a bare
// Fastify route calling the same detector in its thread (the floor Node's HTTP
// stack sets), agentd with `workers: 0` (cld3 in the event-loop thread, as before the
// default moved to worker threads), one connection with one request at a time on the
// default server (latency, with the hop to the worker), and raw cld3-asm without
// restriction or confidence.
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { Agent, request } from 'node:http'

const self = fileURLToPath(import.meta.url)
const REPO = path.resolve(path.dirname(self), '..')
const DURATION = Number(process.env.BENCH_SECONDS ?? 2)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12)
/**
 * The load: Fastify's own benchmark's (`autocannon -c 100`, fastify's package.json),
 * without its pipelining. A throughput figure needs a load that keeps the server busy:
 * through this pipeline (load generator -> event loop -> detection worker -> event loop
 * -> load generator) a few connections leave the worker waiting for the next request and
 * measure the round trip instead (the informative part shows the curve).
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100)
/** The curve in the informative part. */
const CURVE = [1, 8, 16, 32, 64, 100]
const EXTRA = process.env.BENCH_EXTRA !== '0'
const TARGET = 0.8

interface Measure { rate: number, p99_ms: number, cpu_cores: number }
interface HttpMeasure extends Measure { loadgen_cores: number }

async function texts (): Promise<string[]> {
  const { udhrSnippets } = await import('../plugins/language-detect/udhr-snippets.ts')
  return udhrSnippets(100).map(s => s.text)
}

function p99 (samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2
}

const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000

/** One slice of the direct loop: call the library for `ms`; calls/s, p99 per call, cores busy. */
async function directSlice (call: (t: string) => unknown, all: string[], ms: number, start: number): Promise<Measure> {
  const lat: number[] = []
  const cpu = process.cpuUsage()
  const started = performance.now()
  const end = started + ms
  let n = 0
  while (performance.now() < end) {
    const t0 = performance.now()
    await call(all[(start + n) % all.length])
    lat.push(performance.now() - t0)
    n++
  }
  const took = performance.now() - started
  return { rate: n / (took / 1000), p99_ms: p99(lat), cpu_cores: cpuMs(process.cpuUsage(cpu)) / took }
}

/**
 * Child: the direct side. It stays up for the whole run (no process start or JIT
 * warm-up inside a round) and runs a slice of DURATION seconds each time the parent
 * sends `run` on the IPC channel, answering with the slice's Measure.
 */
async function direct (which: 'detector' | 'cld3'): Promise<void> {
  const all = await texts()
  const { loadCld3 } = await import('../plugins/language-detect/cld3-backend.ts')
  const { detectWith } = await import('../plugins/language-detect/detector.ts')
  const backend = await loadCld3()
  const call = which === 'detector' ? async (t: string) => await detectWith(backend, t) : (t: string) => backend.guess(t)
  for (let i = 0; i < 2000; i++) await call(all[i % all.length]) // warm-up
  let offset = 0
  process.on('message', (m) => {
    if (m !== 'run') return
    void directSlice(call, all, DURATION * 1000, offset).then((r) => { offset += 997; process.send?.({ measure: r }) })
  })
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`)
}

/** Sends `request` on a child's IPC channel; resolves with the `key` field of the first answer that has one. */
async function ask<T> (c: ChildProcess, request: string, key: string): Promise<T> {
  return await new Promise((resolve) => {
    const on = (m: unknown): void => {
      if (typeof m === 'object' && m !== null && key in m) { c.off('message', on); resolve((m as Record<string, T>)[key]) }
    }
    c.on('message', on)
    c.send(request)
  })
}

const runSlice = async (c: ChildProcess): Promise<Measure> => await ask<Measure>(c, 'run', 'measure')

/** Servers answer `cpu` on their IPC channel with their CPU time so far, so each round can say how busy the server was. */
function reportCpu (): void {
  process.on('message', (m) => { if (m === 'cpu') process.send?.({ cpu_ms: cpuMs(process.cpuUsage()) }) })
}

/** agentd with the plugin's default options, or with these. */
async function serve (options?: Record<string, unknown>): Promise<void> {
  const { Kernel } = await import('../core/kernel.ts')
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-bench-'))
  writeFileSync(path.join(dir, 'plugins.json'), JSON.stringify({ plugins: [
    { name: 'language-detect', module: path.join(REPO, 'plugins/language-detect'), ...(options === undefined ? {} : { options }) },
  ] }))
  const kernel = new Kernel({ cwd: dir, env: { PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'warn', AGENT_DATA_DIR: path.join(dir, 'data') }, watch: false })
  const addr = await kernel.start()
  reportCpu()
  process.stdout.write(`${JSON.stringify({ port: addr.port })}\n`)
  process.on('SIGTERM', () => { void kernel.close().then(() => { rmSync(dir, { recursive: true, force: true }); process.exit(0) }) })
}

/** The HTTP floor: a bare Fastify app whose route calls the same detector, no kernel. */
async function serveBare (): Promise<void> {
  const Fastify = (await import('fastify')).default
  const { loadCld3 } = await import('../plugins/language-detect/cld3-backend.ts')
  const { detectWith } = await import('../plugins/language-detect/detector.ts')
  const backend = await loadCld3()
  const app = Fastify({ logger: false })
  app.post('/api/tools/language-detect-20', async (req) => {
    const text = (req.body as { text: string }).text
    const d = await detectWith(backend, text)
    return { status: 'success', original: text, detected_language: d.language, language: d.language, language_name: d.language, confidence: Math.round(d.confidence * 10_000) / 100 }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  reportCpu()
  process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port })}\n`)
  process.on('SIGTERM', () => { void app.close().then(() => process.exit(0)) })
}

interface Child<T> { proc: ChildProcess, info: T }

/** A child process of this script in `mode`; `info` is the first line it prints. Every child has an IPC channel. */
async function child<T> (mode: string): Promise<Child<T>> {
  const proc = spawn(process.execPath, ['--import=tsx', self, mode], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const info = await new Promise<T>((resolve, reject) => {
    let buf = ''
    proc.stdout!.on('data', (d: Buffer) => { buf += d.toString(); const nl = buf.indexOf('\n'); if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)) as T) })
    proc.once('exit', code => { reject(new Error(`${mode} exited ${code}`)) })
  })
  return { proc, info }
}

const serverCpuMs = async (c: ChildProcess): Promise<number> => await ask<number>(c, 'cpu', 'cpu_ms')

/** autocannon against a server for DURATION s; with the CPU the server and this process (the load generator) used. */
async function http (server: Child<{ port: number }>, all: string[], connections: number, seconds = DURATION): Promise<HttpMeasure> {
  let i = 0
  const serverBefore = await serverCpuMs(server.proc)
  const cpu = process.cpuUsage()
  const started = performance.now()
  const r = await autocannon({
    url: `http://127.0.0.1:${server.info.port}`,
    connections,
    duration: seconds,
    requests: [{
      method: 'POST',
      path: '/api/tools/language-detect-20',
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ text: all[i++ % all.length] }) }),
    }],
  })
  const ms = performance.now() - started
  const loadgen = cpuMs(process.cpuUsage(cpu)) / ms
  const serverCores = (await serverCpuMs(server.proc) - serverBefore) / ms
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`)
  return { rate: r.requests.average, p99_ms: r.latency.p99, cpu_cores: serverCores, loadgen_cores: loadgen }
}

/** One keep-alive connection, one request at a time: per-request latency with sub-ms resolution. */
async function sequential (port: number, all: string[]): Promise<{ rate: number, p99_ms: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const once = async (text: string): Promise<void> => await new Promise((resolve, reject) => {
    const body = JSON.stringify({ text })
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/tools/language-detect-20', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, res => {
      res.resume()
      res.once('end', () => { if (res.statusCode === 200) resolve(); else reject(new Error(`status ${res.statusCode}`)) })
    })
    req.once('error', reject)
    req.end(body)
  })
  const lat: number[] = []
  const started = performance.now()
  const end = started + DURATION * 1000
  let n = 0
  while (performance.now() < end) {
    const t0 = performance.now()
    await once(all[n++ % all.length])
    lat.push(performance.now() - t0)
  }
  agent.destroy()
  return { rate: n / ((performance.now() - started) / 1000), p99_ms: p99(lat) }
}

const f0 = (x: number): string => x.toFixed(0)
const f2 = (x: number): string => x.toFixed(2)
const f3 = (x: number): string => x.toFixed(3)

async function headline (all: string[]): Promise<boolean> {
  const cores = availableParallelism()
  const { poolSize } = await import('../plugins/language-detect/cld3-pool.ts')
  const server = await child<{ port: number }>('serve')
  const loop = await child<{ ready: boolean }>('direct-detector')
  try {
    await http(server, all, 16) // warm-up: JIT and cld3 on the server
    const pairs: Array<{ direct: Measure, http: HttpMeasure }> = []
    for (let round = 0; round < ROUNDS; round++) {
      // ABBA: direct first in even rounds, HTTP first in odd ones; each pair's two slices
      // are adjacent in time, so a drift of the machine's speed hits both alike.
      let d: Measure
      let h: HttpMeasure
      if (round % 2 === 0) { d = await runSlice(loop.proc); h = await http(server, all, CONNECTIONS) } else { h = await http(server, all, CONNECTIONS); d = await runSlice(loop.proc) }
      pairs.push({ direct: d, http: h })
    }
    const ratios = pairs.map(p => p.http.rate / p.direct.rate)
    const ratio = median(ratios)
    const d = { rate: median(pairs.map(p => p.direct.rate)), p99: median(pairs.map(p => p.direct.p99_ms)), cores: median(pairs.map(p => p.direct.cpu_cores)) }
    const h = { rate: median(pairs.map(p => p.http.rate)), p99: median(pairs.map(p => p.http.p99_ms)), cores: median(pairs.map(p => p.http.cpu_cores)), loadgen: median(pairs.map(p => p.http.loadgen_cores)) }
    const met = ratio >= TARGET
    console.log(`language detection, ${all.length} UDHR snippets of ~100 chars in 20 languages; machine: ${cores} cores, load average ${loadavg().map(f2).join(' ')}`)
    console.log(`headline: ${ROUNDS} interleaved (ABBA) pairs of ${DURATION} s slices; the ratio is the median of the pairs' ratios`)
    console.log(process.env.BENCH_DETECT_OPTIONS === undefined ? `  (agentd's default options: cld3 in ${poolSize('auto')} worker thread(s), workers: "auto")` : `  (agentd with the plugin options ${process.env.BENCH_DETECT_OPTIONS}, not the defaults)`)
    console.log(`  HTTP   POST /api/tools/language-detect-20 (agentd), autocannon ${CONNECTIONS} connections: median ${f0(h.rate)} snippets/s, p99 ${f2(h.p99)} ms (autocannon, 1 ms resolution, includes queueing behind ${CONNECTIONS} connections)`)
    console.log(`  direct detectWith() in one thread:                               median ${f0(d.rate)} snippets/s, p99 ${f3(d.p99)} ms per call`)
    console.log(`  per pair, HTTP/direct: ${ratios.map(f2).join(' ')}`)
    console.log(`  cores busy (CPU time / wall time): server ${f2(h.cores)}, load generator ${f2(h.loadgen)}, direct loop ${f2(d.cores)}`)
    console.log(`  ratio HTTP / direct: ${f3(ratio)}, target >= ${TARGET}: ${met ? 'met' : 'NOT met'}`)
    if (h.cores + h.loadgen > cores * 0.85) {
      console.log(`  limit: the load generator (${f2(h.loadgen)} cores) and the server (${f2(h.cores)}) shared this machine's ${cores} cores and used ${f0(100 * (h.cores + h.loadgen) / cores)}% of them, ` +
        `so the HTTP figure is bounded by the machine: the server did not have a core to itself${h.cores < 0.9 ? ` (it got ${f2(h.cores)} of one)` : ''}. ` +
        'Run the load generator on another machine (or one with more cores) to measure the server alone.')
    } else if (cores < 3) {
      console.log(`  note: ${cores} cores for the server, the load generator and the rest of the machine; they used ${f0(100 * (h.cores + h.loadgen) / cores)}% of them here.`)
    }
    // Not the load average: this bench's own server and load generator make up most of it.
    if (d.cores < 0.9) {
      console.log(`  warning: other work shared the machine (the direct loop got ${f2(d.cores)} of a core): ` +
        'these figures measure the contention more than agentd; rerun on a quiet machine.')
    }
    return met
  } finally {
    server.proc.kill('SIGTERM')
    loop.proc.kill('SIGTERM')
  }
}

async function extras (all: string[]): Promise<void> {
  const server = await child<{ port: number }>('serve')
  const inThread = await child<{ port: number }>('serve-in-thread')
  const bare = await child<{ port: number }>('serve-bare')
  const raw = await child<{ ready: boolean }>('direct-cld3')
  const loop = await child<{ ready: boolean }>('direct-detector')
  try {
    for (const p of [server, inThread, bare]) await http(p, all, CONNECTIONS) // warm-up
    // The default server under a light load: 4 ABBA pairs at 8 connections.
    const curve: Array<[number, number]> = []
    for (const c of CURVE) curve.push([c, (await http(server, all, c)).rate])
    const light: number[] = []
    for (let round = 0; round < 4; round++) {
      if (round % 2 === 0) { const d = await runSlice(loop.proc); light.push((await http(server, all, 8)).rate / d.rate) } else { const h = await http(server, all, 8); light.push(h.rate / (await runSlice(loop.proc)).rate) }
    }
    const b = await http(bare, all, CONNECTIONS)
    const w = await http(inThread, all, CONNECTIONS)
    const s = await sequential(server.info.port, all)
    const c = await runSlice(raw.proc)
    console.log(`informative (one ${DURATION} s run each, not the target):`)
    console.log(`  agentd (default options) at 8 connections, HTTP/direct over 4 ABBA pairs: median ${f3(median(light))} (pairs ${light.map(f2).join(' ')}): too few requests in flight to keep the worker busy`)
    console.log(`  agentd (default options), snippets/s by connections: ${curve.map(([c, r]) => `${c}: ${f0(r)}`).join(', ')}`)
    console.log(`  bare Fastify route calling the same detector, ${CONNECTIONS} conn.: ${f0(b.rate)} snippets/s, p99 ${f2(b.p99_ms)} ms (the floor Node's HTTP stack sets; server ${f2(b.cpu_cores)} cores, load generator ${f2(b.loadgen_cores)})`)
    console.log(`  agentd with workers: 0 (cld3 in the event-loop thread, not the default), ${CONNECTIONS} conn.: ${f0(w.rate)} snippets/s, p99 ${f2(w.p99_ms)} ms (server ${f2(w.cpu_cores)} cores, load generator ${f2(w.loadgen_cores)})`)
    console.log(`  agentd (default options), one keep-alive connection, one request at a time: ${f0(s.rate)} snippets/s, p99 ${f3(s.p99_ms)} ms`)
    console.log(`  raw cld3-asm findLanguage (no restriction, no confidence), one thread: ${f0(c.rate)} snippets/s, p99 ${f3(c.p99_ms)} ms`)
  } finally {
    for (const p of [server, inThread, bare, raw, loop]) p.proc.kill('SIGTERM')
  }
}

async function main (): Promise<void> {
  const all = await texts()
  const met = await headline(all)
  if (EXTRA) await extras(all)
  if (!met) process.exitCode = 1
}

const mode = process.argv[2]
if (mode === 'serve') await serve(process.env.BENCH_DETECT_OPTIONS === undefined ? undefined : JSON.parse(process.env.BENCH_DETECT_OPTIONS) as Record<string, unknown>)
else if (mode === 'serve-in-thread') await serve({ workers: 0 })
else if (mode === 'serve-bare') await serveBare()
else if (mode === 'direct-detector') await direct('detector')
else if (mode === 'direct-cld3') await direct('cld3')
else await main()
