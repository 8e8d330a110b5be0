// What telemetry costs the chat path: requests/s of POST /api/agent/chat (a model call to a
// fake OpenAI upstream, no memory) on agentd with the telemetry plugin tracing and counting
// (traces exported over OTLP/HTTP to a receiver on loopback, every span sampled, /metrics
// on), against the same agentd without the telemetry plugin, in the same run. Target
// (issue 38): ratio >= 0.9.
//
// Each server runs in its own process pinned to one core; this process (the load
// generator, the fake upstream both servers call, and the OTLP receiver) on the other.
// Two processes a side (BENCH_INSTANCES), warmed round-robin (BENCH_WARMUP_ROUNDS rounds
// each) until the JIT has settled, then short ABBA rounds cycling over the pairs, each pair
// a ratio, the median of the pairs the figure (the host's speed drifts; see kernel.bench.ts).
//
// Smoke run: BENCH_ROUNDS=2 BENCH_SECONDS=1 BENCH_WARMUP_ROUNDS=1 BENCH_INSTANCES=1 npx tsx bench/telemetry.bench.ts
// OTLP/JSON instead of the default protobuf: BENCH_OTLP_PROTOCOL=http/json npx tsx bench/telemetry.bench.ts
// Sampled: BENCH_SAMPLER=parentbased_traceidratio BENCH_SAMPLER_ARG=0.1 npx tsx bench/telemetry.bench.ts
// A/A calibration (both sides without telemetry: how far a run strays with nothing to measure): BENCH_AA=1
// Baseline with an AsyncLocalStorage entered (what a context manager's async hooks alone
// cost, with no span): BENCH_BASELINE_ALS=1 npx tsx bench/telemetry.bench.ts
// CPU profiles of both servers (V8, 200 us samples, written when they exit, start-up and
// warm-up included): BENCH_CPU_PROF=/tmp/prof npx tsx bench/telemetry.bench.ts
import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import autocannon from 'autocannon'
import { answerCpuQueries, childCpuUs as serverCpuUs, pinSelf, startPinned } from './pinned.ts'

const self = fileURLToPath(import.meta.url)
const REPO = path.resolve(path.dirname(self), '..')
const DURATION = Number(process.env.BENCH_SECONDS ?? 2)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12)
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 2)
const WARMUP_ROUNDS = Number(process.env.BENCH_WARMUP_ROUNDS ?? 8)
const TARGET = 0.9
// The OTLP encoding: the shipped default (OTEL_EXPORTER_OTLP_PROTOCOL unset) unless BENCH_OTLP_PROTOCOL=http/json.
const PROTOCOL = process.env.BENCH_OTLP_PROTOCOL === 'http/json' ? 'http/json' : 'http/protobuf'
const plugin = (name: string, options?: Record<string, unknown>): Record<string, unknown> => ({ name, module: path.join(REPO, 'plugins', name), ...(options === undefined ? {} : { options }) })

async function serve (mode: 'on' | 'off', upstream: string, receiver: string): Promise<void> {
  const { Kernel } = await import('../core/kernel.ts')
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-bench-telemetry-'))
  const plugins = [
    ...(mode === 'on' ? [plugin('telemetry', { access_log: false })] : []),
    { name: 'openai', module: path.join(REPO, 'plugins/provider-openai-compatible'), options: { base_url: upstream, max_retries: 0 } },
    plugin('tools-builtin'), plugin('providers-api'), plugin('prompts'), plugin('chat'),
  ]
  writeFileSync(path.join(dir, 'plugins.json'), JSON.stringify({ plugins }))
  // BENCH_TRACES=0: metrics only (no exporter, no context manager, no propagation), to tell the two costs apart.
  // BENCH_SAMPLER / BENCH_SAMPLER_ARG: another OTEL_TRACES_SAMPLER than always_on (every span exported).
  // OTEL_BSP_* in this process's environment reach the "on" server (the batch's size and delay).
  const sampler = { OTEL_TRACES_SAMPLER: process.env.BENCH_SAMPLER ?? 'always_on', ...(process.env.BENCH_SAMPLER_ARG === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: process.env.BENCH_SAMPLER_ARG }) }
  const otel = mode === 'on' && process.env.BENCH_TRACES !== '0' ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver, OTEL_EXPORTER_OTLP_PROTOCOL: PROTOCOL, ...sampler, ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('OTEL_BSP'))) } : {}
  const kernel = new Kernel({ cwd: dir, env: { PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'warn', AGENT_DATA_DIR: path.join(dir, 'data'), OPENAI_API_KEY: 'sk-bench', DEFAULT_MODEL: 'gpt-4o-mini', ...otel }, watch: false })
  if (mode === 'off' && process.env.BENCH_BASELINE_ALS === '1') {
    // Once any store is entered, Node 20 runs an async hook on every promise and async resource of the process.
    const { AsyncLocalStorage } = await import('node:async_hooks')
    new AsyncLocalStorage().enterWith({})
  }
  const addr = await kernel.start()
  answerCpuQueries()
  process.stdout.write(`${JSON.stringify({ port: addr.port })}\n`)
  process.on('SIGTERM', () => { void kernel.close().then(() => { rmSync(dir, { recursive: true, force: true }); process.exit(0) }) })
}

/** Reads a protobuf message's fields: [field number, wire type, value or bytes]. */
function* protoFields (buf: Buffer): Generator<[number, number, Buffer | number]> {
  let i = 0
  const varint = (): number => { let v = 0; let shift = 0; let b: number; do { b = buf[i++]; v += (b & 0x7f) * 2 ** shift; shift += 7 } while (b >= 0x80); return v }
  while (i < buf.length) {
    const key = varint()
    const wire = key & 7
    if (wire === 0) yield [key >>> 3, wire, varint()]
    else if (wire === 1) { i += 8; yield [key >>> 3, wire, 0] } else if (wire === 5) { i += 4; yield [key >>> 3, wire, 0] } else if (wire === 2) { const n = varint(); yield [key >>> 3, wire, buf.subarray(i, i + n)]; i += n } else throw new Error(`protobuf wire type ${wire}`)
  }
}

/** Spans in an ExportTraceServiceRequest (resource_spans = 1, scope_spans = 2, spans = 2), read by field number. */
function protobufSpans (body: Buffer): number {
  let n = 0
  const nested = (b: Buffer, field: number): Buffer[] => [...protoFields(b)].filter(([f, w]) => f === field && w === 2).map(([, , v]) => v as Buffer)
  for (const rs of nested(body, 1)) for (const ss of nested(rs, 2)) n += nested(ss, 2).length
  return n
}

/** A collector stand-in that takes OTLP over HTTP, JSON or protobuf, and counts the spans (it must not be the bottleneck: it reads nothing else). */
async function startReceiver (): Promise<{ url: string, spans: () => number, close: () => void }> {
  let spans = 0
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => { chunks.push(c) })
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      spans += (req.headers['content-type'] ?? '').includes('json') ? body.toString().split('"spanId"').length - 1 : protobufSpans(body)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans: () => spans, close: () => { server.closeAllConnections(); server.close() } }
}

async function start (mode: string, upstream: string, receiver: string): Promise<{ child: ChildProcess, port: number }> {
  return await startPinned(self, [mode, upstream, receiver])
}

interface Round { rps: number, cpuUsPerRequest: number, requests: number }

async function round (server: { child: ChildProcess, port: number }): Promise<Round> {
  const cpu0 = await serverCpuUs(server.child)
  const r = await autocannon({
    url: `http://127.0.0.1:${server.port}/api/agent/chat`, method: 'POST', connections: 20, duration: DURATION,
    headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'hello', use_memory: false }),
  })
  const cpu1 = await serverCpuUs(server.child)
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`)
  return { rps: r.requests.average, cpuUsPerRequest: (cpu1 - cpu0) / r.requests.total, requests: r.requests.total }
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] }

async function main (): Promise<void> {
  pinSelf()
  const { FakeOpenAI } = await import('../test/fakes/openai-upstream.ts')
  const fake = await new FakeOpenAI({ models: ['gpt-4o-mini'], fallback: () => ({ text: 'Hello there, how are you today?', usage: { prompt_tokens: 12, completion_tokens: 8 } }) }).start()
  const receiver = await startReceiver()
  // Two servers a side (BENCH_INSTANCES): two processes of the same build differ by up to
  // ~5-10% on this kind of host (JIT and memory layout), so one pair can land either way.
  const ons: Array<{ child: ChildProcess, port: number }> = []
  const offs: Array<{ child: ChildProcess, port: number }> = []
  for (let k = 0; k < INSTANCES; k++) {
    ons.push(await start(process.env.BENCH_AA === '1' ? 'serve-off' : 'serve-on', fake.url, receiver.url))
    offs.push(await start('serve-off', fake.url, receiver.url))
  }
  try {
    // Warm-up until the JIT has settled, round-robin so that no server sits idle for long:
    // with one 2 s round the "on" server was still optimising through the first measured pairs
    // (docs/benchmarks.md: TurboFan ~400 us a request against ~150 for "off" there).
    for (let w = 0; w < WARMUP_ROUNDS; w++) for (let k = 0; k < INSTANCES; k++) { await round(ons[k]); await round(offs[k]); fake.requests.length = 0 }
    const pairs: Array<{ on: Round, off: Round }> = []
    for (let i = 0; i < ROUNDS; i++) {
      const on = ons[i % INSTANCES]; const off = offs[i % INSTANCES]
      if (Math.floor(i / INSTANCES) % 2 === 0) { const a = await round(on); pairs.push({ on: a, off: await round(off) }) } else { const b = await round(off); pairs.push({ off: b, on: await round(on) }) }
      fake.requests.length = 0 // the fake keeps every request; nobody reads them here
    }
    const rps = median(pairs.map(p => p.on.rps / p.off.rps))
    const cpu = median(pairs.map(p => p.off.cpuUsPerRequest / p.on.cpuUsPerRequest))
    console.log(`POST /api/agent/chat: telemetry on ${median(pairs.map(p => p.on.rps)).toFixed(0)} req/s, off ${median(pairs.map(p => p.off.rps)).toFixed(0)} req/s; throughput ratio ${rps.toFixed(3)} (pairs ${pairs.map(p => (p.on.rps / p.off.rps).toFixed(2)).join(' ')})`)
    console.log(`server CPU per request: on ${median(pairs.map(p => p.on.cpuUsPerRequest)).toFixed(0)} us, off ${median(pairs.map(p => p.off.cpuUsPerRequest)).toFixed(0)} us; capacity ratio (off CPU / on) ${cpu.toFixed(3)}`)
    const total = (k: 'on' | 'off'): number => pairs.reduce((n, p) => n + p[k].requests, 0)
    console.log(`requests in the measured rounds: on ${total('on')}, off ${total('off')} (a CPU profile's per-request figures: BENCH_CPU_PROF=<dir>)`)
    console.log(`spans received by the OTLP receiver: ${receiver.spans()} (traces ${process.env.BENCH_TRACES === '0' ? 'off' : `on, ${PROTOCOL}, sampler ${process.env.BENCH_SAMPLER ?? 'always_on'}${process.env.BENCH_SAMPLER_ARG === undefined ? '' : ` ${process.env.BENCH_SAMPLER_ARG}`}`}${process.env.BENCH_BASELINE_ALS === '1' ? '; the baseline with an AsyncLocalStorage entered' : ''})`)
    if (receiver.spans() === 0 && process.env.BENCH_TRACES !== '0' && process.env.BENCH_AA !== '1') throw new Error('no span reached the receiver: the "on" server did not export')
    console.log(`TARGET chat throughput ratio (telemetry on / off) >= ${TARGET}: ${rps >= TARGET ? 'met' : 'NOT met'} (${rps.toFixed(3)})`)
    console.log(`TARGET chat capacity ratio (telemetry on / off) >= ${TARGET}: ${cpu >= TARGET ? 'met' : 'NOT met'} (${cpu.toFixed(3)})`)
  } finally {
    for (const s of [...ons, ...offs]) s.child.kill('SIGTERM')
    receiver.close()
    await fake.close()
  }
}

const mode = process.argv[2]
if (mode === 'serve-on' || mode === 'serve-off') await serve(mode === 'serve-on' ? 'on' : 'off', process.argv[3], process.argv[4])
else await main()
