// GET /api/config and POST /api/config/update on a real kernel: secrets redacted, nested
// and dotted updates, unknown keys refused, atomic writes under concurrency, and a new key
// reaching the provider on the next request without a restart.
import t from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import path from 'node:path'
import { startKernel } from '../../test/helpers/kernel.ts'
import { providersWithConfigApi, repoPlugin, Workspace } from '../../test/helpers/workspace.ts'
import { startFakeOpenAI } from '../../test/fakes/openai-upstream.ts'

const plugins = providersWithConfigApi()
const ENV_KEY = 'sk-env-key-1111111111111111'
const FILE_KEY = 'sk-file-key-2222222222222222'

const readConfig = (ws: Workspace): Record<string, any> => JSON.parse(readFileSync(path.join(ws.dataDir, 'config.json'), 'utf8')) // eslint-disable-line @typescript-eslint/no-explicit-any

t.test('GET /api/config shows settings in effect and never a key', async t => {
  const s = await startKernel(t, { plugins, env: { OPENAI_API_KEY: ENV_KEY }, config: { providers: { local: { api_key: FILE_KEY, timeout: 300 } } } })
  const res = await s.get('/api/config')
  const text = await res.text()
  t.equal(res.status, 200)
  t.notMatch(text, ENV_KEY)
  t.notMatch(text, FILE_KEY)
  const body = JSON.parse(text)
  t.same(body.providers.openai.api_key, { set: true, source: 'env' })
  t.same(body.providers.local.api_key, { set: true, source: 'config' })
  t.equal(body.providers.local.timeout, 300)
  t.equal(body.providers.local.base_url, 'http://localhost:11434/v1')
  t.equal(body.llm_settings.default_temperature, 0.7)
  t.equal(body.preferences.default_model, 'llama3.2')
})

t.test('nested update: a new key takes effect on the next request, without a restart', async t => {
  const fake = await startFakeOpenAI(t, { apiKey: FILE_KEY })
  const s = await startKernel(t, { plugins, env: { OPENAI_API_KEY: ENV_KEY, OPENAI_BASE_URL: fake.url } })
  const before = await s.json('/api/providers/health')
  t.equal(before.body.providers.openai.status, 'unhealthy')
  t.match(before.body.providers.openai.error, /OPENAI_API_KEY or providers\.openai\.api_key/)
  const res = await s.post('/api/config/update', { providers: { openai: { api_key: FILE_KEY } } })
  const body = await res.json() as { status: string, updated: string[], message: string }
  t.equal(res.status, 200)
  t.same(body.updated, ['providers.openai.api_key'])
  t.equal(body.status, 'ok')
  t.notMatch(JSON.stringify(body), FILE_KEY)
  const after = await s.json('/api/providers/health')
  t.equal(after.body.providers.openai.status, 'healthy', 'the very next request uses the new key')
  t.equal(readConfig(s.ws).providers.openai.api_key, FILE_KEY)
})

t.test('dot form {key, value} updates one setting', async t => {
  const s = await startKernel(t, { plugins })
  const res = await s.post('/api/config/update', { key: 'llm_settings.default_temperature', value: 0.2 })
  t.equal(res.status, 200)
  t.same((await res.json() as { updated: string[] }).updated, ['llm_settings.default_temperature'])
  t.equal(readConfig(s.ws).llm_settings.default_temperature, 0.2)
  t.equal((await s.json('/api/config')).body.llm_settings.default_temperature, 0.2)
})

t.test('unknown keys are a 400 that lists the accepted keys; nothing is written', async t => {
  const s = await startKernel(t, { plugins, config: { preferences: { default_model: 'qwen3' } } })
  for (const bad of [{ preferences: { default_modle: 'x' } }, { key: 'providers.nope.api_key', value: 'x' }, { providers: { openai: { api_keys: 'x' } } }, { something: 1 }]) {
    const res = await s.post('/api/config/update', bad)
    const body = await res.json() as { error: string, code: string }
    t.equal(res.status, 400, JSON.stringify(bad))
    t.match(body.error, /Accepted keys: providers\.\{openai,local\}\.\{api_key,base_url,timeout\}/)
  }
  t.same(readConfig(s.ws), { preferences: { default_model: 'qwen3' } })
})

t.test('a value of the wrong type is a 400 with the path; nothing is written', async t => {
  const s = await startKernel(t, { plugins })
  const res = await s.post('/api/config/update', { llm_settings: { default_temperature: 'hot' } })
  const body = await res.json() as { details: Array<{ path: string }> }
  t.equal(res.status, 400)
  t.match(body.details[0].path, /llm_settings\.default_temperature/)
  const empty = await s.post('/api/config/update', {})
  t.equal(empty.status, 400)
})

// Reads data/config.json in a tight loop on its own thread and reports what it saw. Each
// version is read through one descriptor, so the content belongs to the inode seen, and
// the previous descriptor stays open until the next is opened, so its inode number cannot
// be reused in between: the same inode twice in a row is the same file, which must not
// have changed.
const READER = `
const { parentPort, workerData } = require('node:worker_threads')
const fs = require('node:fs')
const { file, per } = workerData
const problems = []
let reads = 0, largest = 0, versions = 0, stop = false
let last = { fd: undefined, ino: undefined, text: undefined }
parentPort.on('message', () => { stop = true })
function readOnce () {
  let fd
  try { fd = fs.openSync(file, 'r') } catch (err) { if (err.code !== 'ENOENT') problems.push(err.message); return }
  const ino = fs.fstatSync(fd).ino
  const text = fs.readFileSync(fd, 'utf8')
  reads++
  largest = Math.max(largest, text.length)
  if (ino === last.ino && text !== last.text) problems.push('inode ' + ino + ' changed content in place')
  if (ino !== last.ino) versions++
  if (last.fd !== undefined) fs.closeSync(last.fd)
  last = { fd, ino, text }
  let parsed
  try { parsed = JSON.parse(text) } catch (err) { problems.push('torn read (' + text.length + ' bytes): ' + err.message); return }
  const counts = new Map()
  for (const k of Object.keys((parsed.models && parsed.models.overrides) || {})) { const g = k.split('-')[1]; counts.set(g, (counts.get(g) || 0) + 1) }
  for (const [g, n] of counts) if (n !== per) problems.push('update ' + g + ' half applied: ' + n + ' of ' + per + ' entries')
}
function loop () {
  const until = Date.now() + 50
  while (Date.now() < until) readOnce()
  if (!stop) { setImmediate(loop); return }
  readOnce()
  if (last.fd !== undefined) fs.closeSync(last.fd)
  parentPort.postMessage({ problems, reads, largest, versions })
}
loop()
`

t.test('concurrent updates never leave a torn data/config.json and none is lost', async t => {
  // Each update adds 1200 overrides, so the file grows past 512 KiB, the most Node writes in
  // one call: written in place it would take several writes, and the reader would catch it
  // empty, half-written or changing under one inode. Replaced by rename, every version it
  // opens is whole and never changes.
  // Each update rebuilds the generation; a queued request must outlive the retired ones' drain timeout.
  const s = await startKernel(t, { plugins, watch: false, env: { AGENT_DRAIN_TIMEOUT_MS: '120000' } })
  const UPDATES = 10
  const PER = 1200
  const group = (i: number): Record<string, { context_window: number }> =>
    Object.fromEntries(Array.from({ length: PER }, (_, j) => [`m-${i}-${j}`, { context_window: 1000 + j }]))
  const reader = new Worker(READER, { eval: true, workerData: { file: path.join(s.ws.dataDir, 'config.json'), per: PER } })
  t.teardown(async () => { await reader.terminate() })
  const results = await Promise.all(Array.from({ length: UPDATES }, async (_, i) =>
    await s.post('/api/config/update', { models: { overrides: group(i) } })))
  const report = new Promise<{ problems: string[], reads: number, largest: number, versions: number }>(resolve => reader.once('message', resolve))
  reader.postMessage('stop')
  const seen = await report
  t.same(results.map(r => r.status), Array(UPDATES).fill(200))
  t.same(seen.problems, [], `no torn, half-applied or in-place version in ${seen.reads} reads of ${seen.versions} versions`)
  t.ok(seen.largest > 512 * 1024, `the file grew past 512 KiB (${seen.largest} bytes), so an in-place write would have taken several calls`)
  t.ok(seen.versions > 1, 'the reader saw the file replaced')
  const overrides = readConfig(s.ws).models.overrides
  t.equal(Object.keys(overrides).length, UPDATES * PER, 'every update is in the file')
})

t.test('no log line ever carries the key', async t => {
  const fake = await startFakeOpenAI(t, { apiKey: 'sk-something-else-0000' })
  const s = await startKernel(t, {
    plugins: [...plugins, { name: 'stream-route', module: path.join(repoPlugin('providers-api'), 'fixtures', 'stream-route') }],
    env: { OPENAI_API_KEY: ENV_KEY, OPENAI_BASE_URL: fake.url },
    watch: false,
    logLevel: 'trace',
  })
  const { url, logRaw: lines } = s
  await fetch(`${url}/api/providers/health`)
  const denied = await fetch(`${url}/api/test/provider-complete?model=openai/gpt-4o`)
  t.equal(denied.status, 502, 'a bad key is a 502 (and the error handler logs it)')
  t.notMatch(await denied.text(), ENV_KEY)
  fake.apiKey = FILE_KEY
  fake.enqueue({ status: 429, headers: { 'retry-after': '0' } }, { text: 'ok' })
  await fetch(`${url}/api/config/update`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ providers: { openai: { api_key: FILE_KEY } } }) })
  const ok = await fetch(`${url}/api/test/provider-complete?model=openai/gpt-4o`)
  t.equal(ok.status, 200, 'the retried call succeeds with the new key (the retry is logged)')
  await fetch(`${url}/api/config`)
  t.ok(lines.some(l => l.includes('retrying')) && lines.some(l => l.includes('AGENT_ERR_PROVIDER_AUTH')), 'the failure and the retry were logged')
  t.ok(lines.length > 3, `${lines.length} log lines`)
  t.notOk(lines.some(l => l.includes(ENV_KEY) || l.includes(FILE_KEY)), 'no key in any log line')
})

t.test('a dotted override of a model whose name has dots reaches the catalogue', async t => {
  const s = await startKernel(t, { plugins, watch: false })
  const res = await s.post('/api/config/update', { key: 'models.overrides.gpt-4.1.context_window', value: 5000 })
  t.equal(res.status, 200)
  t.same(readConfig(s.ws).models.overrides, { 'gpt-4.1': { context_window: 5000 } })
  const { body } = await s.json('/api/providers/models?provider=openai')
  t.equal(body.models.find((m: { name: string }) => m.name === 'gpt-4.1').context_window, 5000)
  t.equal(body.models.find((m: { name: string }) => m.name === 'gpt-4.1').supports_tools, true, 'other figures stay')
})

t.test('a default_reasoning_strategy that is not registered is a 400 listing the registered ones; nothing is written', async t => {
  const s = await startKernel(t, { plugins: [...plugins, { name: 'cot', module: repoPlugin('strategy-cot') }], config: { preferences: { default_model: 'qwen3' } } })
  const bad = await s.post('/api/config/update', { key: 'preferences.default_reasoning_strategy', value: 'astrology' })
  t.equal(bad.status, 400)
  t.match((await bad.json() as { error: string }).error, /"astrology" is not a registered strategy; use one of: auto, cot\./)
  t.same(readConfig(s.ws), { preferences: { default_model: 'qwen3' } })
  const ok = await s.post('/api/config/update', { preferences: { default_reasoning_strategy: 'cot' } })
  t.equal(ok.status, 200)
  t.equal(readConfig(s.ws).preferences.default_reasoning_strategy, 'cot')
})

t.test('an update on top of an invalid data/config.json is a 409 naming the file and the problem; nothing is written', async t => {
  const s = await startKernel(t, { plugins, watch: false, config: { providers: { local: { api_key: FILE_KEY } } } })
  const file = path.join(s.ws.dataDir, 'config.json')
  for (const [broken, problem] of [
    ['{ "providers": { "local": { "api_key": "' + FILE_KEY + '" } }, ', /is not valid JSON/],
    ['{ "providers": { "local": { "api_key": ' + FILE_KEY + ' } } }', /is not valid JSON \(Unexpected token/],
    [JSON.stringify({ providers: { local: { api_key: FILE_KEY } }, llm_settings: { default_temperature: 'hot' } }), /is invalid: .*llm_settings/],
  ] as const) {
    writeFileSync(file, broken)
    const res = await s.post('/api/config/update', { preferences: { default_model: 'qwen3' } })
    const body = await res.json() as { error: string, code: string, statusCode: number }
    t.equal(res.status, 409, String(problem))
    t.equal(body.code, 'AGENT_ERR_CONFLICT')
    t.equal(body.statusCode, 409)
    t.ok(body.error.includes(file), `the message names ${file}`)
    t.match(body.error, problem)
    t.match(body.error, /nothing was written/)
    t.notMatch(body.error, FILE_KEY.slice(0, 8), 'not even the part of the key V8 quotes')
    t.equal(readFileSync(file, 'utf8'), broken, 'the file (and the key in it) is left as it was')
  }
})
