// Loads a transformers.js pipeline from the Hugging Face hub or from a local folder, with
// download progress, HF_TOKEN for gated models, and a connect timeout so an unreachable
// hub fails in seconds instead of hanging. Shared by the detection classifier and the
// translation model. transformers.js is imported only here, on first use, so a server
// that never translates never pays for it.
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { LoadProgress } from './lazy-model.ts'
import { importTransformers } from './transformers.ts'

export interface HubSource {
  /** Hugging Face model id, e.g. `Xenova/nllb-200-distilled-600M`. */
  model: string
  /** A folder with pre-copied weights: the model folder itself, or a folder holding `<model id>/`. */
  dir?: string
  /** Where downloads are cached (data/models by default). */
  cacheDir: string
  /** Token for gated or private models. Sent to the hub only. */
  token?: string
  /** Hub base URL (HF_ENDPOINT), default https://huggingface.co/. */
  hubUrl?: string
  /** How long to wait for the hub to answer a request before giving up. */
  connectTimeoutMs: number
  /** ONNX weights variant: `q8` (quantized, the small download), `fp32`, ... */
  dtype?: string
}

/** The part of a transformers.js pipeline we call: (input, options) -> output. */
export type PipelineFn = ((input: string | string[], options?: Record<string, unknown>) => Promise<unknown>) & {
  tokenizer?: { encode?: (text: string) => number[] }
  dispose?: () => Promise<void>
}

interface TransformersModule {
  env: { remoteHost: string, allowRemoteModels: boolean, allowLocalModels: boolean, cacheDir: string | null, fetch: typeof fetch }
  pipeline: (task: string, model: string, options: Record<string, unknown>) => Promise<PipelineFn>
}

const DEFAULT_HUB = 'https://huggingface.co/'

const NULL_BODY = new Set([101, 204, 205, 304])

/**
 * The body, with `onStall` called when a read waits `ms` for bytes. The timer runs only
 * while the reader waits (pull with no buffer), so a reader that is slow to start is
 * never mistaken for a stalled hub.
 */
export function watchBody (body: ReadableStream<Uint8Array>, ms: number, onStall: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>({
    async pull (ctl) {
      const timer = setTimeout(onStall, ms)
      try {
        const { done, value } = await reader.read()
        if (done) ctl.close()
        else ctl.enqueue(value)
      } finally { clearTimeout(timer) }
    },
    cancel: async (reason) => { await reader.cancel(reason) },
  }, { highWaterMark: 0 })
}

let transformers: Promise<TransformersModule> | undefined
const settings: { token: string | undefined, timeoutMs: number, hosts: Set<string> } = { token: undefined, timeoutMs: 8000, hosts: new Set(['huggingface.co', 'hf.co']) }

async function loadTransformers (): Promise<TransformersModule> {
  transformers ??= importTransformers<TransformersModule>().then(mod => {
    const base = globalThis.fetch
    // One fetch for the whole process (transformers.js keeps its settings globally):
    // adds the token for hub hosts only, and aborts when the hub does not answer in time:
    // first for the headers, then whenever a read of the body waits that long for bytes
    // (a download that stalls half-way). A long download that keeps moving is never cut.
    mod.env.fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
      const headers = new Headers(init?.headers)
      if (settings.token !== undefined && settings.hosts.has(url.hostname) && !headers.has('authorization')) headers.set('authorization', `Bearer ${settings.token}`)
      const controller = new AbortController()
      const timeoutMs = settings.timeoutMs
      const stall = (): void => { controller.abort(new Error(`no answer from ${url.origin} within ${timeoutMs} ms`)) }
      const timer = setTimeout(stall, timeoutMs)
      let res: Response
      try {
        res = await base(input, { ...init, headers, signal: controller.signal })
      } finally { clearTimeout(timer) }
      if (res.body === null || NULL_BODY.has(res.status)) return res
      return new Response(watchBody(res.body, timeoutMs, stall), { status: res.status, statusText: res.statusText, headers: res.headers })
    }
    return mod
  })
  return await transformers
}

/** What transformers.js passes to `progress_callback` (the fields read here). */
export interface HubProgressInfo { status?: string, progress?: number, file?: string, loaded?: number, total?: number }

/**
 * transformers.js progress events -> the load's percent. Only `progress_total` (bytes of
 * every file of the model so far over their sum) and `ready` move it: per-file `progress`
 * events restart at 0 for each file, so they would make the bar jump back and forth.
 * `progress_total` can itself drop when a file joins the total late; LazyModel keeps the
 * highest value seen.
 */
export function hubProgress (info: HubProgressInfo): LoadProgress | undefined {
  if (info.status === 'progress_total' && typeof info.progress === 'number' && Number.isFinite(info.progress)) {
    return { percent: Math.max(0, Math.min(100, info.progress)) }
  }
  if (info.status === 'ready') return { percent: 100 }
  return undefined
}

/**
 * A configured model folder as an absolute path. A relative one (`models/nllb`) means a
 * folder under the server's working directory (the kernel's cwd, where plugins.json and
 * .env live), not under whatever directory the process happened to start in; left
 * relative, transformers.js would even take it for a hub model id.
 */
export function resolveModelDir (cwd: string, dir: string | undefined): string | undefined {
  return dir === undefined || dir === '' ? undefined : path.resolve(cwd, dir)
}

/** The folder to load from when `dir` is set, or an error that says what is missing. */
export function localModelPath (dir: string, model: string): string {
  // Absolute, always: transformers.js takes a relative path for a hub model id.
  dir = path.resolve(dir)
  if (existsSync(path.join(dir, 'config.json'))) return dir
  const nested = path.join(dir, model)
  if (existsSync(path.join(nested, 'config.json'))) return nested
  throw new Error(`${dir} holds neither config.json nor ${model}/config.json; copy the model folder (config.json, tokenizer.json, onnx/*.onnx) there`)
}

export async function loadHubPipeline (task: string, src: HubSource, onProgress: (p: LoadProgress) => void): Promise<PipelineFn> {
  const tf = await loadTransformers()
  // Settings are process-wide in transformers.js: set every one for this load, so a
  // previous load's hub or token never leaks into this one.
  settings.timeoutMs = src.connectTimeoutMs
  settings.token = src.token
  tf.env.remoteHost = src.hubUrl === undefined ? DEFAULT_HUB : src.hubUrl.endsWith('/') ? src.hubUrl : `${src.hubUrl}/`
  settings.hosts = new Set(['huggingface.co', 'hf.co', new URL(tf.env.remoteHost).hostname])
  // `cache_dir` below reaches the model and tokenizer files, but transformers.js also
  // reads config.json and file sizes before them (to pick the files, and for the
  // progress total) through its global cache dir, which defaults to a folder inside
  // node_modules: a restart without the hub would then fail on config.json although
  // every file sits in cacheDir. One cache for everything.
  tf.env.cacheDir = src.cacheDir
  const local = src.dir === undefined ? undefined : localModelPath(src.dir, src.model)
  const callback = (info: HubProgressInfo): void => {
    const p = hubProgress(info)
    if (p !== undefined) onProgress(p)
  }
  return await tf.pipeline(task, local ?? src.model, {
    progress_callback: callback,
    cache_dir: src.cacheDir,
    local_files_only: local !== undefined,
    ...(src.dtype === undefined ? {} : { dtype: src.dtype }),
  })
}
