// SSE fan-out: N concurrent chat streams (100, 500, 1000) through POST /api/agent/chat/stream
// (kernel, chat plugin, prompts, the real OpenAI-compatible provider on the openai SDK,
// the think parser, @fastify/sse) against the same streams through a minimal Fastify SSE
// route that proxies the same upstream with fetch, measured in the same run.
//
// The fake upstream (test/fakes/openai-upstream.ts) emits TOKENS tokens per stream, one
// every INTERVAL ms, each stamped with the moment it is written (wall clock with
// sub-millisecond resolution: performance.timeOrigin + performance.now(), comparable
// across processes on one machine). Stream starts are spread over RAMP_MS; the latency
// percentiles count the chunks written while all N streams were open (the ramp is
// reported apart). The upstream, each server and the clients (this process) are separate
// processes, so each server's CPU time and memory are its own. Reported per N and server:
//   latency per chunk, upstream write -> client read, p50 / p99 (and what agentd adds
//   over the baseline), CPU ms per stream, memory per stream (live heap + buffers with N
//   streams open, after a full GC, minus idle; in an extra round whose latency is not used), and
//   the server's event-loop delay p99 (how long ready work waited inside that server).
// Target (issue 4): 1000 concurrent streams, p99 added latency under 20 ms.
import { spawn, type ChildProcess } from 'node:child_process'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import http from 'node:http'
import { fileURLToPath } from 'node:url'
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const self = fileURLToPath(import.meta.url)
const REPO = path.resolve(path.dirname(self), '..')
const COUNTS = (process.env.BENCH_STREAMS ?? '100,500,1000').split(',').map(Number)
const TOKENS = Number(process.env.BENCH_TOKENS ?? 100)
const INTERVAL = Number(process.env.BENCH_INTERVAL_MS ?? 100)
/**
 * A second series at a slower token rate (same stream lifetime), for the largest N: on a
 * 2-core machine that also runs the upstream and the clients, one event loop cannot relay
 * 10,000 tokens/s, not even the minimal route's; this series shows the streams held at a
 * rate the machine can carry. `BENCH_SLOW_INTERVAL_MS=0` skips it.
 */
const SLOW_INTERVAL = Number(process.env.BENCH_SLOW_INTERVAL_MS ?? 500)
/** Stream starts are spread over this long; latency percentiles use the window after it, when all N are open. */
const RAMP_MS = Number(process.env.BENCH_RAMP_MS ?? 1000)
const WARMUP = 50

// ---- child: a server --------------------------------------------------------------------

interface Stats { cpu_ms: number, loop_p99_ms: number }
interface Mem { live: number, loop_p99_ms: number }

function statsChannel (): void {
  let cpu = process.cpuUsage()
  // Event-loop delay: how long ready work waited in this server, whatever else the machine ran.
  const loop = monitorEventLoopDelay({ resolution: 5 })
  loop.enable()
  // Live memory only: collect first, so garbage does not count.
  const live = (): number => { global.gc?.(); const m = process.memoryUsage(); return m.heapUsed + m.external + m.arrayBuffers }
  process.on('message', (msg: string) => {
    if (msg === 'mark') {
      const idle = live()
      cpu = process.cpuUsage()
      loop.reset()
      process.send?.({ live: idle, loop_p99_ms: 0 } satisfies Mem)
    } else if (msg === 'mem') {
      // The loop delay is read first: the collection below must not count.
      const loopP99 = loop.percentile(99) / 1e6
      process.send?.({ live: live(), loop_p99_ms: loopP99 } satisfies Mem)
    } else if (msg === 'report') {
      const d = process.cpuUsage(cpu)
      process.send?.({ cpu_ms: (d.user + d.system) / 1000, loop_p99_ms: NaN } satisfies Stats)
    }
  })
}

async function serveAgentd (upstream: string): Promise<void> {
  const { Kernel } = await import('../core/kernel.ts')
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-bench-sse-'))
  mkdirSync(path.join(dir, 'data'))
  const plugin = (name: string): string => path.join(REPO, 'plugins', name)
  writeFileSync(path.join(dir, 'plugins.json'), JSON.stringify({ plugins: [
    { name: 'openai', module: plugin('provider-openai-compatible'), options: { base_url: upstream, max_retries: 0 } },
    { name: 'providers-api', module: plugin('providers-api') },
    { name: 'prompts', module: plugin('prompts') },
    { name: 'chat', module: plugin('chat') },
  ] }))
  const kernel = new Kernel({
    cwd: dir,
    env: { PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'warn', AGENT_DATA_DIR: path.join(dir, 'data'), OPENAI_API_KEY: 'bench', DEFAULT_MODEL: 'gpt-4o-mini' },
    watch: false,
  })
  const addr = await kernel.start()
  statsChannel()
  process.send?.({ port: addr.port })
  process.on('SIGTERM', () => { void kernel.close().finally(() => { rmSync(dir, { recursive: true, force: true }); process.exit(0) }) })
}

async function serveBaseline (upstream: string): Promise<void> {
  const Fastify = (await import('fastify')).default
  const { fastifySSE } = await import('@fastify/sse')
  const app = Fastify({ logger: false })
  await app.register(fastifySSE, { heartbeatInterval: 15_000 })
  // The least a chat proxy can do: ask the upstream to stream, forward each delta's content.
  app.post('/stream', { sse: 'manual' }, async (request, reply) => {
    const res = await fetch(`${upstream}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: (request.body as { message: string }).message }] }),
    })
    await reply.sse.send({ event: 'start', data: { task_id: 'x', model: 'gpt-4o-mini' } })
    const decoder = new TextDecoder()
    let buf = ''
    for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(part, { stream: true })
      let nl: number
      while ((nl = buf.indexOf('\n\n')) >= 0) {
        const line = buf.slice(0, nl)
        buf = buf.slice(nl + 2)
        if (!line.startsWith('data: ') || line === 'data: [DONE]') continue
        const content = (JSON.parse(line.slice(6)) as { choices: Array<{ delta?: { content?: string } }> }).choices[0]?.delta?.content
        if (content !== undefined && content !== '') await reply.sse.send({ event: 'chunk', data: { content } })
      }
    }
    await reply.sse.send({ event: 'done', data: { task_id: 'x' } })
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  statsChannel()
  process.send?.({ port: (app.server.address() as { port: number }).port })
  process.on('SIGTERM', () => { void app.close().finally(() => process.exit(0)) })
}

async function serveUpstream (): Promise<void> {
  const { FakeOpenAI } = await import('../test/fakes/openai-upstream.ts')
  const fake = await new FakeOpenAI().start()
  const stamp = (): string => `|${(performance.timeOrigin + performance.now()).toFixed(3)} `
  // The client asks for its rate in the message ("stream <tokens> <interval ms>").
  fake.fallback = (req) => {
    const m = /stream (\d+) (\d+)/.exec(String(req.body?.messages?.at(-1)?.content ?? ''))
    const tokens = m === null ? TOKENS : Number(m[1])
    return { tokens: { count: tokens, next: stamp }, delayMs: m === null ? INTERVAL : Number(m[2]), usage: { prompt_tokens: 10, completion_tokens: tokens } }
  }
  // Forget recorded requests: a long run would otherwise hold every one.
  setInterval(() => { fake.requests.length = 0 }, 1000).unref()
  process.send?.({ url: fake.url })
  process.on('SIGTERM', () => { void fake.close().finally(() => process.exit(0)) })
}

// ---- parent: clients, report ---------------------------------------------------------------

const now = (): number => performance.timeOrigin + performance.now()

interface Server { name: string, child: ChildProcess, port: number, path: string }

async function startUpstream (): Promise<{ child: ChildProcess, url: string }> {
  const child = spawn(process.execPath, ['--import=tsx', self, 'upstream'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => { resolve(m.url) })
    child.once('exit', code => { reject(new Error(`upstream exited ${code}`)) })
  })
  return { child, url }
}

async function startServer (mode: 'agentd' | 'baseline', upstream: string): Promise<Server> {
  // BENCH_PROFILE=dir writes a V8 CPU profile of each server into dir.
  const prof = process.env.BENCH_PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
  if (process.env.BENCH_NODE_ARGS !== undefined) prof.push(...process.env.BENCH_NODE_ARGS.split(' ').filter(a => a !== ''))
  const child = spawn(process.execPath, ['--import=tsx', '--expose-gc', ...prof, self, mode, upstream], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => { resolve(m.port) })
    child.once('exit', code => { reject(new Error(`${mode} server exited ${code}`)) })
  })
  return { name: mode, child, port, path: mode === 'agentd' ? '/api/agent/chat/stream' : '/stream' }
}

async function ask<T> (child: ChildProcess, msg: string, until: (m: unknown) => boolean): Promise<T> {
  return await new Promise<T>(resolve => {
    const on = (m: unknown): void => { if (until(m)) { child.off('message', on); resolve(m as T) } }
    child.on('message', on)
    child.send(msg)
  })
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })

interface Sample { stamp: number, latency: number }
interface StreamOutcome { ok: boolean, samples: Sample[], sentAt: number, firstAt: number, doneAt: number, error?: string }

/** One client stream: POSTs, parses SSE, records read time minus each token's upstream stamp. */
interface Rate { tokens: number, interval: number }

async function oneStream (server: Server, rate: Rate): Promise<StreamOutcome> {
  return await new Promise<StreamOutcome>(resolve => {
    const samples: Sample[] = []
    const sentAt = now()
    let firstAt = NaN
    let doneAt = NaN
    const req = http.request({ host: '127.0.0.1', port: server.port, path: server.path, method: 'POST', agent, headers: { 'content-type': 'application/json' } }, res => {
      let buf = ''
      let done = false
      res.setEncoding('utf8')
      res.on('data', (d: string) => {
        const at = now()
        buf += d
        let end: number
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, end)
          buf = buf.slice(end + 2)
          if (block.startsWith('event: chunk')) {
            if (Number.isNaN(firstAt)) firstAt = at
            for (const m of block.matchAll(/\|(\d+\.\d+)/g)) samples.push({ stamp: Number(m[1]), latency: at - Number(m[1]) })
          } else if (block.startsWith('event: done')) { done = true; doneAt = at } else if (block.startsWith('event: error')) resolve({ ok: false, samples, sentAt, firstAt, doneAt, error: block })
        }
      })
      res.on('end', () => { resolve({ ok: done && samples.length === rate.tokens, samples, sentAt, firstAt, doneAt, error: done ? undefined : `status ${res.statusCode}` }) })
      res.on('error', err => { resolve({ ok: false, samples, sentAt, firstAt, doneAt, error: err.message }) })
    })
    req.on('error', err => { resolve({ ok: false, samples, sentAt, firstAt, doneAt, error: err.message }) })
    req.end(JSON.stringify({ message: `stream ${rate.tokens} ${rate.interval}`, use_memory: false }))
  })
}

/** N streams, their starts spread evenly over RAMP_MS. */
async function fanOut (server: Server, n: number, rate: Rate): Promise<StreamOutcome[]> {
  return await Promise.all(Array.from({ length: n }, async (_, i) => {
    await new Promise(resolve => setTimeout(resolve, (i / n) * RAMP_MS))
    return await oneStream(server, rate)
  }))
}

function pct (sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(p / 100 * sorted.length))]
}

interface RunResult {
  name: string
  n: number
  rate: Rate
  ok: number
  /** Chunks inside the window when all N streams were open. */
  chunks: number
  window_ms: number
  /** From the first request to the last stream's first token. */
  ramp_ms: number
  /** Request sent to first token, p50 (the upstream waits one INTERVAL before it). */
  ttft_p50: number
  p50: number
  p99: number
  /** p99 over every chunk, the ramp included. */
  p99_all: number
  cpu_ms_per_stream: number
  kb_per_stream: number
  loop_p99: number
  errors: string[]
}

async function warm (server: Server): Promise<void> {
  await Promise.all(Array.from({ length: WARMUP }, async () => await oneStream(server, { tokens: TOKENS, interval: INTERVAL })))
}

/**
 * One fan-out of N streams. Latency counts the chunks written while all N were open:
 * from the moment the last stream got its first token until the memory sample, taken
 * just before the first stream ends (its full GC pauses the server after the window).
 */
async function run (server: Server, n: number, rate: Rate): Promise<RunResult> {
  const isMem = (m: unknown): boolean => typeof m === 'object' && m !== null && 'live' in m
  const idle = await ask<Mem>(server.child, 'mark', isMem)
  const t0 = now()
  const fan = fanOut(server, n, rate)
  await new Promise(resolve => setTimeout(resolve, rate.tokens * rate.interval - rate.interval))
  const sampledAt = now()
  const open = await ask<Mem>(server.child, 'mem', isMem)
  const outcomes = await fan
  const stats = await ask<Stats>(server.child, 'report', m => typeof m === 'object' && m !== null && 'cpu_ms' in m)
  const from = Math.max(...outcomes.map(o => o.firstAt))
  const to = Math.min(sampledAt, ...outcomes.map(o => o.doneAt))
  const all = outcomes.flatMap(o => o.samples)
  const steady = all.filter(x => x.stamp >= from && x.stamp <= to).map(x => x.latency).sort((a, b) => a - b)
  return {
    name: server.name,
    n,
    rate,
    ok: outcomes.filter(o => o.ok).length,
    chunks: steady.length,
    window_ms: Math.max(0, to - from),
    ramp_ms: from - t0,
    ttft_p50: pct(outcomes.map(o => o.firstAt - o.sentAt).sort((a, b) => a - b), 50),
    p50: pct(steady, 50),
    p99: pct(steady, 99),
    p99_all: pct(all.map(x => x.latency).sort((a, b) => a - b), 99),
    cpu_ms_per_stream: stats.cpu_ms / n,
    kb_per_stream: (open.live - idle.live) / 1024 / n,
    loop_p99: open.loop_p99_ms,
    errors: [...new Set(outcomes.filter(o => !o.ok).map(o => o.error ?? 'incomplete'))].slice(0, 3),
  }
}

async function stop (server: Server): Promise<void> {
  const exited = new Promise(resolve => server.child.once('exit', resolve))
  server.child.kill('SIGTERM')
  await exited
}

async function main (): Promise<void> {
  const upstream = await startUpstream()
  const { loadavg, cpus } = await import('node:os')
  console.log(`SSE fan-out: ${TOKENS} tokens per stream, one every ${INTERVAL} ms, from the fake upstream; starts spread over ${RAMP_MS} ms; latency = upstream write -> client read`)
  console.log(`machine: ${cpus().length} cores, load average ${loadavg().map(l => l.toFixed(2)).join(' ')} at start (other work on the machine shows in the latencies)`)
  console.log('ramp: first request to the last stream\'s first token; window: while all N were open; ttft: request to first token, p50 (the upstream waits one interval).')
  console.log('p50/p99: latency of the chunks written in the window; p99all: every chunk. KB/str: live memory per open stream. loop p99: the server\'s event-loop delay.')
  console.log('server    streams    ok ramp s window s ttft ms  chunks  p50 ms  p99 ms p99all ms CPU ms/str  KB/str loop p99')
  const results: Array<{ base: RunResult, agentd: RunResult }> = []
  const line = (r: RunResult): string => `${r.name.padEnd(9)} ${String(r.n).padStart(6)} ${String(r.ok).padStart(5)} ${(r.ramp_ms / 1000).toFixed(2).padStart(6)} ${(r.window_ms / 1000).toFixed(2).padStart(7)} ${r.ttft_p50.toFixed(0).padStart(6)} ${String(r.chunks).padStart(7)} ${r.p50.toFixed(2).padStart(7)} ${r.p99.toFixed(2).padStart(7)} ${r.p99_all.toFixed(1).padStart(8)} ${r.cpu_ms_per_stream.toFixed(2).padStart(10)} ${r.kb_per_stream.toFixed(1).padStart(8)} ${r.loop_p99.toFixed(1).padStart(9)}${r.errors.length > 0 ? `  errors: ${r.errors.join(' | ').slice(0, 200)}` : ''}`
  // The sweep at the fixed rate, then the largest N again at the slower rate, same stream lifetime.
  const fast: Rate = { tokens: TOKENS, interval: INTERVAL }
  const series: Array<{ n: number, rate: Rate }> = COUNTS.map(n => ({ n, rate: fast }))
  const top = Math.max(...COUNTS)
  if (SLOW_INTERVAL > 0 && SLOW_INTERVAL !== INTERVAL) series.push({ n: top, rate: { tokens: Math.max(2, Math.round(TOKENS * INTERVAL / SLOW_INTERVAL)), interval: SLOW_INTERVAL } })
  // One server of each kind for the whole run; each fan-out starts from a collected heap.
  const base = await startServer('baseline', upstream.url)
  const agentd = await startServer('agentd', upstream.url)
  try {
    await warm(base)
    await warm(agentd)
    let shown: Rate | undefined
    for (const { n, rate } of series) {
      if (shown !== rate) { console.log(`-- ${rate.tokens} tokens per stream, one every ${rate.interval} ms (${(1000 / rate.interval).toFixed(0)} tokens/s per stream)`); shown = rate }
      const pair = { base: await run(base, n, rate), agentd: await run(agentd, n, rate) }
      console.log(line(pair.base))
      console.log(line(pair.agentd))
      results.push(pair)
    }
  } finally {
    await stop(base)
    await stop(agentd)
  }
  // A server keeps up only while its CPU per stream times N, over a stream's lifetime, stays under
  // the one core its event loop runs on (less what the clients and the upstream take from the machine).
  const cores = (r: RunResult): number => r.cpu_ms_per_stream * r.n / (r.rate.tokens * r.rate.interval)
  const perToken = (r: RunResult): number => r.cpu_ms_per_stream / r.rate.tokens * 1000
  console.log('\nagentd against the minimal route, same run (cores busy: server CPU time over one stream\'s lifetime; one event loop has one):')
  for (const { base, agentd } of results) {
    const window = (r: RunResult): string => r.chunks === 0 ? `never all ${r.n} open at once (last first token at ${(r.ramp_ms / 1000).toFixed(1)} s, after the first stream ended)` : ''
    const gap = window(agentd) || window(base)
    console.log(`  ${String(agentd.n).padStart(4)} streams at ${(1000 / agentd.rate.interval).toFixed(0)} tokens/s: ` + (gap !== ''
      ? `${agentd.chunks === 0 ? 'agentd' : 'baseline'} ${gap}; `
      : `added p50 ${(agentd.p50 - base.p50).toFixed(2)} ms, added p99 ${(agentd.p99 - base.p99).toFixed(2)} ms; `) +
      `time to first token ${agentd.ttft_p50.toFixed(0)} vs ${base.ttft_p50.toFixed(0)} ms; CPU ${(agentd.cpu_ms_per_stream / base.cpu_ms_per_stream).toFixed(2)}x ` +
      `(${perToken(agentd).toFixed(0)} vs ${perToken(base).toFixed(0)} us per token, stream setup included); ` +
      `memory ${(agentd.kb_per_stream / base.kb_per_stream).toFixed(2)}x; cores busy ${cores(agentd).toFixed(2)} vs ${cores(base).toFixed(2)}; completed ${agentd.ok}/${agentd.n} (baseline ${base.ok}/${base.n})`)
  }
  for (const { base, agentd } of results.filter(r => r.agentd.n === 1000)) {
    const added = agentd.p99 - base.p99
    const met = agentd.ok === 1000 && agentd.chunks > 0 && base.chunks > 0 && added < 20
    const at = `${(1000 / agentd.rate.interval).toFixed(0)} tokens/s per stream`
    console.log(`target 1000 streams, p99 added latency < 20 ms, at ${at}: ${met ? 'met' : 'NOT met'} (` + (agentd.chunks === 0 || base.chunks === 0
      ? `${agentd.chunks === 0 ? 'agentd' : 'the minimal route'} never held all 1000 open at this token rate; ${agentd.ok}/1000 completed)`
      : `added p99 ${added.toFixed(2)} ms, agentd p99 ${agentd.p99.toFixed(2)} ms, ${agentd.ok}/1000 complete)`))
  }
  agent.destroy()
  const exited = new Promise(resolve => upstream.child.once('exit', resolve))
  upstream.child.kill('SIGTERM')
  await exited
}

const mode = process.argv[2]
if (mode === 'agentd') await serveAgentd(process.argv[3])
else if (mode === 'baseline') await serveBaseline(process.argv[3])
else if (mode === 'upstream') await serveUpstream()
else await main()
