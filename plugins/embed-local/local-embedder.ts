// A sentence-embedding model run in-process by @huggingface/transformers (ONNX). The model
// loads on first use, once, however many calls arrive while it loads. When it cannot be
// loaded (no network for the first download, a wrong model id) the call fails fast with
// a message that says what to do, status() reports `error`, and the next call tries again.
import { normalize } from '@agentd/sdk/kits/memory'
import { importTransformers } from '@agentd/sdk/kits/models'
import type { Embedder } from '@agentd/sdk/contracts/embedder'

/** The slice of a transformers.js feature-extraction pipeline this embedder uses. */
export type Extractor = (texts: string[], opts: { pooling: 'mean', normalize: boolean }) => Promise<{ tolist: () => unknown }>
export type ExtractorLoader = (model: string, opts: { cacheDir?: string }) => Promise<Extractor>

/** The real loader: downloads (or reads from cache) and compiles the model. */
export const transformersLoader: ExtractorLoader = async (model, opts) => {
  const tf = await importTransformers<typeof import('@huggingface/transformers')>()
  if (opts.cacheDir !== undefined) tf.env.cacheDir = opts.cacheDir
  const pipe = await tf.pipeline('feature-extraction', model, { dtype: 'fp32' })
  return async (texts, o) => await pipe(texts, o) as unknown as { tolist: () => unknown }
}

export class LocalEmbedder implements Embedder {
  readonly id: string
  readonly dimensions: number
  readonly model: string
  readonly #load: ExtractorLoader
  readonly #cacheDir: string | undefined
  #extractor: Promise<Extractor> | undefined
  #state: { status: string, error?: string } = { status: 'not_loaded' }

  constructor (opts: { model: string, dimensions: number, cacheDir?: string, loader?: ExtractorLoader }) {
    this.model = opts.model
    this.dimensions = opts.dimensions
    this.id = `local:${opts.model}`
    this.#cacheDir = opts.cacheDir
    this.#load = opts.loader ?? transformersLoader
  }

  status (): { status: string, error?: string } { return { ...this.#state } }

  async #extractorOnce (): Promise<Extractor> {
    if (this.#extractor === undefined) {
      this.#state = { status: 'loading' }
      const p = this.#load(this.model, { cacheDir: this.#cacheDir })
      this.#extractor = p
      p.then(() => { this.#state = { status: 'ready' } }, (err: unknown) => {
        this.#extractor = undefined
        this.#state = { status: 'error', error: this.#explain(err) }
      })
    }
    try {
      return await this.#extractor
    } catch (err) {
      throw new Error(this.#explain(err), { cause: err })
    }
  }

  #explain (err: unknown): string {
    const msg = (err as Error | undefined)?.message ?? String(err)
    const offline = /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|network/i.test(msg)
    return offline
      ? `The local embedding model "${this.model}" is not in the cache and cannot be downloaded (${msg}). Download it once with network access (or copy it into the cache), or use the embed-hash embedder.`
      : `The local embedding model "${this.model}" could not be loaded: ${msg}. Check LOCAL_EMBEDDING_MODEL (a feature-extraction model id such as Xenova/all-MiniLM-L6-v2).`
  }

  async embed (texts: string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted()
    if (texts.length === 0) return []
    const extractor = await this.#extractorOnce()
    const out = await extractor(texts, { pooling: 'mean', normalize: true })
    const rows = out.tolist() as number[][]
    if (!Array.isArray(rows) || rows.length !== texts.length) throw new Error(`The model "${this.model}" returned ${Array.isArray(rows) ? rows.length : 'no'} vectors for ${texts.length} texts.`)
    for (const r of rows) {
      if (r.length !== this.dimensions) throw new Error(`The model "${this.model}" makes ${r.length}-dimensional vectors but the embed-local option "dimensions" says ${this.dimensions}: set it to ${r.length}.`)
    }
    return rows.map(r => normalize(r.map(Number)))
  }
}
