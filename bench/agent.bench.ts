// Agent-mode overhead: the time /api/agent/run adds around model calls. Against the
// scripted fake upstream (loopback, instant replies), compare
//   baseline: one chat completion sent straight to the fake with the openai SDK;
//   cot:      POST /api/agent/run, planning off, cot (exactly one model call);
//   tot:      POST /api/agent/run, planning off, tot k=3 depth=3 (13 model calls),
// measured in the same run. Prints per-run and per-model-call latency and the ratios.
import OpenAI from 'openai'
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FakeOpenAI } from '../test/fakes/openai-upstream.ts'
import { Kernel } from '../core/kernel.ts'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const N = Number(process.env.BENCH_RUNS ?? 200)
const plugin = (name: string): string => path.join(REPO, 'plugins', name)

const fake = await new FakeOpenAI({ models: ['m1'] }).start()
fake.fallback = (req) => {
  const last = String(req.body?.messages?.at(-1)?.content ?? '')
  if (last.includes('Propose ')) return { text: '["a", "b", "c"]' }
  if (last.startsWith('Rate how likely')) return { text: '7' }
  return { text: '<think>1. think</think>answer' }
}
const dir = mkdtempSync(path.join(tmpdir(), 'agentd-bench-agent-'))
mkdirSync(path.join(dir, 'data'))
writeFileSync(path.join(dir, 'plugins.json'), JSON.stringify({ plugins: [
  { name: 'fake', module: plugin('provider-openai-compatible'), options: { base_url: fake.url, list_models: 'server', max_retries: 0 } },
  { name: 'providers-api', module: plugin('providers-api') },
  { name: 'cot', module: plugin('strategy-cot') },
  { name: 'tot', module: plugin('strategy-tot') },
  { name: 'agent', module: plugin('agent'), options: { default_model: 'fake/m1', enable_planning: false, enable_memory: false } },
] }))
const kernel = new Kernel({ cwd: dir, env: { PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'warn', AGENT_DATA_DIR: path.join(dir, 'data') }, watch: false })
const { port } = await kernel.start()
const url = `http://127.0.0.1:${port}/api/agent/run`
const client = new OpenAI({ baseURL: fake.url, apiKey: 'x', maxRetries: 0 })

async function time (label: string, runs: number, fn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn() // warm-up
  const t0 = performance.now()
  for (let i = 0; i < runs; i++) await fn()
  const ms = (performance.now() - t0) / runs
  console.log(`${label.padEnd(34)} ${ms.toFixed(3)} ms/run`)
  return ms
}
const run = async (strategy: string): Promise<void> => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task: 'Why is the sky blue?', reasoning_strategy: strategy }) })
  const body = await res.json() as { status: string }
  if (body.status !== 'complete') throw new Error(`run ended ${body.status}`)
}

const base = await time('baseline: direct SDK completion', N, async () => { await client.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] }) })
const cot = await time('agent run, cot (1 model call)', N, async () => { await run('cot') })
const tot = await time('agent run, tot (13 model calls)', Math.ceil(N / 10), async () => { await run('tot') })
console.log(`ratio cot run / direct call:         ${(cot / base).toFixed(2)}x (agent overhead per run ${(cot - base).toFixed(3)} ms)`)
console.log(`ratio tot per model call / direct:   ${(tot / 13 / base).toFixed(2)}x`)

await kernel.close()
await fake.close()
rmSync(dir, { recursive: true, force: true })
