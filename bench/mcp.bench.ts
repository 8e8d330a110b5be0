// Tool-call round trip through the agent's tool layer vs the SDK directly, same run.
//   direct: an @modelcontextprotocol/sdk Client calling server-everything's `echo` over stdio;
//   ours:   the MCP tool source (name resolution, per-call time limit, content conversion,
//           redaction) calling `echo` on its own server-everything child, built the way the
//           plugin builds it (McpManager from an mcp_servers.json);
//   chat:   the same source through the chat's tool layer (the tools kit's collectToolSet: the tool
//           set the chat loop calls, with its per-call AbortSignal time limit), i.e. the
//           whole path a model's tool call takes minus the model.
// Both children are started alike (stderr piped and read, tools listed once after connect).
// Sequential calls interleaved one by one (the order rotating each round) after a warm-up,
// so load from other processes on the machine hits all alike. Target: >= 0.9 of direct,
// for both series; a miss sets exit code 1 (so `npm run bench` reports it).
// BENCH_MCP_CALLS / BENCH_MCP_WARMUP shrink a run (a smoke test).
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
import { collectToolSet } from '@agentd/sdk/kits/tools'

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 3000)
const WARMUP = Number(process.env.BENCH_MCP_WARMUP ?? 200)
const TARGET = 0.9
const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.bin', 'mcp-server-everything')

const dir = mkdtempSync(path.join(tmpdir(), 'agentd-mcp-bench-'))
const file = path.join(dir, 'mcp_servers.json')
writeFileSync(file, JSON.stringify({ servers: { everything: { command: BIN, args: ['stdio'] } } }))

const direct = new Client({ name: 'bench-direct', version: '1' })
const directTransport = new StdioClientTransport({ command: BIN, args: ['stdio'], env: getDefaultEnvironment(), stderr: 'pipe' })
directTransport.stderr?.on('data', () => undefined)
await direct.connect(directTransport)
await direct.listTools()

/** A manager with its own server-everything child, so each series has a child of its own (equally warm). */
async function startManager (): Promise<McpManager> {
  const m = new McpManager({
    file, shownFile: 'mcp_servers.json', env: { PATH: process.env.PATH }, log: pino({ level: 'silent' }) as unknown as FastifyBaseLogger, clientVersion: 'bench', debounceMs: 50,
    options: { call_timeout_seconds: 60, reconnect_initial_ms: 500, reconnect_max_ms: 30_000, ping_interval_seconds: 30 },
    oauth: { dir: path.join(path.dirname(file), 'mcp-oauth'), publicUrl: undefined },
  })
  await m.reload('bench')
  await m.get('everything')?.connect()
  if (m.get('everything')?.status !== 'connected') throw new Error(`our connection failed: ${m.get('everything')?.error ?? 'unknown'}`)
  return m
}
const manager = await startManager()
const source = createMcpSource('mcp', manager)
const chatManager = await startManager()
const toolSet = await collectToolSet([['mcp', createMcpSource('mcp', chatManager)]], {})

async function viaDirect (i: number): Promise<void> {
  const r = await direct.callTool({ name: 'echo', arguments: { message: `m${i}` } })
  if ((r.content as Array<{ text?: string }>)[0]?.text !== `Echo: m${i}`) throw new Error('direct: wrong answer')
}
async function viaOurs (i: number): Promise<void> {
  const r = await source.callTool('echo', { message: `m${i}` })
  if (r.isError || r.content !== `Echo: m${i}`) throw new Error(`ours: wrong answer ${r.content}`)
}

async function viaChat (i: number): Promise<void> {
  const r = await toolSet.call({ id: `c${i}`, name: 'echo', arguments: { message: `m${i}` } }, { timeoutMs: 30_000 })
  if (r.isError || r.content !== `Echo: m${i}`) throw new Error(`chat: wrong answer ${r.content}`)
}

async function timed (fn: (i: number) => Promise<void>, i: number): Promise<number> {
  const t0 = performance.now()
  await fn(i)
  return performance.now() - t0
}

for (let i = 0; i < WARMUP; i++) { await viaDirect(i); await viaOurs(i); await viaChat(i) }
const samples = { direct: [] as number[], ours: [] as number[], chat: [] as number[] }
const series = [['direct', viaDirect], ['ours', viaOurs], ['chat', viaChat]] as const
for (let i = 0; i < CALLS; i++) {
  for (let k = 0; k < series.length; k++) {
    const [name, fn] = series[(i + k) % series.length]
    samples[name].push(await timed(fn, i))
  }
}
const sum = (a: number[]): number => a.reduce((x, y) => x + y, 0)
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]
const time = { direct: sum(samples.direct), ours: sum(samples.ours), chat: sum(samples.chat) }
const n = CALLS
const rate = { direct: n / (time.direct / 1000), ours: n / (time.ours / 1000), chat: n / (time.chat / 1000) }
const ratio = rate.ours / rate.direct
const chatRatio = rate.chat / rate.direct
console.log(`mcp tool-call round trip (server-everything echo over stdio, ${n} sequential calls each, interleaved)`)
console.log(`  direct SDK client : ${rate.direct.toFixed(0)} calls/s  (mean ${(time.direct / n * 1000).toFixed(1)} µs, median ${(median(samples.direct) * 1000).toFixed(1)} µs per call)`)
console.log(`  agentd tool layer : ${rate.ours.toFixed(0)} calls/s  (mean ${(time.ours / n * 1000).toFixed(1)} µs, median ${(median(samples.ours) * 1000).toFixed(1)} µs per call)`)
console.log(`  chat tool layer   : ${rate.chat.toFixed(0)} calls/s  (mean ${(time.chat / n * 1000).toFixed(1)} µs, median ${(median(samples.chat) * 1000).toFixed(1)} µs per call)`)
console.log(`  median ratio      : ${(median(samples.direct) / median(samples.ours)).toFixed(3)} (source), ${(median(samples.direct) / median(samples.chat)).toFixed(3)} (chat layer)`)
console.log(`  ratio ours/direct : ${ratio.toFixed(3)}  (target >= ${TARGET}: ${ratio >= TARGET ? 'met' : 'NOT met'})`)
console.log(`  ratio chat/direct : ${chatRatio.toFixed(3)}  (target >= ${TARGET}: ${chatRatio >= TARGET ? 'met' : 'NOT met'})`)
if (ratio < TARGET || chatRatio < TARGET) process.exitCode = 1

await direct.close()
await manager.close()
await chatManager.close()
rmSync(dir, { recursive: true, force: true })
