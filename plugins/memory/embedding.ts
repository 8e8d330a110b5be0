// Which embedder memory uses, and embedding one text with it. The choice: the `embedder`
// option, else embed-<EMBEDDING_PROVIDER>, else embed-onnx (a small sentence transformer:
// above BM25 in every LoCoMo category, where embed-hash is not; docs/benchmarks.md), else
// embed-hash, else the first registered. A model embedder that is not loaded yet (or failed
// to load: offline on its first use, its package left out) does not hold memory up:
// embed-hash answers meanwhile and the model loads in the background (warm-up.ts).
import type { EmbedPurpose, Embedder } from '@agentd/sdk/contracts/embedder'
import type { EmbeddingRef } from '@agentd/sdk/contracts/memory-stores'
import type { TraceContext } from '@agentd/sdk'
import type { ServiceContext } from './context.ts'
import { WarmUp } from './warm-up.ts'
import { sentenceTexts, withContext, withSentences } from '@agentd/sdk/kits/recall'

export class Embedding {
  readonly #ctx: ServiceContext
  readonly #warmUp: WarmUp
  #fallbackWarned = false
  /** Runs when a model embedder finishes loading in the background (embed-hash served meanwhile). */
  onModelReady: ((e: Embedder) => void) | undefined

  constructor (ctx: ServiceContext) {
    this.#ctx = ctx
    this.#warmUp = new WarmUp(ctx.log, e => { this.onModelReady?.(e) })
  }

  embedder (): Embedder | undefined {
    const reg = this.#ctx.registry().embedders
    const { embedder, embeddingProvider } = this.#ctx.opts
    if (embedder !== undefined) return reg.find(embedder)
    const byProvider = embeddingProvider === undefined ? undefined : reg.find(`embed-${embeddingProvider}`)
    return byProvider ?? reg.find('embed-onnx') ?? reg.find('embed-hash') ?? reg.first()
  }

  /**
   * A vector for the text, or undefined when no embedder works (memory still stores the text).
   * `trace`: the work it is part of (a recall's span), sent along by an embedder that calls a server.
   * `purpose`: `query` for a recall's (served before stored texts by an embedder that queues).
   */
  async embed (text: string, signal?: AbortSignal, trace?: TraceContext, purpose: EmbedPurpose = 'document'): Promise<EmbeddingRef | undefined> {
    return await this.#embed(text, undefined, signal, trace, purpose)
  }

  /**
   * A turn's vector: its own with its sentences' (each after its `speaker`;
   * @agentd/sdk/kits/recall sentences.ts), read with the turns before it (nearest first;
   * context.ts), all by the same embedder in one call, added up weighed. Recent texts'
   * vectors are kept, so the context of a chat costs no new embedding.
   */
  async embedInContext (text: string, context: string[], signal?: AbortSignal, speaker?: string): Promise<EmbeddingRef | undefined> {
    return await this.#embed(text, { context, sentences: sentenceTexts(text, speaker) }, signal)
  }

  async #embed (text: string, turn: { context: string[], sentences: string[] } | undefined, signal?: AbortSignal, trace?: TraceContext, purpose: EmbedPurpose = 'document'): Promise<EmbeddingRef | undefined> {
    const primary = this.embedder()
    if (primary === undefined || text.trim() === '') return undefined
    const hash = this.#ctx.registry().embedders.find('embed-hash')
    const sentences = turn?.sentences ?? []
    const attempt = async (e: Embedder): Promise<EmbeddingRef | undefined> => {
      const [v, ...rest] = await this.#vectors(e, text, [...sentences, ...(turn?.context ?? [])], { signal, trace, purpose })
      if (v === undefined || v.every(x => x === 0)) return undefined
      return { vector: withContext(withSentences(v, rest.slice(0, sentences.length)), rest.slice(sentences.length)), embedder: e.id }
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

  readonly #recent = new Map<string, number[]>()

  /**
   * The text's vector and those of the `more` texts (its sentences, its context) by `e`, in
   * one call; a text embedded lately (a recall's query, a turn, a context) is not embedded again. A chat's message is embedded
   * once: for the recall that answers it, then kept for the turn that stores it.
   */
  async #vectors (e: Embedder, text: string, more: string[], o: { signal?: AbortSignal, trace?: TraceContext, purpose: EmbedPurpose }): Promise<Array<number[] | undefined>> {
    const key = (t: string): string => `${e.id}\u0000${e.dimensions}\u0000${t}`
    const all = [text, ...more]
    const found = new Map(all.flatMap(t => { const v = this.#recent.get(key(t)); return v === undefined ? [] : [[t, v] as const] }))
    const missing = [...new Set(all.filter(t => !found.has(t)))]
    const got = missing.length === 0 ? [] : await e.embed(missing, o.signal, o.trace, o.purpose)
    missing.forEach((t, i) => { if (got[i] !== undefined) found.set(t, got[i]) })
    // Kept most recent last (a hit moves up too), the oldest dropped past RECENT_MAX.
    for (const t of all) {
      const v = found.get(t)
      if (v === undefined) continue
      this.#recent.delete(key(t))
      if (this.#recent.size >= RECENT_MAX) this.#recent.delete(this.#recent.keys().next().value as string)
      this.#recent.set(key(t), v)
    }
    return all.map(t => found.get(t))
  }
}

/**
 * How many recent texts' vectors are kept: a turn's context is the turns just before it, and
 * each turn adds its own and its sentences' (2.5 on average on LoCoMo) to the list.
 */
const RECENT_MAX = 512
