// Streaming throughput of the OpenAI-compatible API against agentd's own chat stream, in
// the same run, on the same fake upstream (loopback) and the same kernel:
//   chat: POST /api/agent/chat/stream (SSE `chunk` events);
//   v1:   POST /v1/chat/completions with stream: true (OpenAI chunks, include_usage).
// Each stream carries TOKENS content deltas from the upstream, sent as fast as it can; the
// client reads the raw body (the same reader for both) and the figure is tokens per second
// from request to the end of the stream. Rounds alternate A-B-B-A so drift hits both
// alike; the verdict is the median of the per-pair ratios v1 / chat. Target (issue 18):
// >= 0.95. Prints "met" or "NOT met"; a miss makes the exit code 1.
// Smoke run: BENCH_TOKENS=200 BENCH_PAIRS=4 BENCH_WARMUP=2.
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FakeOpenAI } from '../test/fakes/openai-upstream.ts'
import { Kernel } from '../core/kernel.ts'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TOKENS = Number(process.env.BENCH_TOKENS ?? 2000)
const PAIRS = Number(process.env.BENCH_PAIRS ?? 20)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5)
const TARGET = 0.95
const plugin = (name: string): string => path.join(REPO, 'plugins', name)

const fake = await new FakeOpenAI({ models: ['gpt-4o-mini'] }).start()
fake.fallback = () => ({ tokens: { count: TOKENS, next: (i) => `t${i % 10} ` }, usage: { prompt_tokens: 5, completion_tokens: TOKENS } })
const dir = mkdtempSync(path.join(tmpdir(), 'agentd-bench-openai-api-'))
mkdirSync(path.join(dir, 'data'))
writeFileSync(path.join(dir, 'plugins.json'), JSON.stringify({ plugins: [
  { name: 'openai', module: plugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } },
  { name: 'providers-api', module: plugin('providers-api') },
  { name: 'prompts', module: plugin('prompts') },
  { name: 'chat', module: plugin('chat') },
  { name: 'openai-api', module: plugin('openai-api') },
] }))
const kernel = new Kernel({
  cwd: dir,
  env: { PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'warn', AGENT_DATA_DIR: path.join(dir, 'data'), OPENAI_API_KEY: 'bench', DEFAULT_MODEL: 'gpt-4o-mini' },
  watch: false,
})
const { port } = await kernel.start()
const base = `http://127.0.0.1:${port}`

/** One stream: tokens per second from the request to the end of the body; throws unless every token arrived. */
async function stream (url: string, body: unknown): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  // The same reader for both: the whole body, then one count (the think parser may move a
  // token's trailing space to the next delta, so a token is `"content":"` + optional space + t<digit>).
  const text = await res.text()
  const s = (performance.now() - t0) / 1000
  const seen = text.match(/"content":" ?t\d/g)?.length ?? 0
  if (seen < TOKENS) throw new Error(`${url}: ${seen} of ${TOKENS} tokens arrived`)
  return TOKENS / s
}

const chat = async (): Promise<number> => await stream(`${base}/api/agent/chat/stream`, { message: 'go', use_memory: false })
const v1 = async (): Promise<number> => await stream(`${base}/v1/chat/completions`, { model: 'openai/gpt-4o-mini', stream: true, stream_options: { include_usage: true }, use_memory: false, messages: [{ role: 'user', content: 'go' }] })

for (let i = 0; i < WARMUP; i++) { await chat(); await v1() }
const ratios: number[] = []
const chatTps: number[] = []
const v1Tps: number[] = []
for (let i = 0; i < PAIRS; i++) {
  // A-B then B-A: the order of a pair alternates.
  let c: number
  let o: number
  if (i % 2 === 0) { c = await chat(); o = await v1() } else { o = await v1(); c = await chat() }
  chatTps.push(c)
  v1Tps.push(o)
  ratios.push(o / c)
}
const median = (xs: number[]): number => { const s = [...xs].sort((x, y) => x - y); const m = s.length >> 1; return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2 }
const ratio = median(ratios)
console.log(`tokens per stream ${TOKENS}, ${PAIRS} pairs (A-B-B-A)`)
console.log(`/api/agent/chat/stream   median ${median(chatTps).toFixed(0)} tokens/s`)
console.log(`/v1/chat/completions     median ${median(v1Tps).toFixed(0)} tokens/s`)
console.log(`ratio v1 / chat (median of pairs) ${ratio.toFixed(3)}; min ${Math.min(...ratios).toFixed(3)}, max ${Math.max(...ratios).toFixed(3)}`)
console.log(`target >= ${TARGET}: ${ratio >= TARGET ? 'met' : 'NOT met'}`)

await kernel.close()
await fake.close()
rmSync(dir, { recursive: true, force: true })
process.exit(ratio >= TARGET ? 0 : 1)
