// The download cache is the only cache: everything transformers.js fetches, config.json
// included, lands in the configured cache dir (data/models), and a restarted process
// reads it from there instead of asking the hub again. A fake hub on loopback speaks the
// Hugging Face file layout (`/<model>/resolve/main/<file>`); no weights exist here, so
// each load ends at the first missing file, which is enough to see where config.json
// came from.
import t, { type Test } from 'tap'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { randomUUID } from 'node:crypto'

const LOAD = fileURLToPath(new URL('./test-fixtures/hub-load.ts', import.meta.url))

const CONFIG = JSON.stringify({ model_type: 'bert', architectures: ['BertForSequenceClassification'], id2label: { 0: 'en', 1: 'fr' } })

interface FakeHub { url: string, requests: string[], close: () => Promise<void> }

/** A hub that serves config.json of `model` when `serveConfig()` says so, 404 for anything else. */
async function fakeHub (t: Test, model: string, serveConfig: () => boolean): Promise<FakeHub> {
  const requests: string[] = []
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '')
    if (req.url === `/${model}/resolve/main/config.json`) {
      if (serveConfig()) { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(CONFIG) }).end(CONFIG); return }
      res.writeHead(500).end('config.json asked twice')
      return
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Entry not found"}')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const close = async (): Promise<void> => { if (server.listening) await new Promise(resolve => server.close(resolve)) }
  t.teardown(close)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests, close }
}

async function loadInChild (src: Record<string, unknown>): Promise<{ ok: boolean, error?: string }> {
  return await new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import=tsx', LOAD, JSON.stringify(src)], { timeout: 60_000 }, (err, stdout, stderr) => {
      const line = stdout.split('\n').find(l => l.startsWith('{'))
      if (line === undefined) { reject(new Error(`the load process printed no result: ${err?.message ?? ''} ${stderr}`)); return }
      resolve(JSON.parse(line) as { ok: boolean, error?: string })
    })
  })
}

t.test('config.json fetched once lands in the cache dir, and a restarted process reads it from there', async t => {
  const model = `test-org/tiny-${randomUUID().slice(0, 8)}`
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'agentd-hf-cache-'))
  t.teardown(() => { rmSync(cacheDir, { recursive: true, force: true }) })
  let configServed = 0
  const hub = await fakeHub(t, model, () => configServed++ === 0)
  const src = { model, cacheDir, hubUrl: hub.url, connectTimeoutMs: 5000 }

  const first = await loadInChild(src)
  t.equal(first.ok, false, 'no weights on the fake hub')
  t.match(first.error, /tokenizer|onnx|not found/i, `the first load got past config.json: ${first.error}`)
  t.equal(configServed, 1, 'config.json was downloaded once')
  t.ok(existsSync(path.join(cacheDir, model, 'config.json')), 'config.json is in the configured cache dir')
  const tfDefaultCache = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.resolve('@huggingface/transformers')))), '.cache', model)
  t.notOk(existsSync(tfDefaultCache), 'nothing went to the cache inside node_modules')

  hub.requests.length = 0
  const second = await loadInChild(src)
  t.equal(second.ok, false)
  t.notMatch(second.error, /config\.json/, `the second load did not need the hub for config.json: ${second.error}`)
  t.notOk(hub.requests.some(r => r.endsWith('/config.json')), `config.json was not asked for again (asked: ${hub.requests.join(', ')})`)
  t.equal(configServed, 1)
})
