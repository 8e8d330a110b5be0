// The memory service: episodic turns, semantic entities and facts, procedural strategies
// and tool invocations, goals and working memory, over whichever stores are registered.
// The stores are looked up per call, so the service never holds a store of a retired
// generation. Two faces: the chat-facing storeTurn/recall never reject (a memory failure
// must not fail a chat), the rest throws StoreUnavailableError / 4xx errors for the routes.
import { createHash } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Embedder } from '../../core/contracts/embedder.ts'
import {
  StoreUnavailableError,
  type EmbeddingRef, type Fact, type GraphStore, type KvStore, type MemoryService, type NewEntity, type NewFact,
  type NewGoal, type NewStrategy, type NewToolInvocation, type RecallResult, type RelationalStore, type Turn, type TemporalContext,
} from '../../core/contracts/memory.ts'
import type { Registry } from '../../core/registry.ts'
import type { Hooks } from '../../core/hooks.ts'
import { DEFAULT, GLOBAL, checkChannel, recallChannels } from './channels.ts'
import { MemoryErrors } from './errors.ts'
import { estimateTokens, renderBundle } from './render.ts'

export interface ServiceOptions {
  /** Embedder instance name; undefined: EMBEDDING_PROVIDER's plugin, else embed-hash, else the first. */
  embedder?: string
  embeddingProvider?: string
  tokenBudget: number
  topK: number
  workingMemoryTurns: number
  workingMemoryTtlSeconds: number
  /** Weight of recency against similarity when ranking turns (0-1). */
  recencyWeight: number
  recencyHalfLifeHours: number
}

type Role = 'relational' | 'graph' | 'kv'

/** SHA-256 of the claim with case, spacing and final punctuation normalised: the duplicate key. */
export function claimHash (claim: string): string {
  const norm = claim.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.!?\s]+$/u, '')
  return createHash('sha256').update(norm).digest('hex')
}

const wmKey = (channel: string, conversationId: string): string => `ch:${channel}:conv:${conversationId}`

export class MemoryServiceImpl implements MemoryService {
  readonly #registry: () => Registry
  readonly #hooks: () => Hooks
  readonly #log: FastifyBaseLogger
  readonly opts: ServiceOptions
  /** Set at start when stored vectors were made by another embedder. */
  embedderWarning: string | undefined
  #fallbackWarned = false

  constructor (registry: () => Registry, hooks: () => Hooks, log: FastifyBaseLogger, opts: ServiceOptions) {
    this.#registry = registry
    this.#hooks = hooks
    this.#log = log
    this.opts = opts
  }

  // ---- stores and embedder -----------------------------------------------------------

  get relational (): RelationalStore | undefined { return this.#registry().memory.relational.first() }
  get graph (): GraphStore | undefined { return this.#registry().memory.graph.first() }
  get kv (): KvStore | undefined { return this.#registry().memory.kv.first() }

  need (role: 'relational'): RelationalStore
  need (role: 'graph'): GraphStore
  need (role: 'kv'): KvStore
  need (role: Role): RelationalStore | GraphStore | KvStore {
    const s = role === 'relational' ? this.relational : role === 'graph' ? this.graph : this.kv
    if (s !== undefined) return s
    const plugin = role === 'relational' ? 'memory-sql' : role === 'graph' ? 'memory-graph-sql' : 'memory-kv or memory-redis'
    throw new MemoryErrors.NOT_CONFIGURED(`No ${role} memory store is loaded: enable ${plugin} in plugins.json.`)
  }

  embedder (): Embedder | undefined {
    const reg = this.#registry().embedders
    if (this.opts.embedder !== undefined) return reg.find(this.opts.embedder)
    const byProvider = this.opts.embeddingProvider === undefined ? undefined : reg.find(`embed-${this.opts.embeddingProvider}`)
    return byProvider ?? reg.find('embed-hash') ?? reg.first()
  }

  /**
   * A vector for the text, or undefined when no embedder works (memory still stores the text).
   * A model embedder that is not loaded yet (or failed to load) does not hold memory up:
   * embed-hash answers meanwhile and the model loads in the background.
   */
  async embed (text: string, signal?: AbortSignal): Promise<EmbeddingRef | undefined> {
    const primary = this.embedder()
    if (primary === undefined || text.trim() === '') return undefined
    const hash = this.#registry().embedders.find('embed-hash')
    const attempt = async (e: Embedder): Promise<EmbeddingRef | undefined> => {
      const [v] = await e.embed([text], signal)
      return v === undefined || v.every(x => x === 0) ? undefined : { vector: v, embedder: e.id }
    }
    const fallback = hash !== undefined && hash !== primary ? hash : undefined
    const state = primary.status?.().status
    if (fallback !== undefined && state !== undefined && state !== 'ready') {
      this.#warmUp(primary, state)
      return await attempt(fallback).catch(() => undefined)
    }
    try {
      return await attempt(primary)
    } catch (err) {
      if (!this.#fallbackWarned) {
        this.#fallbackWarned = true
        this.#log.warn({ embedder: primary.id, err: (err as Error).message }, `memory: embedder failed${fallback !== undefined ? '; using embed-hash until it works' : ''}`)
      }
      if (fallback === undefined) return undefined
      return await attempt(fallback).catch(() => undefined)
    }
  }

  #lastWarmUp = 0
  /** Starts loading a model embedder; after a failure, tries again at most once a minute. */
  #warmUp (e: Embedder, state: string): void {
    if (state === 'loading') return
    if (state !== 'not_loaded' && Date.now() - this.#lastWarmUp < 60_000) return
    this.#lastWarmUp = Date.now()
    e.embed(['warm up']).then(() => { this.#log.info({ embedder: e.id }, 'memory: embedder ready') }, (err: unknown) => {
      this.#log.warn({ embedder: e.id, err: (err as Error).message }, 'memory: embedder could not load; embed-hash keeps serving')
    })
  }

  /** Compares the active embedder with the ones that made the stored vectors. */
  async checkEmbedder (): Promise<string | undefined> {
    const e = this.embedder()
    if (e === undefined) return undefined
    const usage = [
      ...(await this.relational?.embedderUsage() ?? []),
      ...(await this.graph?.embedderUsage() ?? []),
    ].filter(u => u.embedder !== e.id || u.dimensions !== e.dimensions)
    if (usage.length === 0) { this.embedderWarning = undefined; return undefined }
    const seen = [...new Set(usage.map(u => `${u.embedder} (${u.dimensions}d)`))].join(', ')
    const n = usage.reduce((s, u) => s + u.count, 0)
    this.embedderWarning = `The embedder changed: ${n} stored vectors were made by ${seen} but the active embedder is ${e.id} (${e.dimensions}d). ` +
      'Recall ignores the old vectors. Fix: switch back to the old embedder, or reset memory (POST /api/memory/reset {"delete_memories": true} and delete old conversations) so everything is embedded anew.'
    return this.embedderWarning
  }

  // ---- episodic ---------------------------------------------------------------------

  async storeTurn (turn: { conversation_id: string, role: string, content: string, channel?: string, metadata?: Record<string, unknown> }): Promise<{ stored: boolean, turn?: Turn, error?: string }> {
    try {
      return { stored: true, turn: await this.addTurn(turn) }
    } catch (err) {
      return { stored: false, error: (err as Error).message }
    }
  }

  async addTurn (turn: { conversation_id: string, role: string, content: string, channel?: string, metadata?: Record<string, unknown> }): Promise<Turn> {
    const channel = checkChannel(turn.channel ?? DEFAULT)
    const store = this.need('relational')
    const embedding = await this.embed(turn.content)
    const stored = await store.addTurn({
      conversation_id: turn.conversation_id, role: turn.role, content: turn.content, channel,
      token_count: estimateTokens(turn.content), metadata: turn.metadata ?? {}, embedding,
    })
    // Working memory is a cache: losing it (kv down) loses nothing the relational store lacks.
    const kv = this.kv
    if (kv !== undefined) {
      await kv.pushList(wmKey(channel, turn.conversation_id), { id: stored.id, role: stored.role, content: stored.content, index: stored.index },
        { max: this.opts.workingMemoryTurns, ttlSeconds: this.opts.workingMemoryTtlSeconds })
        .catch((err: unknown) => { this.#log.debug({ err: (err as Error).message }, 'memory: working memory not updated') })
    }
    await this.#stored('turn', stored)
    return stored
  }

  async #stored (kind: string, item: unknown): Promise<void> {
    try {
      await this.#hooks().run('memory:stored', { kind, item })
    } catch (err) {
      this.#log.warn({ err, kind }, 'memory: a memory:stored hook failed')
    }
  }

  async workingMemory (channel: string, conversationId: string): Promise<Array<Record<string, unknown>>> {
    return await this.need('kv').getList(wmKey(checkChannel(channel), conversationId), { slide: true })
  }

  async deleteConversation (conversationId: string): Promise<Record<string, number>> {
    const store = this.need('relational')
    const turns = await store.conversationTurns(conversationId, 100_000)
    const res = await store.deleteConversation(conversationId)
    if (res === null) throw new MemoryErrors.NOT_FOUND(`No conversation "${conversationId}".`)
    let redisKeys = 0
    const kv = this.kv
    if (kv !== undefined) {
      for (const c of new Set(turns.map(t => t.channel))) redisKeys += await kv.delete(wmKey(c, conversationId)).then(ok => ok ? 1 : 0, () => 0)
    }
    await store.audit({ action: 'conversation.delete', target: conversationId, details: { ...res, redis_keys: redisKeys } }).catch(() => {})
    return { ...res, redis_keys: redisKeys }
  }

  // ---- semantic ---------------------------------------------------------------------

  async addEntity (e: Omit<NewEntity, 'embedding' | 'channel'> & { channel?: string }): Promise<{ entity: import('../../core/contracts/memory.ts').Entity, created: boolean }> {
    const channel = checkChannel(e.channel ?? DEFAULT)
    const embedding = await this.embed([e.name, e.description ?? ''].join(' ').trim())
    const res = await this.need('graph').upsertEntity({ ...e, channel, embedding })
    if (res.created) await this.#stored('entity', res.entity)
    return res
  }

  async addFact (f: { claim: string, confidence?: number, source?: Fact['source'], source_turn_id?: string | null, entity_ids?: string[], channel?: string, temporal_context?: TemporalContext | null, salience?: number }): Promise<{ fact: Fact, created: boolean }> {
    const res = await this.need('graph').addFact(await this.#newFact(f))
    if (res.created) await this.#stored('fact', res.fact)
    return res
  }

  async #newFact (f: Parameters<MemoryServiceImpl['addFact']>[0]): Promise<NewFact> {
    if (f.claim.trim() === '') throw new MemoryErrors.BAD_REQUEST('A fact needs a non-empty claim.')
    return {
      claim: f.claim, claim_hash: claimHash(f.claim), confidence: f.confidence, source: f.source ?? 'user_stated',
      source_turn_id: f.source_turn_id ?? null, entity_ids: f.entity_ids, channel: checkChannel(f.channel ?? DEFAULT),
      temporal_context: f.temporal_context ?? 'current', salience: f.salience, embedding: await this.embed(f.claim),
    }
  }

  /** Replaces a fact with a newer one; the old one stays, linked, out of recall. */
  async supersedeFact (oldId: string, next: Parameters<MemoryServiceImpl['addFact']>[0]): Promise<{ old: Fact, fact: Fact }> {
    const graph = this.need('graph')
    const old = await graph.fact(oldId)
    if (old === undefined) throw new MemoryErrors.NOT_FOUND(`No fact with id "${oldId}".`)
    const res = await graph.supersedeFact(oldId, await this.#newFact({ ...next, channel: next.channel ?? old.channel }))
    await this.#stored('fact', res.fact)
    return res
  }

  async relate (r: { source_id: string, target_id: string, type: string, confidence?: number, channel?: string }): Promise<import('../../core/contracts/memory.ts').Relationship> {
    const graph = this.need('graph')
    for (const id of [r.source_id, r.target_id]) if (await graph.entity(id) === undefined) throw new MemoryErrors.NOT_FOUND(`No entity with id "${id}".`)
    return await graph.relate({ ...r, channel: checkChannel(r.channel ?? DEFAULT) })
  }

  // ---- procedural and goals -----------------------------------------------------------

  async addStrategy (s: Omit<NewStrategy, 'embedding' | 'channel'> & { channel?: string }): Promise<import('../../core/contracts/memory.ts').Strategy> {
    const res = await this.need('relational').addStrategy({ ...s, channel: checkChannel(s.channel ?? DEFAULT), embedding: await this.embed(`${s.description} ${s.context_pattern}`) })
    await this.#stored('strategy', res)
    return res
  }

  async addGoal (g: Omit<NewGoal, 'embedding' | 'channel'> & { channel?: string }): Promise<import('../../core/contracts/memory.ts').Goal> {
    const res = await this.need('relational').addGoal({ ...g, channel: checkChannel(g.channel ?? DEFAULT), embedding: await this.embed(g.description) })
    await this.#stored('goal', res)
    return res
  }

  async recordToolInvocation (t: Omit<NewToolInvocation, 'channel'> & { channel?: string }): Promise<import('../../core/contracts/memory.ts').ToolInvocation> {
    return await this.need('relational').addToolInvocation({ ...t, channel: checkChannel(t.channel ?? DEFAULT) })
  }

  // ---- recall -------------------------------------------------------------------------

  /** Chat-facing: never rejects; stores that fail are listed in `degraded`. */
  async recall (query: { text: string, channel?: string, top_k?: number, conversation_id?: string, token_budget?: number }, signal?: AbortSignal): Promise<RecallResult> {
    try {
      return await this.recallBundle(query, { strict: false, signal })
    } catch (err) {
      return { ...emptyBundle(), context: '', techniques: [], timings_ms: {}, degraded: [(err as Error).message] }
    }
  }

  /** strict: a store that is down rejects (503 on the routes); otherwise it is skipped. */
  async recallBundle (query: { text: string, channel?: string, top_k?: number, conversation_id?: string, token_budget?: number }, opts: { strict: boolean, signal?: AbortSignal }): Promise<RecallResult> {
    const started = performance.now()
    const timings: Record<string, number> = {}
    const degraded: string[] = []
    const channel = checkChannel(query.channel ?? DEFAULT)
    const channels = recallChannels(channel)
    const topK = query.top_k ?? this.opts.topK
    const timed = async <T>(stage: string, role: Role | undefined, fn: () => Promise<T>, dflt: T): Promise<T> => {
      const t0 = performance.now()
      try {
        opts.signal?.throwIfAborted()
        return await fn()
      } catch (err) {
        if (opts.strict || !(err instanceof StoreUnavailableError)) throw err
        degraded.push(role ?? stage)
        return dflt
      } finally { timings[stage] = Math.round((performance.now() - t0) * 100) / 100 }
    }
    if (opts.strict) this.need('relational')
    const embedding = await timed('embed', undefined, async () => await this.embed(query.text, opts.signal), undefined)
    const rel = this.relational
    const graph = this.graph

    const [turns, facts, entities, strategies, goals] = await Promise.all([
      timed('turns', 'relational', async () => rel === undefined ? [] : await this.#rankTurns(rel, query, channels, topK, embedding), []),
      timed('facts', 'graph', async () => graph === undefined || embedding === undefined ? [] : (await graph.similarFacts({ embedding, channels, limit: topK })).filter(f => f.score > 0.05), []),
      timed('entities', 'graph', async () => graph === undefined || embedding === undefined ? [] : (await graph.similarEntities({ embedding, channels, limit: Math.min(topK, 5) })).filter(e => e.score > 0.2), []),
      timed('strategies', 'relational', async () => rel === undefined || embedding === undefined ? [] : (await rel.similarStrategies({ embedding, channels, limit: 3 })).filter(s => s.score > 0.2), []),
      timed('goals', 'relational', async () => rel === undefined ? [] : await rel.goals({ channels, status: 'active', limit: 5 }), []),
    ])
    const working = query.conversation_id === undefined || this.kv === undefined
      ? []
      : await timed('working_memory', 'kv', async () => await this.workingMemory(channel, query.conversation_id as string), [])

    const bundle = {
      relevant_turns: turns as unknown as Array<Record<string, unknown>>,
      entities: entities as unknown as Array<Record<string, unknown>>,
      facts: facts as unknown as Array<Record<string, unknown>>,
      strategies: strategies as unknown as Array<Record<string, unknown>>,
      active_goals: goals as unknown as Array<Record<string, unknown>>,
      user_context: { channel, channels, conversation_id: query.conversation_id ?? null, working_memory_turns: working.length },
    }
    const t0 = performance.now()
    const context = renderBundle(bundle, query.token_budget ?? this.opts.tokenBudget)
    timings.render = Math.round((performance.now() - t0) * 100) / 100
    timings.total = Math.round((performance.now() - started) * 100) / 100
    const result: RecallResult = { ...bundle, context, techniques: [embedding === undefined ? 'recency' : 'vector_recency'], timings_ms: timings }
    if (degraded.length > 0) result.degraded = [...new Set(degraded)]
    if (this.embedderWarning !== undefined) result.warning = this.embedderWarning
    try {
      const after = await this.#hooks().run('recall:after', { query: query.text, bundle: result })
      return after.bundle
    } catch (err) {
      this.#log.warn({ err }, 'memory: a recall:after hook failed')
      return result
    }
  }

  /**
   * Similarity blended with recency: score = (1-w)·cosine + w·2^(-age/half-life).
   * The current conversation's latest turns are left out: they are already in the chat history.
   */
  async #rankTurns (rel: RelationalStore, query: { conversation_id?: string }, channels: string[], topK: number, embedding: EmbeddingRef | undefined): Promise<Array<Record<string, unknown>>> {
    const exclude = new Set<string>()
    if (query.conversation_id !== undefined) {
      for (const t of await rel.conversationTurns(query.conversation_id, this.opts.workingMemoryTurns)) exclude.add(t.id)
    }
    const now = Date.now()
    const w = this.opts.recencyWeight
    const recency = (ts: string): number => 2 ** (-(now - Date.parse(ts)) / (this.opts.recencyHalfLifeHours * 3_600_000))
    const candidates = embedding === undefined
      ? (await rel.recentTurns(channels, topK + exclude.size)).map(t => ({ ...t, similarity: null as number | null }))
      : (await rel.similarTurns({ embedding, channels, limit: topK * 3 + exclude.size })).filter(t => t.score > 0.05).map(({ score, ...t }) => ({ ...t, similarity: score as number | null }))
    return candidates
      .filter(t => !exclude.has(t.id))
      .map(t => ({ ...t, score: Math.round(((1 - w) * (t.similarity ?? 0) + w * recency(t.timestamp)) * 10_000) / 10_000 }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK)
  }

  // ---- channels, stats, reset -----------------------------------------------------------

  async channelCounts (): Promise<Record<string, Record<string, number>>> {
    const [rel, graph] = await Promise.all([this.need('relational').countByChannel(), this.graph?.countByChannel() ?? {}])
    const out: Record<string, Record<string, number>> = {}
    for (const src of [rel, graph]) for (const [ch, counts] of Object.entries(src)) Object.assign(out[ch] ??= {}, counts)
    return out
  }

  async listChannels (): Promise<Array<{ name: string, is_default: boolean, created_at: string, item_counts: Record<string, number> }>> {
    const [channels, counts] = await Promise.all([this.need('relational').channels(), this.channelCounts()])
    const names = new Map(channels.map(c => [c.name, c.created_at]))
    for (const ch of Object.keys(counts)) if (!names.has(ch)) names.set(ch, new Date(0).toISOString())
    return [...names].sort(([a], [b]) => a.localeCompare(b)).map(([name, createdAt]) => {
      const c = counts[name] ?? {}
      return { name, is_default: name === DEFAULT, created_at: createdAt, item_counts: { turns: c.turns ?? 0, entities: c.entities ?? 0, facts: c.facts ?? 0, strategies: c.strategies ?? 0, goals: c.goals ?? 0 } }
    })
  }

  async createChannel (name: string): Promise<{ name: string, created_at: string }> {
    const store = this.need('relational')
    const res = await store.createChannel(checkChannel(name))
    if (!res.created) throw new MemoryErrors.CHANNEL_EXISTS(name)
    await store.audit({ action: 'channel.create', target: name, channel: name }).catch(() => {})
    return res.channel
  }

  /** Removes the channel's data from every store; checks every store first so a down store leaves nothing half-deleted. */
  async deleteChannel (name: string): Promise<Record<string, number>> {
    checkChannel(name)
    if (name === GLOBAL) throw new MemoryErrors.BAD_REQUEST('The _global channel cannot be deleted.')
    const rel = this.need('relational')
    const graph = this.graph
    const kv = this.kv
    for (const [role, s] of [['relational', rel], ['graph', graph], ['kv', kv]] as const) {
      if (s === undefined) continue
      const h = await s.health()
      if (h.status !== 'healthy') throw new StoreUnavailableError(role, s.backend, new Error(h.error ?? 'unhealthy'))
    }
    const known = (await rel.channels()).some(c => c.name === name) || (await this.channelCounts())[name] !== undefined
    if (!known) throw new MemoryErrors.NOT_FOUND(`No channel "${name}". GET /api/memory/channels lists them.`)
    const r = await rel.deleteChannel(name)
    // _default is emptied, not removed: memory without a channel still goes there.
    if (name === DEFAULT) await rel.createChannel(DEFAULT)
    const g = graph === undefined ? {} : await graph.deleteChannel(name)
    const redisKeys = kv === undefined ? 0 : await kv.deletePrefix(`ch:${name}:`)
    const sum = (o: Record<string, number>): number => Object.values(o).reduce((a, b) => a + b, 0)
    const graphOnSql = graph !== undefined && graph.backend === rel.backend
    const deleted = {
      turns: r.turns ?? 0, entities: g.entities ?? 0, facts: g.facts ?? 0, strategies: r.strategies ?? 0, goals: r.goals ?? 0,
      conversations: r.conversations ?? 0, postgres_rows: sum(r) + (graphOnSql ? sum(g) : 0), redis_keys: redisKeys,
    }
    await rel.audit({ action: 'channel.delete', target: name, channel: name, details: deleted }).catch(() => {})
    return deleted
  }

  async stats (): Promise<{ totals: Record<string, number>, by_channel: Record<string, Record<string, number>> }> {
    const counts = await this.channelCounts()
    const totals = { entities: 0, facts: 0, strategies: 0, turns: 0 }
    const byChannel: Record<string, Record<string, number>> = {}
    for (const [ch, c] of Object.entries(counts)) {
      const row = { entities: c.entities ?? 0, facts: c.facts ?? 0, strategies: c.strategies ?? 0, turns: c.turns ?? 0 }
      byChannel[ch] = row
      for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += row[k]
    }
    return { totals, by_channel: byChannel }
  }

  async reset (deleteMemories: boolean): Promise<{ success: true, conversations_reset: number, memories_deleted: number }> {
    const rel = this.need('relational')
    const graph = deleteMemories ? this.need('graph') : undefined
    const conversationsReset = await rel.resetConsolidation()
    let memoriesDeleted = 0
    if (deleteMemories && graph !== undefined) memoriesDeleted = await graph.deleteAll() + await rel.deleteMemories()
    await rel.audit({ action: 'memory.reset', details: { delete_memories: deleteMemories, conversations_reset: conversationsReset, memories_deleted: memoriesDeleted } }).catch(() => {})
    return { success: true, conversations_reset: conversationsReset, memories_deleted: memoriesDeleted }
  }
}

export const emptyBundle = (): RecallResult => ({ relevant_turns: [], entities: [], facts: [], strategies: [], active_goals: [], user_context: {}, context: '', techniques: [], timings_ms: {} })
