// Which embedder memory uses, and embedding one text with it. The choice: the `embedder`
// option, else embed-<EMBEDDING_PROVIDER>, else embed-hash, else the first registered. A
// model embedder that is not loaded yet (or failed to load) does not hold memory up:
// embed-hash answers meanwhile and the model loads in the background (warm-up.ts).
import type { Embedder } from '@agentd/sdk/contracts/embedder'
import type { EmbeddingRef } from '@agentd/sdk/contracts/memory-stores'
import type { ServiceContext } from './context.ts'
import { WarmUp } from './warm-up.ts'

export class Embedding {
  readonly #ctx: ServiceContext
  readonly #warmUp: WarmUp
  #fallbackWarned = false

  constructor (ctx: ServiceContext) {
    this.#ctx = ctx
    this.#warmUp = new WarmUp(ctx.log)
  }

  embedder (): Embedder | undefined {
    const reg = this.#ctx.registry().embedders
    const { embedder, embeddingProvider } = this.#ctx.opts
    if (embedder !== undefined) return reg.find(embedder)
    const byProvider = embeddingProvider === undefined ? undefined : reg.find(`embed-${embeddingProvider}`)
    return byProvider ?? reg.find('embed-hash') ?? reg.first()
  }

  /** A vector for the text, or undefined when no embedder works (memory still stores the text). */
  async embed (text: string, signal?: AbortSignal): Promise<EmbeddingRef | undefined> {
    const primary = this.embedder()
    if (primary === undefined || text.trim() === '') return undefined
    const hash = this.#ctx.registry().embedders.find('embed-hash')
    const attempt = async (e: Embedder): Promise<EmbeddingRef | undefined> => {
      const [v] = await e.embed([text], signal)
      return v === undefined || v.every(x => x === 0) ? undefined : { vector: v, embedder: e.id }
    }
    const fallback = hash !== undefined && hash !== primary ? hash : undefined
    const state = primary.status?.().status
    if (fallback !== undefined && state !== undefined && state !== 'ready') {
      this.#warmUp.start(primary, state)
      return await attempt(fallback).catch(() => undefined)
    }
    try {
      return await attempt(primary)
    } catch (err) {
      if (!this.#fallbackWarned) {
        this.#fallbackWarned = true
        this.#ctx.log.warn({ embedder: primary.id, err: (err as Error).message }, `memory: embedder failed${fallback !== undefined ? '; using embed-hash until it works' : ''}`)
      }
      if (fallback === undefined) return undefined
      return await attempt(fallback).catch(() => undefined)
    }
  }
}
