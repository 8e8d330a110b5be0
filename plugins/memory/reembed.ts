// The re-embed job: after a change of embedder, stored vectors made by the old one are
// ignored by recall. This job waits until the active embedder is ready (a local model
// loads on first use), then, store by store and in batches, embeds the source text of
// every vector another embedder (or another size) made and writes the new vector. Runs
// in the background; progress is in health (memory.embedder.reembed) and /api/memory/stats.
import type { FastifyBaseLogger } from 'fastify'
import type { Embedder } from '@agentd/sdk/contracts/embedder'
import type { ReembedSupport } from '@agentd/sdk/contracts/memory-stores'
import { contextTexts, sentenceTexts, withContext, withSentences } from '@agentd/sdk/kits/recall'

export interface ReembedProgress {
  status: 'idle' | 'waiting_for_embedder' | 'running' | 'done' | 'error' | 'stopped'
  embedder?: string
  dimensions?: number
  /** Vectors to re-embed when the run started (new ones found on the way are done too). */
  total: number
  done: number
  /** Rows whose text gave no vector (blank): their old vector was dropped. */
  dropped: number
  started_at?: string
  finished_at?: string
  error?: string
}

export interface ReembedDeps {
  embedder: () => Embedder | undefined
  stores: () => Array<{ role: string, store: ReembedSupport }>
  /** Vectors that do not match the embedder now. */
  pending: (e: Embedder) => Promise<number>
  batchSize: number
  log: FastifyBaseLogger
  /** Called with the final progress (audit, clear the warning). */
  finished: (p: ReembedProgress) => Promise<void>
}

export class Reembedder {
  readonly #d: ReembedDeps
  #p: ReembedProgress = { status: 'idle', total: 0, done: 0, dropped: 0 }
  #run: Promise<void> | undefined
  #stop = false
  #counted: Promise<void> = Promise.resolve()
  #markCounted: () => void = () => {}

  constructor (deps: ReembedDeps) { this.#d = deps }

  progress (): ReembedProgress { return { ...this.#p } }
  get running (): boolean { return this.#run !== undefined }

  /** Starts a run unless one is going; returns the progress at once. `e` is the active embedder. */
  start (e: Embedder): ReembedProgress {
    if (this.#run === undefined) {
      this.#stop = false
      this.#counted = new Promise(resolve => { this.#markCounted = resolve })
      this.#p = { status: 'waiting_for_embedder', embedder: e.id, dimensions: e.dimensions, total: 0, done: 0, dropped: 0, started_at: new Date().toISOString() }
      this.#run = this.#go(e).finally(() => { this.#run = undefined })
    }
    return this.progress()
  }

  /** The progress once the run has counted what there is to do (or has ended). */
  async counted (): Promise<ReembedProgress> { await this.#counted; return this.progress() }

  /** Resolves when the current run (if any) ends. */
  async settled (): Promise<void> { await this.#run }

  /** Stops after the current batch (the generation is being retired). */
  async stop (): Promise<void> { this.#stop = true; await this.#run }

  async #go (e: Embedder): Promise<void> {
    const log = this.#d.log
    try {
      this.#p.total = await this.#d.pending(e)
      this.#markCounted()
      // Loads a model embedder (and waits for one already loading); fails with its reason.
      await e.embed(['warm up'])
      this.#p.status = 'running'
      log.info({ embedder: e.id, vectors: this.#p.total }, 'memory: re-embedding stored vectors with the active embedder')
      for (const { role, store } of this.#d.stores()) {
        // The last id done per kind: each batch resumes past it, so a row is read once.
        const after: Record<string, string> = {}
        for (;;) {
          if (this.#stop) { this.#p.status = 'stopped'; return }
          const batch = await store.staleEmbeddings({ embedder: e.id, dimensions: e.dimensions, limit: this.#d.batchSize, after })
          if (batch.length === 0) break
          for (const b of batch) after[b.kind] = b.id
          const texts = batch.map(b => b.text.trim())
          // A turn is read with its sentences and the turns before it, as when it was stored
          // (kits/recall sentences.ts, context.ts): one call embeds every text needed.
          const contexts = batch.map(b => b.context === undefined ? [] : contextTexts(b.context.map(content => ({ content }))))
          const sentences = batch.map((b, i) => b.kind !== 'turn' || texts[i] === '' ? [] : sentenceTexts(texts[i], b.speaker))
          const toEmbed = [...new Set([...texts.filter(t => t !== ''), ...sentences.flat(), ...contexts.flat()])]
          const vectors = toEmbed.length === 0 ? [] : await e.embed(toEmbed)
          const vectorOf = new Map(toEmbed.map((t, i) => [t, vectors[i]]))
          const items = batch.map((b, i) => {
            if (texts[i] === '') return { kind: b.kind, id: b.id, embedding: null }
            const v = vectorOf.get(texts[i])
            if (v === undefined || v.every(x => x === 0)) return { kind: b.kind, id: b.id, embedding: null }
            const own = withSentences(v, sentences[i].map(s => vectorOf.get(s)))
            return { kind: b.kind, id: b.id, embedding: { vector: withContext(own, contexts[i].map(c => vectorOf.get(c))), embedder: e.id } }
          })
          // Rows changed is the progress: none means the store gave rows it cannot update.
          if (await store.setEmbeddings(items) === 0) throw new Error(`the ${role} store could not update the rows it returned as stale`)
          this.#p.done += items.filter(x => x.embedding !== null).length
          this.#p.dropped += items.filter(x => x.embedding === null).length
        }
      }
      this.#p.status = 'done'
      log.info({ embedder: e.id, done: this.#p.done, dropped: this.#p.dropped }, 'memory: re-embedding finished')
    } catch (err) {
      this.#p.status = 'error'
      this.#p.error = `${(err as Error).message}. Fix the cause and POST /api/memory/reembed again; what was done is kept.`
      log.warn({ embedder: e.id, err: (err as Error).message, done: this.#p.done }, 'memory: re-embedding stopped')
    } finally {
      this.#markCounted()
      this.#p.finished_at = new Date().toISOString()
      await this.#d.finished(this.progress()).catch(() => {})
    }
  }
}
