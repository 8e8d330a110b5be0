// A third-party provider shipped as an npm package (test/fixtures/third-party-provider,
// shown in docs/plugins.md): packed with `npm pack`, installed from the tarball into a
// project of its own, outside this repository, and loaded by package name from that
// project's plugins.json by a real kernel. It talks to a server with a wire format of its
// own (newline-delimited JSON, test/fakes/ndjson-upstream.ts) using only the provider kit
// from @agentd/sdk, which the project gets as agentd's installed SDK package.
import t from 'tap'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { startKernel } from '../helpers/kernel.ts'
import { REPO, Workspace, repoPlugin } from '../helpers/workspace.ts'
import { pollUntil } from '../helpers/poll.ts'
import { startFakeNdjson } from '../fakes/ndjson-upstream.ts'

const FIXTURE = path.join(REPO, 'test/fixtures/third-party-provider')
const npm = (args: string[], cwd: string): string => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

// The project: a workspace whose node_modules holds the installed package and agentd's SDK.
const ws = new Workspace('agentd-third-party-')
const packs = mkdtempSync(path.join(tmpdir(), 'agentd-pack-'))
t.teardown(() => { rmSync(packs, { recursive: true, force: true }); ws.remove() })
const [{ filename }] = JSON.parse(npm(['pack', FIXTURE, '--pack-destination', packs, '--json'], packs)) as Array<{ filename: string }>
ws.write('package.json', JSON.stringify({ name: 'my-agentd-setup', version: '1.0.0', private: true }))
// The SDK is a peer dependency: installed beside it by hand below, as agentd's own copy.
npm(['install', '--offline', '--legacy-peer-deps', '--ignore-scripts', path.join(packs, filename)], ws.dir)
mkdirSync(path.join(ws.dir, 'node_modules/@agentd'), { recursive: true })
symlinkSync(path.join(REPO, 'packages/sdk'), path.join(ws.dir, 'node_modules/@agentd/sdk'), 'dir')

const fake = await startFakeNdjson(t)
const s = await startKernel(t, {
  ws,
  plugins: [
    { name: 'ndjson', module: 'agentd-provider-ndjson', options: { url: fake.url } },
    { name: 'ndjson-quick', module: 'agentd-provider-ndjson', options: { url: fake.url, timeout: 0.3 } },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'prompts', module: repoPlugin('prompts') },
    { name: 'chat', module: repoPlugin('chat') },
  ],
})

const chat = async (model: string, message: string, stream = false): Promise<Response> =>
  await s.post(stream ? '/api/agent/chat/stream' : '/api/agent/chat', { message, model, use_memory: false })

t.test('the package is installed from its tarball, not linked to this repository, and loads by name', async t => {
  const installed = realpathSync(path.join(ws.dir, 'node_modules/agentd-provider-ndjson/index.mjs'))
  t.ok(installed.startsWith(realpathSync(ws.dir)), `installed at ${installed}`)
  t.equal(readFileSync(installed, 'utf8'), readFileSync(path.join(FIXTURE, 'index.mjs'), 'utf8'))
  const plugins = (await s.json('/api/plugins')).body.plugins as Array<{ name: string, status: string, version?: string }>
  t.match(plugins.find(p => p.name === 'ndjson'), { status: 'loaded', version: '1.0.0' })
  const providers = (await s.json('/api/providers')).body.providers as Array<{ name: string, status: string }>
  t.ok(providers.some(p => p.name === 'ndjson' && p.status === 'configured'))
  t.equal((await s.json('/api/providers/health')).body.providers.ndjson.status, 'healthy')
})

t.test('a chat is answered through it', async t => {
  const res = await chat('ndjson/line-1', 'pieces of eight')
  t.equal(res.status, 200)
  t.match(await res.json(), { answer: 'echo: pieces of eight', provider: 'ndjson' })
  t.equal(fake.requests.at(-1)?.body.model, 'line-1')
})

t.test('it streams: one chunk event per line the server sent', async t => {
  fake.enqueue({ text: 'The quick brown fox jumps', chunkSize: 3 })
  const text = await (await chat('ndjson/line-1', 'go', true)).text()
  const chunks = [...text.matchAll(/^event: chunk\ndata: (.*)$/gm)].map(m => (JSON.parse(m[1]) as { content: string }).content)
  t.ok(chunks.length >= 9, `${chunks.length} chunks`)
  t.equal(chunks.join(''), 'The quick brown fox jumps')
  t.match(text, /event: done/)
})

t.test('a client that goes away closes the request to the server', async t => {
  fake.enqueue({ text: 'z'.repeat(400), chunkSize: 1, delayMs: 10 })
  const ac = new AbortController()
  const res = await s.get('/api/agent/chat/stream', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'long', model: 'ndjson/line-1', use_memory: false }), signal: ac.signal })
  const reader = res.body!.getReader()
  for (let seen = ''; !seen.includes('event: chunk');) seen += new TextDecoder().decode((await reader.read()).value)
  const request = fake.requests.at(-1)!
  ac.abort()
  t.equal(await pollUntil(() => request.aborted, a => a), true, 'the server saw its request closed')
})

t.test('errors are mapped: 401, an unknown model, a failing server, no answer in time', async t => {
  fake.enqueue({ status: 401, error: 'bad token' }, { status: 404, error: 'model line-9 not found' }, { status: 503, error: 'warming up' }, { hang: true })
  const auth = await chat('ndjson/line-1', 'hi')
  t.match({ status: auth.status, ...await auth.json() as object }, { status: 502, code: 'AGENT_ERR_PROVIDER_AUTH' })
  const missing = await chat('ndjson/line-9', 'hi')
  t.match({ status: missing.status, ...await missing.json() as object }, { status: 404, code: 'AGENT_ERR_PROVIDER_MODEL_NOT_FOUND' })
  const failing = await chat('ndjson/line-1', 'hi')
  t.match({ status: failing.status, ...await failing.json() as object }, { status: 502, code: 'AGENT_ERR_PROVIDER_UPSTREAM', error: /HTTP 503: warming up/ })
  const slow = await chat('ndjson-quick/line-1', 'hi')
  t.match({ status: slow.status, ...await slow.json() as object }, { status: 504, code: 'AGENT_ERR_PROVIDER_TIMEOUT' })
})
