// The memory service: episodic turns, semantic entities and facts, procedural strategies
// and tool invocations, goals and working memory, over whichever stores are registered.
// The stores are looked up per call, so the service never holds a store of a retired
// generation. Two faces: the chat-facing storeTurn/recall never reject (a memory failure
// must not fail a chat), the rest throws StoreUnavailableError / 4xx errors for the routes.
import { createHash } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Embedder } from '@agentd/sdk/contracts/embedder'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { EmbeddingRef, Fact, GraphStore, KvStore, NewEntity, NewFact, NewGoal, NewLearnedStrategy, NewToolInvocation, RelationalStore, ReembedSupport, Turn, TemporalContext } from '@agentd/sdk/contracts/memory-stores'
import type { MemoryService, RecallResult } from '@agentd/sdk/contracts/memory-service'
import type { RecallCandidates, RecallInput, RecallTechnique } from '@agentd/sdk/contracts/recall'
import type { Registry } from '@agentd/sdk'
import type { Hooks } from '@agentd/sdk'
import { DEFAULT, GLOBAL, checkChannel, recallChannels } from './channels.ts'
import { MemoryErrors } from './errors.ts'
import { estimateTokens, renderBundle } from './render.ts'
import { mergeCandidates, partLimits, vectorRecency } from './recall.ts'
import { Reembedder, type ReembedProgress } from './reembed.ts'

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
  /** Rows per batch of the re-embed job. */
  reembedBatchSize?: number
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

  readonly reembedder: Reembedder
  /** Used when no recall technique is registered (the memory plugin registers this one). */
  readonly defaultTechnique: RecallTechnique

  constructor (registry: () => Registry, hooks: () => Hooks, log: FastifyBaseLogger, opts: ServiceOptions) {
    this.#registry = registry
    this.#hooks = hooks
    this.#log = log
    this.opts = opts
    this.defaultTechnique = vectorRecency(this)
    this.reembedder = new Reembedder({
      embedder: () => this.embedder(),
      stores: () => {
        const out: Array<{ role: string, store: ReembedSupport }> = []
        if (this.relational !== undefined) out.push({ role: 'relational', store: this.relational })
        if (this.graph !== undefined) out.push({ role: 'graph', store: this.graph })
        return out
      },
      pending: async e => (await this.#mismatched(e)).reduce((n, u) => n + u.count, 0),
      batchSize: opts.reembedBatchSize ?? 64,
      log,
      finished: async p => {
        await this.relational?.audit({ action: 'memory.reembed', details: { ...p } }).catch(() => {})
        if (p.status === 'done') await this.checkEmbedder().catch(() => {})
      },
    })
  }

  // ---- stores and embedder -----------------------------------------------------------

  get relational (): RelationalStore | undefined { return this.#registry().relationalStores.first() }
  get graph (): GraphStore | undefined { return this.#registry().graphStores.first() }
  get kv (): KvStore | undefined { return this.#registry().kvStores.first() }

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

  async #mismatched (e: Embedder): Promise<Array<{ embedder: string, dimensions: number, count: number }>> {
    return [
      ...(await this.relational?.embedderUsage() ?? []),
      ...(await this.graph?.embedderUsage() ?? []),
    ].filter(u => u.embedder !== e.id || u.dimensions !== e.dimensions)
  }

  /** Compares the active embedder with the ones that made the stored vectors. */
  async checkEmbedder (): Promise<string | undefined> {
    const e = this.embedder()
    if (e === undefined) return undefined
    const usage = await this.#mismatched(e)
    if (usage.length === 0) { this.embedderWarning = undefined; return undefined }
    const seen = [...new Set(usage.map(u => `${u.embedder} (${u.dimensions}d)`))].join(', ')
    const n = usage.reduce((s, u) => s + u.count, 0)
    this.embedderWarning = `The embedder changed: ${n} stored vectors were made by ${seen} but the active embedder is ${e.id} (${e.dimensions}d). ` +
      'Recall ignores the old vectors until they are re-embedded. Fix: POST /api/memory/reembed (it also runs by itself at start unless the memory option auto_reembed is false; ' +
      'progress in GET /api/health?include_memory=true under memory.embedder.reembed), or switch back to the old embedder.'
    return this.embedderWarning
  }

  /** Starts re-embedding stored vectors with the active embedder (background); the progress now. */
  startReembed (): ReembedProgress {
    const e = this.embedder()
    if (e === undefined) throw new MemoryErrors.NOT_CONFIGURED('No embedder is loaded: enable embed-hash, embed-local or embed-openai in plugins.json.')
    this.need('relational')
    return this.reembedder.start(e)
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

  async addEntity (e: Omit<NewEntity, 'embedding' | 'channel'> & { channel?: string }): Promise<{ entity: import('@agentd/sdk/contracts/memory-stores').Entity, created: boolean }> {
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
    await this.relational?.audit({ action: 'fact.supersede', target: oldId, channel: res.fact.channel, details: { superseded_by_id: res.fact.id } }).catch(() => {})
    await this.#stored('fact', res.fact)
    return res
  }

  async relate (r: { source_id: string, target_id: string, type: string, confidence?: number, channel?: string }): Promise<import('@agentd/sdk/contracts/memory-stores').Relationship> {
    const graph = this.need('graph')
    for (const id of [r.source_id, r.target_id]) if (await graph.entity(id) === undefined) throw new MemoryErrors.NOT_FOUND(`No entity with id "${id}".`)
    return await graph.relate({ ...r, channel: checkChannel(r.channel ?? DEFAULT) })
  }

  // ---- procedural and goals -----------------------------------------------------------

  async addStrategy (s: Omit<NewLearnedStrategy, 'embedding' | 'channel'> & { channel?: string }): Promise<import('@agentd/sdk/contracts/memory-stores').LearnedStrategy> {
    const res = await this.need('relational').addStrategy({ ...s, channel: checkChannel(s.channel ?? DEFAULT), embedding: await this.embed(`${s.description} ${s.context_pattern}`) })
    await this.#stored('strategy', res)
    return res
  }

  async addGoal (g: Omit<NewGoal, 'embedding' | 'channel'> & { channel?: string }): Promise<import('@agentd/sdk/contracts/memory-stores').Goal> {
    const res = await this.need('relational').addGoal({ ...g, channel: checkChannel(g.channel ?? DEFAULT), embedding: await this.embed(g.description) })
    await this.#stored('goal', res)
    return res
  }

  async recordToolInvocation (t: Omit<NewToolInvocation, 'channel'> & { channel?: string }): Promise<import('@agentd/sdk/contracts/memory-stores').ToolInvocation> {
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

  /**
   * The service's own vector+recency technique, then those other plugins registered. Not
   * registered itself: two memory instances would each run the other's copy too.
   */
  #techniques (): RecallTechnique[] {
    return [this.defaultTechnique, ...this.#registry().recallTechniques.values()]
  }

  /** strict: a store that is down rejects (503 on the routes); otherwise it is skipped. */
  async recallBundle (query: { text: string, channel?: string, top_k?: number, conversation_id?: string, token_budget?: number }, opts: { strict: boolean, signal?: AbortSignal }): Promise<RecallResult> {
    const started = performance.now()
    const timings: Record<string, number> = {}
    const degraded: string[] = []
    const channel = checkChannel(query.channel ?? DEFAULT)
    const channels = recallChannels(channel)
    const topK = query.top_k ?? this.opts.topK
    const ms = (t0: number): number => Math.round((performance.now() - t0) * 100) / 100
    if (opts.strict) this.need('relational')
    let t0 = performance.now()
    const embedding = await this.embed(query.text, opts.signal)
    timings.embed = ms(t0)

    const input: RecallInput = { query: query.text, channel, channels, top_k: topK, conversation_id: query.conversation_id, embedding, signal: opts.signal, strict: opts.strict }
    const ran: string[] = []
    const techniques = this.#techniques()
    const results = await Promise.all(techniques.map(async (tech): Promise<RecallCandidates> => {
      const t1 = performance.now()
      try {
        opts.signal?.throwIfAborted()
        const c = await tech.run(input)
        ran.push(tech.name)
        degraded.push(...(c.degraded ?? []))
        for (const [k, v] of Object.entries(c.timings_ms ?? {})) timings[tech === this.defaultTechnique ? k : `${tech.name}.${k}`] = v
        return c
      } catch (err) {
        if (opts.strict) throw err
        if (err instanceof StoreUnavailableError) degraded.push(err.role)
        else {
          degraded.push(`technique:${tech.name}`)
          this.#log.warn({ technique: tech.name, err: (err as Error).message }, 'memory: a recall technique failed; recall goes on without it')
        }
        return {}
      } finally { timings[`technique:${tech.name}`] = ms(t1) }
    }))
    const parts = mergeCandidates(results, partLimits(topK))

    let working: unknown[] = []
    if (query.conversation_id !== undefined && this.kv !== undefined) {
      t0 = performance.now()
      try {
        working = await this.workingMemory(channel, query.conversation_id)
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
    const context = renderBundle(bundle, query.token_budget ?? this.opts.tokenBudget)
    timings.render = ms(t0)
    timings.total = ms(started)
    const result: RecallResult = { ...bundle, context, techniques: techniques.map(x => x.name).filter(n => ran.includes(n)), timings_ms: timings }
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
    // One transaction when both SQL stores share a database; otherwise store by store
    // (every store was checked above, so a failure half-way is a failure mid-call).
    const both = graph === undefined ? undefined : await rel.deleteChannelWith?.(name, graph)
    const r = both?.relational ?? await rel.deleteChannel(name)
    const g = both?.graph ?? (graph === undefined ? {} : await graph.deleteChannel(name))
    // _default is emptied, not removed: memory without a channel still goes there.
    if (name === DEFAULT) await rel.createChannel(DEFAULT)
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

  async stats (): Promise<{ totals: Record<string, number>, by_channel: Record<string, Record<string, number>>, reembed: ReembedProgress }> {
    const counts = await this.channelCounts()
    const totals = { entities: 0, facts: 0, strategies: 0, turns: 0 }
    const byChannel: Record<string, Record<string, number>> = {}
    for (const [ch, c] of Object.entries(counts)) {
      const row = { entities: c.entities ?? 0, facts: c.facts ?? 0, strategies: c.strategies ?? 0, turns: c.turns ?? 0 }
      byChannel[ch] = row
      for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += row[k]
    }
    return { totals, by_channel: byChannel, reembed: this.reembedder.progress() }
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
