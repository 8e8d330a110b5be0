// Embeddings from an OpenAI-compatible /v1/embeddings endpoint through the official SDK.
import OpenAI from 'openai'
import { normalize } from '@agentd/sdk/kits/memory'
import type { Embedder } from '@agentd/sdk/contracts/embedder'
import { scrub } from '@agentd/sdk/kits/provider'
import { traceHeaders, type TraceContext } from '@agentd/sdk'

export interface OpenAIEmbedderOptions {
  model: string
  dimensions: number
  apiKey: string | undefined
  baseURL: string | undefined
  timeoutMs: number
  /** Send `dimensions` in the request (text-embedding-3 models can shorten their vectors). */
  sendDimensions: boolean
}

const BATCH = 256

export class OpenAIEmbedder implements Embedder {
  readonly id: string
  readonly dimensions: number
  readonly #opts: OpenAIEmbedderOptions
  readonly #client: OpenAI | undefined
  #state: { status: string, error?: string } = { status: 'ready' }

  constructor (opts: OpenAIEmbedderOptions) {
    this.#opts = opts
    this.id = `openai:${opts.model}`
    this.dimensions = opts.dimensions
    this.#client = opts.apiKey === undefined
      ? undefined
      : new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, timeout: opts.timeoutMs, maxRetries: 1 })
    if (this.#client === undefined) this.#state = { status: 'error', error: 'No OpenAI API key: set OPENAI_API_KEY or providers.openai.api_key in data/config.json.' }
  }

  status (): { status: string, error?: string } { return { ...this.#state } }

  async embed (texts: string[], signal?: AbortSignal, trace?: TraceContext): Promise<number[][]> {
    if (this.#client === undefined) throw new Error(this.#state.error)
    if (texts.length === 0) return []
    const out: number[][] = []
    for (let i = 0; i < texts.length; i += BATCH) {
      const input = texts.slice(i, i + BATCH).map(t => t === '' ? ' ' : t)
      let res: OpenAI.CreateEmbeddingResponse
      try {
        res = await this.#client.embeddings.create({
          model: this.#opts.model, input, ...(this.#opts.sendDimensions ? { dimensions: this.#opts.dimensions } : {}),
        }, { signal, headers: traceHeaders(trace) })
      } catch (err) {
        // The upstream may quote the key it got (masked): scrubbed before it reaches health or a log.
        // No `cause`: the SDK error carries the unscrubbed text.
        const msg = `The embeddings endpoint failed for model "${this.#opts.model}": ${scrub((err as Error).message, [this.#opts.apiKey])}`
        this.#state = { status: 'error', error: msg }
        throw new Error(msg)
      }
      const rows = [...res.data].sort((a, b) => a.index - b.index).map(d => d.embedding)
      for (const r of rows) {
        if (r.length !== this.dimensions) throw new Error(`The model "${this.#opts.model}" returned ${r.length}-dimensional vectors but embed-openai is set to ${this.dimensions}: set its "dimensions" option to ${r.length}.`)
      }
      out.push(...rows.map(normalize))
    }
    this.#state = { status: 'ready' }
    return out
  }
}
