// Recall: embeds the query, runs the service's own technique (vector-recency.ts) and every
// technique other plugins registered and the recall settings turn on, at once, each within
// a time limit, fuses their candidates (recall-merge.ts),
// adds working memory, renders the bundle within the token budget, and lets recall:after
// hooks replace it. Chat-facing recall never rejects; strict recall (the routes) does.
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { RecallResult } from '@agentd/sdk/contracts/memory-service'
import type { EmbeddingRef } from '@agentd/sdk/contracts/memory-stores'
import type { RecallCandidates, RecallInput, RecallSettings, RecallTechnique } from '@agentd/sdk/contracts/recall'
import { RECALL_DEFAULTS, enableKey, vectorTurns } from '@agentd/sdk/kits/recall'
import { TIMED_OUT, within } from '@agentd/sdk'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import type { Episodic } from './episodic.ts'
import { DEFAULT, checkChannel, recallChannels } from './channels.ts'
import { renderBundle } from './render.ts'
import { countedOnce, fuseCandidates, partLimits } from './recall-merge.ts'
import { rankNeighbours, vectorRecency } from './vector-recency.ts'
import { orderFacts } from './recall-time.ts'

export interface RecallQuery { text: string, channel?: string, top_k?: number, conversation_id?: string, token_budget?: number }

/**
 * A read shared by the techniques of one recall: asked for `limit` items, it reads once and
 * answers later asks from that read; only a deeper ask reads again (the deepest wins).
 */
export function sharedRead<T> (read: (limit: number) => Promise<T[]>): (limit: number) => Promise<T[]> {
  let last: { limit: number, items: Promise<T[]> } | undefined
  return async limit => {
    if (last === undefined || last.limit < limit) last = { limit, items: read(limit) }
    return (await last.items).slice(0, limit)
  }
}

export const emptyBundle = (): RecallResult => ({ relevant_turns: [], entities: [], facts: [], strategies: [], active_goals: [], user_context: {}, context: '', techniques: [], timings_ms: {} })

export class Recall {
  readonly #ctx: ServiceContext
  readonly #embedding: Embedding
  readonly #episodic: Episodic
  readonly #warning: () => string | undefined
  /** The service's own technique; run first, before those other plugins registered. */
  readonly defaultTechnique: RecallTechnique

  constructor (ctx: ServiceContext, embedding: Embedding, episodic: Episodic, warning: () => string | undefined) {
    this.#ctx = ctx
    this.#embedding = embedding
    this.#episodic = episodic
    this.#warning = warning
    this.defaultTechnique = vectorRecency(ctx)
  }

  /** Chat-facing: never rejects; stores that fail are listed in `degraded`. */
  async recall (query: RecallQuery, signal?: AbortSignal): Promise<RecallResult> {
    try {
      return await this.recallBundle(query, { strict: false, signal })
    } catch (err) {
      return { ...emptyBundle(), context: '', techniques: [], timings_ms: {}, degraded: [(err as Error).message] }
    }
  }

  /**
   * The service's own vector+recency technique, then those other plugins registered and the
   * settings turn on (`recall_enable_<name>`). Not registered itself: two memory instances
   * would each run the other's copy too.
   */
  #techniques (settings: RecallSettings): RecallTechnique[] {
    const on = (t: RecallTechnique): boolean => {
      const key = enableKey(t.name)
      return key === undefined || settings[key] === true
    }
    return [this.defaultTechnique, ...this.#ctx.registry().recallTechniques.values().filter(on)]
  }

  recallSettings (): RecallSettings { return this.#ctx.opts.recallSettings?.() ?? { ...RECALL_DEFAULTS } }

  /** strict: a store that is down rejects (503 on the routes); otherwise it is skipped. */
  async recallBundle (query: RecallQuery, opts: { strict: boolean, signal?: AbortSignal }): Promise<RecallResult> {
    const ctx = this.#ctx
    const started = performance.now()
    const timings: Record<string, number> = {}
    const degraded: string[] = []
    const notes: Record<string, string> = {}
    const channel = checkChannel(query.channel ?? DEFAULT)
    const channels = recallChannels(channel)
    const topK = query.top_k ?? ctx.opts.topK
    const settings = this.recallSettings()
    const ms = (t0: number): number => Math.round((performance.now() - t0) * 100) / 100
    if (opts.strict) ctx.need('relational')
    let t0 = performance.now()
    const embedding = await this.#embedding.embed(query.text, opts.signal)
    timings.embed = ms(t0)

    // Other texts (query variants, a hypothetical answer) are embedded by the embedder that made the query's vector.
    const embedLike = async (text: string): Promise<EmbeddingRef | undefined> => {
      if (embedding === undefined) return undefined
      const e = this.#ctx.registry().embedders.values().find(x => x.id === embedding.embedder)
      if (e === undefined || text.trim() === '') return undefined
      const [v] = await e.embed([text], opts.signal)
      return v === undefined || v.every(x => x === 0) ? undefined : { vector: v, embedder: e.id }
    }
    // The query's vector neighbours (turns, entities), each read once for every technique that
    // needs them; turns ranked as the service ranks them (recency when the query asks for it).
    const nearestTurns = sharedRead(async limit => {
      const rel = ctx.relational
      // The graph store's vector index over its copies of the turns when it keeps them (Neo4j), else the relational store's.
      return embedding === undefined || rel === undefined ? [] : rankNeighbours(await vectorTurns({ graph: ctx.graph, relational: rel }, { embedding, channels, limit }), query.text, ctx.opts)
    })
    const nearestEntities = sharedRead(async limit => {
      const graph = ctx.graph
      return embedding === undefined || graph === undefined ? [] : await graph.similarEntities({ embedding, channels, limit })
    })
    const input: RecallInput = { query: query.text, channel, channels, top_k: topK, conversation_id: query.conversation_id, embedding, embed: embedLike, nearestTurns, nearestEntities, settings, signal: opts.signal, strict: opts.strict }
    const ran: string[] = []
    const techniques = this.#techniques(settings)
    const limit = ctx.opts.techniqueTimeoutMs ?? 2000
    // The current conversation's latest turns are in the chat history already: no technique returns them.
    const excludeTurns = async (): Promise<Set<string>> => {
      if (query.conversation_id === undefined || ctx.relational === undefined) return new Set()
      try {
        return new Set((await ctx.relational.conversationTurns(query.conversation_id, ctx.opts.workingMemoryTurns)).map(t => t.id))
      } catch (err) {
        if (opts.strict || !(err instanceof StoreUnavailableError)) throw err
        degraded.push('relational')
        return new Set()
      }
    }
    const [exclude, ...results] = await Promise.all([excludeTurns(), ...techniques.map(async (tech): Promise<{ name: string, weight: number, candidates: RecallCandidates }> => {
      const t1 = performance.now()
      const none = { name: tech.name, weight: tech.weight ?? 1, candidates: {} }
      try {
        opts.signal?.throwIfAborted()
        // The service's own technique is not timed out: it is the recall every other one adds to.
        const c = tech === this.defaultTechnique ? await tech.run(input) : await within(tech.run(input), limit)
        if (c === TIMED_OUT) {
          degraded.push(`technique:${tech.name}`)
          notes[tech.name] = `timed out after ${limit} ms; the recall went on without it`
          ctx.log.warn({ technique: tech.name, timeout_ms: limit }, 'memory: a recall technique timed out; recall goes on without it')
          return none
        }
        // A technique that dropped out (no model, the model failed) says why and is not listed as run.
        if (c.note !== undefined) notes[tech.name] = c.note
        else ran.push(tech.name)
        degraded.push(...(c.degraded ?? []))
        for (const [k, v] of Object.entries(c.timings_ms ?? {})) timings[tech === this.defaultTechnique ? k : `${tech.name}.${k}`] = v
        return { ...none, candidates: c }
      } catch (err) {
        if (opts.strict && (err instanceof StoreUnavailableError || opts.signal?.aborted === true)) throw err
        if (err instanceof StoreUnavailableError) degraded.push(err.role)
        else {
          degraded.push(`technique:${tech.name}`)
          notes[tech.name] = `failed: ${(err as Error).message}; the recall went on without it`
          ctx.log.warn({ technique: tech.name, err: (err as Error).message }, 'memory: a recall technique failed; recall goes on without it')
        }
        return none
      } finally { timings[`technique:${tech.name}`] = ms(t1) }
    })])
    t0 = performance.now()
    const parts = fuseCandidates(countedOnce(results, this.defaultTechnique.name), partLimits(topK), settings.recall_hybrid_rrf_k, exclude)
    timings.fuse = ms(t0)
    parts.facts = orderFacts(parts.facts, query.text)

    let working: unknown[] = []
    if (query.conversation_id !== undefined && ctx.kv !== undefined) {
      t0 = performance.now()
      try {
        working = await this.#episodic.workingMemory(channel, query.conversation_id)
      } catch (err) {
        if (opts.strict || !(err instanceof StoreUnavailableError)) throw err
        degraded.push('kv')
      } finally { timings.working_memory = ms(t0) }
    }

    const bundle = {
      ...parts,
      user_context: { channel, channels, conversation_id: query.conversation_id ?? null, working_memory_turns: working.length },
    }
    t0 = performance.now()
    const context = renderBundle(bundle, query.token_budget ?? ctx.opts.tokenBudget)
    timings.render = ms(t0)
    timings.total = ms(started)
    const result: RecallResult = { ...bundle, context, techniques: techniques.map(x => x.name).filter(n => ran.includes(n)), timings_ms: timings }
    if (degraded.length > 0) result.degraded = [...new Set(degraded)]
    if (Object.keys(notes).length > 0) result.notes = notes
    const warning = this.#warning()
    if (warning !== undefined) result.warning = warning
    try {
      const after = await ctx.hooks().run('recall:after', { query: query.text, bundle: result })
      return after.bundle
    } catch (err) {
      ctx.log.warn({ err }, 'memory: a recall:after hook failed')
      return result
    }
  }
}
