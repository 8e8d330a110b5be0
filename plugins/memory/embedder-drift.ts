// Stored vectors made by another embedder (or another size) than the active one: recall
// ignores them, health warns, and the re-embed job (reembed.ts) replaces them. This file
// counts them, words the warning, and starts the job.
import type { Embedder } from '@agentd/sdk/contracts/embedder'
import type { ReembedSupport } from '@agentd/sdk/contracts/memory-stores'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import { MemoryErrors } from './errors.ts'
import { Reembedder, type ReembedProgress } from './reembed.ts'

export class EmbedderDrift {
  readonly #ctx: ServiceContext
  readonly #embedding: Embedding
  readonly reembedder: Reembedder
  /** Set when stored vectors were made by another embedder than the active one. */
  warning: string | undefined

  constructor (ctx: ServiceContext, embedding: Embedding) {
    this.#ctx = ctx
    this.#embedding = embedding
    this.reembedder = new Reembedder({
      embedder: () => embedding.embedder(),
      stores: () => {
        const out: Array<{ role: string, store: ReembedSupport }> = []
        if (ctx.relational !== undefined) out.push({ role: 'relational', store: ctx.relational })
        if (ctx.graph !== undefined) out.push({ role: 'graph', store: ctx.graph })
        return out
      },
      pending: async e => (await this.#mismatched(e)).reduce((n, u) => n + u.count, 0),
      batchSize: ctx.opts.reembedBatchSize ?? 64,
      log: ctx.log,
      finished: async p => {
        await ctx.relational?.audit({ action: 'memory.reembed', details: { ...p } }).catch(() => {})
        if (p.status === 'done') await this.check().catch(() => {})
      },
    })
  }

  async #mismatched (e: Embedder): Promise<Array<{ embedder: string, dimensions: number, count: number }>> {
    return [
      ...(await this.#ctx.relational?.embedderUsage() ?? []),
      ...(await this.#ctx.graph?.embedderUsage() ?? []),
    ].filter(u => u.embedder !== e.id || u.dimensions !== e.dimensions)
  }

  /** Compares the active embedder with the ones that made the stored vectors; the warning, if any. */
  async check (): Promise<string | undefined> {
    const e = this.#embedding.embedder()
    if (e === undefined) return undefined
    const usage = await this.#mismatched(e)
    if (usage.length === 0) { this.warning = undefined; return undefined }
    const seen = [...new Set(usage.map(u => `${u.embedder} (${u.dimensions}d)`))].join(', ')
    const n = usage.reduce((s, u) => s + u.count, 0)
    this.warning = `The embedder changed: ${n} stored vectors were made by ${seen} but the active embedder is ${e.id} (${e.dimensions}d). ` +
      'Recall ignores the old vectors until they are re-embedded. Fix: POST /api/memory/reembed (it also runs by itself at start unless the memory option auto_reembed is false; ' +
      'progress in GET /api/health?include_memory=true under memory.embedder.reembed), or switch back to the old embedder.'
    return this.warning
  }

  /** Starts re-embedding stored vectors with the active embedder (background); the progress now. */
  startReembed (): ReembedProgress {
    const e = this.#embedding.embedder()
    if (e === undefined) throw new MemoryErrors.NOT_CONFIGURED('No embedder is loaded: enable embed-hash, embed-local or embed-openai in plugins.json.')
    this.#ctx.need('relational')
    return this.reembedder.start(e)
  }
}
