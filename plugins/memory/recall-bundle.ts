// Recall: embeds the query, runs the service's own technique (vector-recency.ts) and every
// technique other plugins registered and the recall settings turn on, at once, each within
// a time limit, fuses their candidates (recall-merge.ts),
// leaves out what the conversation holds already, renders the bundle within the token budget, and lets recall:after
// hooks replace it. Chat-facing recall never rejects; strict recall (the routes) does.
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { MemoryBundle, RecallResult } from '@agentd/sdk/contracts/memory-service'
import type { EmbeddingRef } from '@agentd/sdk/contracts/memory-stores'
import type { RecallCandidates, RecallInput, RecallSettings, RecallTechnique } from '@agentd/sdk/contracts/recall'
import { FusionSettings, contentKey, enableKey, settingsOf, vectorTurns, elapsedMs } from '@agentd/sdk/kits/recall'
import { TIMED_OUT, within, inSpan, tracing, type TraceContext } from '@agentd/sdk'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import { DEFAULT, checkChannel, recallChannels } from './channels.ts'
import { renderBundle } from './render.ts'
import { fuseCandidates, partLimits, type Seen } from './recall-merge.ts'
import { rankNeighbours, vectorRecency } from './vector-recency.ts'
import { orderFacts } from './recall-time.ts'

/** `seen`: texts the caller's prompt holds already (a chat's history); see MemoryService.recall. */
export interface RecallQuery { text: string, channel?: string, top_k?: number, conversation_id?: string, token_budget?: number, seen?: string[], trace?: TraceContext }

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
  readonly #warning: () => string | undefined
  /** The service's own technique; run first, before those other plugins registered. */
  readonly defaultTechnique: RecallTechnique

  constructor (ctx: ServiceContext, embedding: Embedding, warning: () => string | undefined) {
    this.#ctx = ctx
    this.#embedding = embedding
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
      const key = enableKey(t)
      return key === undefined || settings[key] === true
    }
    return [this.defaultTechnique, ...this.#ctx.registry().recallTechniques.values().filter(on)]
  }

  recallSettings (): RecallSettings { return this.#ctx.opts.recallSettings?.() ?? settingsOf(FusionSettings, {}) }

  /** strict: a store that is down rejects (503 on the routes); otherwise it is skipped. */
  async recallBundle (query: RecallQuery, opts: { strict: boolean, signal?: AbortSignal }): Promise<RecallResult> {
    if (!tracing()) return await this.#bundle(query, opts)
    return await inSpan('memory.recall', { 'agentd.recall.channel': query.channel ?? DEFAULT, 'agentd.recall.strict': opts.strict }, async (span, ctx) => {
      // The work inside (the query's embedding) runs under the recall's span.
      const result = await this.#bundle({ ...query, trace: ctx }, opts)
      span?.setAttributes({ 'agentd.recall.techniques': result.techniques, 'agentd.recall.degraded': result.degraded?.length ?? 0 })
      return result
    }, undefined, query.trace)
  }

  async #bundle (query: RecallQuery, opts: { strict: boolean, signal?: AbortSignal }): Promise<RecallResult> {
    const ctx = this.#ctx
    const acc: Accumulated = { started: performance.now(), timings: {}, degraded: [], notes: {}, ran: [] }
    const channel = checkChannel(query.channel ?? DEFAULT)
    const topK = query.top_k ?? ctx.opts.topK
    const settings = this.recallSettings()
    if (opts.strict) ctx.need('relational')
    const input = await this.#input(query, channel, topK, settings, opts, acc)
    const techniques = this.#techniques(settings)
    const [seen, ...results] = await Promise.all([
      this.#conversationSeen(query, opts.strict, acc),
      ...techniques.map(async tech => await this.#runTechnique(tech, input, opts, acc)),
    ])
    const t0 = performance.now()
    const parts = fuseCandidates(results, partLimits(topK), settingsOf(FusionSettings, settings).recall_hybrid_rrf_k, seen)
    acc.timings.fuse = elapsedMs(t0)
    parts.facts = orderFacts(parts.facts, query.text)
    const bundle = { ...parts, user_context: { channel, channels: input.channels, conversation_id: query.conversation_id ?? null } }
    return await this.#finish(query, bundle, techniques, acc)
  }

  /** The query embedded once, and the reads every technique shares. */
  async #input (query: RecallQuery, channel: string, topK: number, settings: RecallSettings, opts: { strict: boolean, signal?: AbortSignal }, acc: Accumulated): Promise<RecallInput> {
    const ctx = this.#ctx
    const channels = recallChannels(channel)
    const t0 = performance.now()
    const embedding = await this.#embedding.embed(query.text, opts.signal, query.trace, 'query')
    acc.timings.embed = elapsedMs(t0)
    // Other texts (query variants, a hypothetical answer) are embedded by the embedder that made the query's vector.
    const embedLike = async (text: string): Promise<EmbeddingRef | undefined> => {
      if (embedding === undefined) return undefined
      const e = ctx.registry().embedders.values().find(x => x.id === embedding.embedder)
      if (e === undefined || text.trim() === '') return undefined
      const [v] = await e.embed([text], opts.signal, query.trace, 'query')
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
    return { query: query.text, channel, channels, top_k: topK, conversation_id: query.conversation_id, embedding, embed: embedLike, nearestTurns, nearestEntities, settings, signal: opts.signal, strict: opts.strict }
  }

  /**
   * What the prompt holds already, which no technique returns: the texts the caller says it
   * holds (`seen`: a chat's history; nothing is read), else the conversation's latest turns
   * (`working_memory_turns` of them), read once from the relational store.
   */
  async #conversationSeen (query: RecallQuery, strict: boolean, acc: Accumulated): Promise<Seen> {
    const ctx = this.#ctx
    if (query.seen !== undefined) return { ids: new Set(), texts: new Set(query.seen.map(contentKey)) }
    const rel = ctx.relational
    if (query.conversation_id === undefined || rel === undefined) return { ids: new Set(), texts: new Set() }
    const t0 = performance.now()
    try {
      return { ids: new Set((await rel.conversationTurns(query.conversation_id, ctx.opts.workingMemoryTurns)).map(t => t.id)), texts: new Set() }
    } catch (err) {
      if (strict || !(err instanceof StoreUnavailableError)) throw err
      acc.degraded.push('relational')
      return { ids: new Set(), texts: new Set() }
    } finally { acc.timings.conversation = elapsedMs(t0) }
  }

  /** One technique within its time limit; what it gives, or nothing (said in notes and degraded) when it fails. */
  async #runTechnique (tech: RecallTechnique, input: RecallInput, opts: { strict: boolean, signal?: AbortSignal }, acc: Accumulated): Promise<{ name: string, weight: number, candidates: RecallCandidates }> {
    const ctx = this.#ctx
    const limit = ctx.opts.techniqueTimeoutMs ?? 2000
    const t1 = performance.now()
    const none = { name: tech.name, weight: tech.weight ?? 1, candidates: {} }
    try {
      opts.signal?.throwIfAborted()
      // The service's own technique is not timed out: it is the recall every other one adds to.
      const c = tech === this.defaultTechnique ? await tech.run(input) : await within(tech.run(input), limit)
      if (c === TIMED_OUT) {
        acc.degraded.push(`technique:${tech.name}`)
        acc.notes[tech.name] = `timed out after ${limit} ms; the recall went on without it`
        ctx.log.warn({ technique: tech.name, timeout_ms: limit }, 'memory: a recall technique timed out; recall goes on without it')
        return none
      }
      // A technique that dropped out (no model, the model failed) says why and is not listed as run.
      if (c.note !== undefined) acc.notes[tech.name] = c.note
      else acc.ran.push(tech.name)
      acc.degraded.push(...(c.degraded ?? []))
      for (const [k, v] of Object.entries(c.timings_ms ?? {})) acc.timings[tech === this.defaultTechnique ? k : `${tech.name}.${k}`] = v
      return { ...none, candidates: c }
    } catch (err) {
      if (opts.strict && (err instanceof StoreUnavailableError || opts.signal?.aborted === true)) throw err
      if (err instanceof StoreUnavailableError) acc.degraded.push(err.role)
      else {
        acc.degraded.push(`technique:${tech.name}`)
        acc.notes[tech.name] = `failed: ${(err as Error).message}; the recall went on without it`
        ctx.log.warn({ technique: tech.name, err: (err as Error).message }, 'memory: a recall technique failed; recall goes on without it')
      }
      return none
    } finally { acc.timings[`technique:${tech.name}`] = elapsedMs(t1) }
  }

  /** Renders the bundle within the token budget, says what ran and what was missing, runs recall:after. */
  async #finish (query: RecallQuery, bundle: MemoryBundle, techniques: RecallTechnique[], acc: Accumulated): Promise<RecallResult> {
    const ctx = this.#ctx
    const t0 = performance.now()
    const context = renderBundle(bundle, query.token_budget ?? ctx.opts.tokenBudget)
    acc.timings.render = elapsedMs(t0)
    acc.timings.total = elapsedMs(acc.started)
    const result: RecallResult = { ...bundle, context, techniques: techniques.map(x => x.name).filter(n => acc.ran.includes(n)), timings_ms: acc.timings }
    if (acc.degraded.length > 0) result.degraded = [...new Set(acc.degraded)]
    if (Object.keys(acc.notes).length > 0) result.notes = acc.notes
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

/** What one recall gathers as its techniques run. */
interface Accumulated { started: number, timings: Record<string, number>, degraded: string[], notes: Record<string, string>, ran: string[] }

