// Real offline behaviour, with the real loader (transformers.js) and no weights: the first
// translate request answers 503 within 10 s, naming the model that could not be fetched
// and how to provide it. With the plugin's default options: a hub that refuses
// connections, and one that accepts them and never answers (the hang a firewall gives).
// Every hub here is on loopback: no test reaches huggingface.co.
import t from 'tap'
import net from 'node:net'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startKernel, type Started } from '../../test/helpers/kernel.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'
import { refusedHub, silentHub } from '../../test/fakes/hf-hubs.ts'
import { Value } from '@agentd/sdk/typebox/value'
import { options } from './options.ts'

/** Default options: what the 10-second promise is about. */
const plugins = [
  { name: 'language-detect', module: repoPlugin('language-detect') },
  { name: 'translation', module: repoPlugin('translation') },
]

const DEFAULT_TIMEOUT_MS = (Value.Default(options, {}) as { hub_timeout_seconds: number }).hub_timeout_seconds * 1000

async function firstTranslate (s: Started): Promise<{ status: number, ms: number, body: { error: string, code: string } }> {
  const started = performance.now()
  const res = await s.post('/api/tools/translate', { text: 'Good morning, how are you?', targetLanguage: 'fra_Latn' })
  return { status: res.status, ms: performance.now() - started, body: await res.json() as { error: string, code: string } }
}

t.test('hub unreachable (connection refused), default options: 503 in under 10 s naming the model and how to provide it', async t => {
  const hub = await refusedHub()
  const s = await startKernel(t, { plugins, env: { HF_ENDPOINT: hub } })
  const r = await firstTranslate(s)
  t.equal(r.status, 503)
  t.ok(r.ms < 10_000, `answered in ${Math.round(r.ms)} ms`)
  t.equal(r.body.code, 'AGENT_ERR_TRANSLATION_UNAVAILABLE')
  t.match(r.body.error, `The translation model Xenova/nllb-200-distilled-600M could not be fetched from ${hub}`)
  t.match(r.body.error, /set TRANSLATION_MODEL_DIR/)
  t.match(r.body.error, /HF_TOKEN/)
  t.comment(r.body.error)
  const health = (await s.json('/api/health')).body
  t.match(health.translation, { status: 'error', models: { translation: 'error' } })
})

t.test('a hub that never answers, default options: 503 after the default hub timeout, in under 10 s', async t => {
  t.ok(DEFAULT_TIMEOUT_MS <= 5000, `the default hub timeout (${DEFAULT_TIMEOUT_MS} ms) leaves room under 10 s`)
  const hub = await silentHub(t)
  const s = await startKernel(t, { plugins, env: { HF_ENDPOINT: hub } })
  const r = await firstTranslate(s)
  t.equal(r.status, 503)
  t.ok(r.ms < 10_000, `answered in ${Math.round(r.ms)} ms`)
  t.match(r.body.error, new RegExp(`could not be fetched from ${hub.replace(/[/.]/g, '\\$&')}`))
  t.match(r.body.error, new RegExp(`no answer from http://127\\.0\\.0\\.1:\\d+ within ${DEFAULT_TIMEOUT_MS} ms`))
})

t.test('hub_timeout_seconds is honoured', async t => {
  const hub = await silentHub(t)
  const s = await startKernel(t, {
    plugins: [plugins[0], { ...plugins[1], options: { hub_timeout_seconds: 1 } }],
    env: { HF_ENDPOINT: hub },
  })
  const r = await firstTranslate(s)
  t.equal(r.status, 503)
  t.match(r.body.error, /no answer from http:\/\/127\.0\.0\.1:\d+ within 1000 ms/)
})

t.test('a hub that stalls half-way through a file: 503 after the hub timeout, not a load stuck in loading', async t => {
  const sockets = new Set<net.Socket>()
  const hub = http.createServer((_req, res) => {
    // Headers and the first bytes of a file, then nothing: a download that stalls.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' })
    res.write('{"model_type": "m2m_100", ')
  })
  hub.on('connection', sock => { sockets.add(sock) })
  await new Promise<void>(resolve => hub.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => { for (const s of sockets) s.destroy(); await new Promise(resolve => hub.close(resolve)) })
  const url = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/`
  const s = await startKernel(t, { plugins, env: { HF_ENDPOINT: url } })
  const r = await firstTranslate(s)
  t.equal(r.status, 503)
  t.ok(r.ms < 10_000, `answered in ${Math.round(r.ms)} ms`)
  t.equal(r.body.code, 'AGENT_ERR_TRANSLATION_UNAVAILABLE')
  t.match(r.body.error, new RegExp(`no answer from http://127\\.0\\.0\\.1:\\d+ within ${DEFAULT_TIMEOUT_MS} ms`))
  t.match((await s.json('/api/health')).body.translation, { status: 'error', models: { translation: 'error' } })
})

t.test('TRANSLATION_MODEL_DIR without the model files: 503 that says what to put there', async t => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-nllb-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const s = await startKernel(t, { plugins, env: { TRANSLATION_MODEL_DIR: dir } })
  const r = await firstTranslate(s)
  t.equal(r.status, 503)
  t.match(r.body.error, `could not be loaded from TRANSLATION_MODEL_DIR=${dir}`)
  t.match(r.body.error, /config\.json, tokenizer\.json and the onnx\/ folder/)
})

t.test('TRANSLATION_MODEL_DIR with config.json but no weights: transformers.js says which file is missing', async t => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-nllb-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ model_type: 'm2m_100', architectures: ['M2M100ForConditionalGeneration'] }))
  const s = await startKernel(t, { plugins, env: { TRANSLATION_MODEL_DIR: dir } })
  const r = await firstTranslate(s)
  t.equal(r.status, 503)
  t.ok(r.ms < 10_000, `answered in ${Math.round(r.ms)} ms`)
  t.match(r.body.error, `could not be loaded from TRANSLATION_MODEL_DIR=${dir}`)
  t.match(r.body.error, new RegExp(`not found locally at "${dir.replace(/[/.]/g, '\\$&')}/`))
  t.comment(r.body.error)
})

t.test('a relative TRANSLATION_MODEL_DIR is a folder under the server\'s working directory, not a hub model id', async t => {
  const hub = await refusedHub()
  const s = await startKernel(t, { plugins, env: { TRANSLATION_MODEL_DIR: 'models/nllb', HF_ENDPOINT: hub } })
  const dir = path.join(s.ws.dir, 'models', 'nllb')
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ model_type: 'm2m_100', architectures: ['M2M100ForConditionalGeneration'] }))
  const r = await firstTranslate(s)
  t.equal(r.status, 503)
  t.match(r.body.error, `could not be loaded from TRANSLATION_MODEL_DIR=${dir} `)
  t.match(r.body.error, `not found locally at "${dir}/`, 'transformers.js looked in that folder, not under node_modules or on the hub')
})

t.test('HF_TOKEN goes to the hub as a bearer token and never into an answer', async t => {
  const seen: Array<string | undefined> = []
  const hub = http.createServer((req, res) => {
    seen.push(req.headers.authorization)
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Invalid credentials"}')
  })
  await new Promise<void>(resolve => hub.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => { await new Promise(resolve => hub.close(resolve)) })
  const url = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`
  const s = await startKernel(t, { plugins, env: { HF_ENDPOINT: url, HF_TOKEN: 'hf_secret_token_123' } })
  const r = await firstTranslate(s)
  t.equal(r.status, 503)
  t.ok(seen.length > 0, 'the hub was asked')
  t.ok(seen.every(a => a === 'Bearer hf_secret_token_123'), 'every hub request carried the token')
  t.notMatch(JSON.stringify(r.body), /hf_secret/)
  t.notMatch(JSON.stringify((await s.json('/api/health')).body), /hf_secret/)
})
