// Provider-layer overhead on a streamed completion. Against the same fake OpenAI-compatible
// upstream (loopback), in the same run, alternating A/B rounds:
//   raw:  the `openai` SDK's chat.completions.create({stream: true}) read directly;
//   ours: provider.stream() of provider-openai-compatible (deadline, retry wrapper,
//         delta assembly, usage), built the way the plugin builds it.
// Figures: time to first token (median, p90) on short replies, and tokens/s (one delta is
// one token here) on long replies. Targets: < 2 ms added to first token, >= 0.95 of raw tokens/s.
import OpenAI from 'openai'
import pino from 'pino'
import type { FastifyBaseLogger } from 'fastify'
import { FakeOpenAI } from '../test/fakes/openai-upstream.ts'
import { ConfigView, readSettings } from '../core/config.ts'
import { buildProvider } from '../plugins/provider-openai-compatible/index.ts'

const TTFT_RUNS = Number(process.env.BENCH_TTFT_RUNS ?? 300)
const TPS_RUNS = Number(process.env.BENCH_TPS_RUNS ?? 40)
const LONG_TOKENS = 2000

const fake = await new FakeOpenAI({ models: ['m1'] }).start()
const env = Object.freeze({ PATH: process.env.PATH })
const config = new ConfigView(env, readSettings(env, process.cwd()), {})
const provider = buildProvider(config, { instance: 'bench', base_url: fake.url, max_retries: 0, stream_usage: true }, pino({ level: 'silent' }) as unknown as FastifyBaseLogger)
const raw = new OpenAI({ baseURL: fake.url, apiKey: 'not-needed', maxRetries: 0 })

const shortReply = { text: 'Hello there, how are you today?', chunkSize: 4 }
const longReply = { text: 'abcd'.repeat(LONG_TOKENS), chunkSize: 4 }
const messages = [{ role: 'user' as const, content: 'hi' }]

interface Run { ttft: number, total: number, tokens: number }

async function viaRaw (): Promise<Run> {
  const t0 = performance.now()
  let ttft = -1
  let tokens = 0
  const stream = await raw.chat.completions.create({ model: 'm1', messages, stream: true, stream_options: { include_usage: true } })
  for await (const c of stream) {
    const content = c.choices[0]?.delta?.content
    if (content !== undefined && content !== null && content !== '') { if (ttft < 0) ttft = performance.now() - t0; tokens++ }
  }
  return { ttft, total: performance.now() - t0, tokens }
}

async function viaOurs (): Promise<Run> {
  const t0 = performance.now()
  let ttft = -1
  let tokens = 0
  for await (const c of provider.stream({ model: 'm1', messages })) {
    if (c.content !== '') { if (ttft < 0) ttft = performance.now() - t0; tokens++ }
  }
  return { ttft, total: performance.now() - t0, tokens }
}

const pct = (xs: number[], p: number): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] }

async function rounds (reply: object, runs: number): Promise<{ raw: Run[], ours: Run[] }> {
  fake.fallback = () => ({ ...reply })
  for (let i = 0; i < 20; i++) { await viaRaw(); await viaOurs() } // warm-up: JIT, keep-alive sockets
  const out = { raw: [] as Run[], ours: [] as Run[] }
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first so drift (GC, timers) hits both alike.
    if (i % 2 === 0) { out.raw.push(await viaRaw()); out.ours.push(await viaOurs()) } else { out.ours.push(await viaOurs()); out.raw.push(await viaRaw()) }
  }
  return out
}

const started = performance.now()
const short = await rounds(shortReply, TTFT_RUNS)
const rawTtft = short.raw.map(r => r.ttft)
const oursTtft = short.ours.map(r => r.ttft)
console.log(`time to first token, ${TTFT_RUNS} short streams each`)
console.log(`  raw SDK        median ${pct(rawTtft, 0.5).toFixed(3)} ms   p90 ${pct(rawTtft, 0.9).toFixed(3)} ms`)
console.log(`  our provider   median ${pct(oursTtft, 0.5).toFixed(3)} ms   p90 ${pct(oursTtft, 0.9).toFixed(3)} ms`)
const added = pct(oursTtft, 0.5) - pct(rawTtft, 0.5)
console.log(`  added to first token: ${added.toFixed(3)} ms (target < 2 ms) ${added < 2 ? 'OK' : 'MISSED'}`)

const long = await rounds(longReply, TPS_RUNS)
const tps = (runs: Run[]): number => runs.reduce((a, r) => a + r.tokens, 0) / (runs.reduce((a, r) => a + r.total, 0) / 1000)
if (long.ours.some(r => r.tokens !== LONG_TOKENS) || long.raw.some(r => r.tokens !== LONG_TOKENS)) throw new Error('a long stream lost tokens')
const rawTps = tps(long.raw)
const oursTps = tps(long.ours)
// The machine is shared, so load comes in bursts: compare each adjacent raw/ours pair and
// take the median of those ratios, which a burst during one pair cannot move.
const pairRatios = long.raw.map((r, i) => (LONG_TOKENS / long.ours[i].total) / (LONG_TOKENS / r.total))
console.log(`tokens/s, ${TPS_RUNS} streams of ${LONG_TOKENS} deltas each`)
console.log(`  raw SDK        ${rawTps.toFixed(0)} tokens/s (all runs)   median run ${(LONG_TOKENS / (pct(long.raw.map(r => r.total), 0.5) / 1000)).toFixed(0)}`)
console.log(`  our provider   ${oursTps.toFixed(0)} tokens/s (all runs)   median run ${(LONG_TOKENS / (pct(long.ours.map(r => r.total), 0.5) / 1000)).toFixed(0)}`)
const ratio = pct(pairRatios, 0.5)
console.log(`  ratio ours/raw: ${ratio.toFixed(3)} median of paired runs, ${(oursTps / rawTps).toFixed(3)} over all runs (target >= 0.95) ${ratio >= 0.95 ? 'OK' : 'MISSED'}`)
console.log(`bench took ${((performance.now() - started) / 1000).toFixed(1)} s`)
await fake.close()
