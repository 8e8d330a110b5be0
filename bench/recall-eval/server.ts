// One agentd in this process as a user starts it (the shipped plugins.json, embedded
// defaults, a fresh data directory) with a fake OpenAI upstream on loopback as its model,
// ready (health says so, memory's embedder loaded: a model embedder answers with embed-hash
// until it has loaded, and a bench must not store half its turns with each) before it is
// returned. For the benches that send the evaluation
// set as chats: bench/chat-recall.bench.ts, bench/recall-http.bench.ts.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Kernel } from '../../core/kernel.ts'
import { FakeOpenAI, type FakeOpenAIOptions } from '../../test/fakes/openai-upstream.ts'
import { until } from '../../test/helpers/poll.ts'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

export interface BenchServer {
  base: string
  fake: FakeOpenAI
  post: (p: string, body: unknown) => Promise<Response>
  close: () => Promise<void>
}

/** `env`: more variables for the server (EMBEDDING_PROVIDER=use to run memory on another embedder). */
export async function startShipped (fallback: FakeOpenAIOptions['fallback'], env: Record<string, string> = {}): Promise<BenchServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-bench-'))
  const fake = await new FakeOpenAI({ fallback }).start()
  const kernel = new Kernel({
    cwd: REPO,
    env: {
      PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'warn', AGENT_DATA_DIR: path.join(dir, 'data'),
      AGENT_PLUGINS_FILE: path.join(REPO, 'plugins.json'), MCP_SERVERS_FILE: path.join(REPO, 'mcp_servers.json'),
      OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: fake.url, DEFAULT_MODEL: 'openai/gpt-4o-mini',
      // The embedder a bench runs on: memory's default (embed-onnx) unless EMBEDDING_PROVIDER / ONNX_EMBEDDING_MODEL say otherwise.
      ...Object.fromEntries(['EMBEDDING_PROVIDER', 'ONNX_EMBEDDING_MODEL'].flatMap(k => process.env[k] === undefined ? [] : [[k, process.env[k] as string]])),
      ...env,
    },
    watch: false,
  })
  const close = async (): Promise<void> => {
    await kernel.close()
    await fake.close()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const { port } = await kernel.start()
    const base = `http://127.0.0.1:${port}`
    await until('health ready', async () => ((await (await fetch(`${base}/api/health`)).json()) as { ready?: boolean }).ready === true, 60_000)
    const post = async (p: string, body: unknown): Promise<Response> => await fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    // A recall embeds its query: the first starts the embedder's load in the background.
    await post('/api/memory/recall', { query: 'warm up', top_k: 1 })
    const embedder = async (): Promise<{ id?: string, status?: string } | undefined> =>
      ((await (await fetch(`${base}/api/health?include_memory=true`)).json()) as { memory?: { embedder?: { id?: string, status?: string } } }).memory?.embedder
    await until('memory\'s embedder loaded', async () => { const e = await embedder(); return e === undefined || e.status === 'ready' || e.status === 'error' }, 180_000)
    const e = await embedder()
    if (e?.status === 'error') throw new Error(`memory's embedder ${e.id ?? ''} could not load: ${JSON.stringify(e)}`)
    return { base, fake, post, close }
  } catch (err) {
    await close()
    throw err
  }
}
