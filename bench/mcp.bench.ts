// Tool-call round trip through the agent's tool layer vs the SDK directly, same run.
//   direct: an @modelcontextprotocol/sdk Client calling server-everything's `echo` over stdio;
//   ours:   the MCP tool source (name resolution, per-call time limit, content conversion,
//           redaction) calling `echo` on its own server-everything child, built the way the
//           plugin builds it (McpManager from an mcp_servers.json).
// Both children are started alike (stderr piped and read, tools listed once after connect).
// Sequential calls interleaved one by one (A then B, then B then A, ...) after a warm-up, so
// load from other processes on the machine hits both alike. Target: ours >= 0.9 of direct.
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import type { FastifyBaseLogger } from 'fastify'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { McpManager } from '../plugins/mcp/manager.ts'
import { createMcpSource } from '../plugins/mcp/source.ts'

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 3000)
const WARMUP = 200
const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.bin', 'mcp-server-everything')

const dir = mkdtempSync(path.join(tmpdir(), 'agentd-mcp-bench-'))
const file = path.join(dir, 'mcp_servers.json')
writeFileSync(file, JSON.stringify({ servers: { everything: { command: BIN, args: ['stdio'] } } }))

const direct = new Client({ name: 'bench-direct', version: '1' })
const directTransport = new StdioClientTransport({ command: BIN, args: ['stdio'], env: getDefaultEnvironment(), stderr: 'pipe' })
directTransport.stderr?.on('data', () => undefined)
await direct.connect(directTransport)
await direct.listTools()

const manager = new McpManager({
  file, env: { PATH: process.env.PATH }, log: pino({ level: 'silent' }) as unknown as FastifyBaseLogger, clientVersion: 'bench', debounceMs: 50,
  options: { call_timeout_seconds: 60, reconnect_initial_ms: 500, reconnect_max_ms: 30_000, ping_interval_seconds: 30 },
})
await manager.reload('bench')
await manager.get('everything')?.connect()
if (manager.get('everything')?.status !== 'connected') throw new Error(`our connection failed: ${manager.get('everything')?.error ?? 'unknown'}`)
const source = createMcpSource('mcp', manager)

async function viaDirect (i: number): Promise<void> {
  const r = await direct.callTool({ name: 'echo', arguments: { message: `m${i}` } })
  if ((r.content as Array<{ text?: string }>)[0]?.text !== `Echo: m${i}`) throw new Error('direct: wrong answer')
}
async function viaOurs (i: number): Promise<void> {
  const r = await source.callTool('echo', { message: `m${i}` })
  if (r.isError || r.content !== `Echo: m${i}`) throw new Error(`ours: wrong answer ${r.content}`)
}

async function timed (fn: (i: number) => Promise<void>, i: number): Promise<number> {
  const t0 = performance.now()
  await fn(i)
  return performance.now() - t0
}

for (let i = 0; i < WARMUP; i++) { await viaDirect(i); await viaOurs(i) }
const samples = { direct: [] as number[], ours: [] as number[] }
for (let i = 0; i < CALLS; i++) {
  if (i % 2 === 0) { samples.direct.push(await timed(viaDirect, i)); samples.ours.push(await timed(viaOurs, i)) } else { samples.ours.push(await timed(viaOurs, i)); samples.direct.push(await timed(viaDirect, i)) }
}
const sum = (a: number[]): number => a.reduce((x, y) => x + y, 0)
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]
const time = { direct: sum(samples.direct), ours: sum(samples.ours) }
const n = CALLS
const rate = { direct: n / (time.direct / 1000), ours: n / (time.ours / 1000) }
const ratio = rate.ours / rate.direct
console.log(`mcp tool-call round trip (server-everything echo over stdio, ${n} sequential calls each, interleaved)`)
console.log(`  direct SDK client : ${rate.direct.toFixed(0)} calls/s  (mean ${(time.direct / n * 1000).toFixed(1)} µs, median ${(median(samples.direct) * 1000).toFixed(1)} µs per call)`)
console.log(`  agentd tool layer : ${rate.ours.toFixed(0)} calls/s  (mean ${(time.ours / n * 1000).toFixed(1)} µs, median ${(median(samples.ours) * 1000).toFixed(1)} µs per call)`)
console.log(`  median ratio      : ${(median(samples.direct) / median(samples.ours)).toFixed(3)}`)
console.log(`  ratio ours/direct : ${ratio.toFixed(3)}  (target >= 0.9: ${ratio >= 0.9 ? 'met' : 'NOT met'})`)

await direct.close()
await manager.close()
rmSync(dir, { recursive: true, force: true })
