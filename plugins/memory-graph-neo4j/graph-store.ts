// The graph memory store on Neo4j 5 (neo4j-driver): entities, facts, ABOUT links,
// SUPERSEDES links and typed RELATES_TO relationships, every node carrying its channel.
// Parameterised Cypher only (cypher.ts). Vector indexes per vector size and full-text
// indexes are created idempotently; a server that is away gives StoreUnavailableError,
// and a circuit breaker skips it for a cool-down so chats do not wait on it.
import { randomUUID } from 'node:crypto'
import neo4j from 'neo4j-driver'
import { Breaker, EntityConflictError, StoreUnavailableError, graphWalkLimit, normalize } from '@agentd/sdk/kits/memory'
import type { BackfillState, CopiedKind, CopyKind, DeleteCounts, EmbedderUsage, EmbeddingRef, Entity, EntityGraph, EntityPatch, Fact, FactPatch, Goal, GraphStore, LearnedStrategy, NewEntity, NewFact, PageResult, Relationship, StaleEmbedding, StaleQuery, StoreHealth, Turn, VectorQuery } from '@agentd/sdk/contracts/memory-stores'
import { isUnavailable, type CypherDriver, type CypherTx, type Params } from './driver.ts'
import { Q } from './cypher.ts'
import { moveToChannel, mergeAliases } from './promote.ts'
import { fulltextQuery, num, parseProperties, toEntity, toFact, type Row } from './rows.ts'
import { CQ, goalParams, strategyParams, toTurn, turnParams } from './copies.ts'
import { ENTITY_TEXT_INDEX, FACT_TEXT_INDEX, SCHEMA, TURN_TEXT_INDEX, vectorIndexName, vectorIndexStatement, vectorProperty, type VectorKind } from './schema.ts'

export interface Neo4jGraphStoreOptions {
  driver: CypherDriver
  /** The database to use; undefined: the server's default. */
  database?: string
  /** Circuit breaker cool-down after a connection failure; 0: never skip. */
  cooldownMs?: number
  /** How long to wait for a new index to come online. */
  indexWaitSeconds?: number
  /** The clock the breaker reads (tests move it). */
  now?: () => number
}

const int = (n: number): ReturnType<typeof neo4j.int> => neo4j.int(Math.trunc(n))
/** An optional id or name: empty means none. */
const nonEmpty = (v: string | null | undefined): string | null => v === undefined || v === null || v === '' ? null : v
const notFound = (what: string): Error => Object.assign(new Error(what), { statusCode: 404, code: 'AGENT_ERR_MEMORY_NOT_FOUND' })

/** Every kind of node with a vector, in the order re-embedding walks them, and its statements. */
const VECTOR_KINDS = ['entity', 'fact', 'turn', 'goal', 'strategy'] as const satisfies readonly VectorKind[]
const VECTOR_Q: Record<VectorKind, { stale: string, dims: string, set: string }> = {
  entity: { stale: Q.staleEntities, dims: Q.entityDims, set: Q.setEntityVector },
  fact: { stale: Q.staleFacts, dims: Q.factDims, set: Q.setFactVector },
  turn: { stale: CQ.staleTurns, dims: CQ.turnDims, set: CQ.setTurnVector },
  goal: { stale: CQ.staleGoals, dims: CQ.goalDims, set: CQ.setGoalVector },
  strategy: { stale: CQ.staleStrategies, dims: CQ.strategyDims, set: CQ.setStrategyVector },
}

/** How many nearest neighbours to ask the index for before the channel filter. */
const candidates = (limit: number): number => Math.min(1000, Math.max(limit * 10, 100))

export class Neo4jGraphStore implements GraphStore {
  readonly backend = 'neo4j'
  readonly #driver: CypherDriver
  readonly #database: string | undefined
  readonly #breaker: Breaker
  readonly #indexWait: number
  #schema: Promise<void> | undefined
  readonly #vectorIndexes = new Map<string, Promise<void>>()

  constructor (opts: Neo4jGraphStoreOptions) {
    this.#driver = opts.driver
    this.#database = opts.database
    this.#breaker = new Breaker(opts.cooldownMs ?? 5000, opts.now)
    this.#indexWait = opts.indexWaitSeconds ?? 60
  }

  // ---- running statements --------------------------------------------------------------

  async #session<T> (mode: 'READ' | 'WRITE', work: (tx: CypherTx) => Promise<T>): Promise<T> {
    const session = this.#driver.session({ ...(this.#database === undefined ? {} : { database: this.#database }), defaultAccessMode: mode })
    try {
      return mode === 'READ' ? await session.executeRead(work) : await session.executeWrite(work)
    } finally {
      await session.close().catch(() => {})
    }
  }

  /** Runs `work` after the schema is in place; connection failures become StoreUnavailableError and open the breaker. */
  async #run<T> (mode: 'READ' | 'WRITE', work: (tx: CypherTx) => Promise<T>): Promise<T> {
    const blocked = this.#breaker.blocked()
    if (blocked !== undefined) throw new StoreUnavailableError('graph', this.backend, blocked)
    try {
      await this.#ready()
      const out = await this.#session(mode, work)
      this.#breaker.succeeded()
      return out
    } catch (err) {
      if (err instanceof StoreUnavailableError) throw err
      if (isUnavailable(err)) {
        this.#breaker.failed(err)
        throw new StoreUnavailableError('graph', this.backend, err)
      }
      throw err
    }
  }

  /** Constraints and indexes, once; a failure is retried by the next call. */
  async #ready (): Promise<void> {
    this.#schema ??= (async () => {
      // Schema commands cannot share a transaction with each other's data: one each.
      for (const statement of SCHEMA) await this.#session('WRITE', async tx => { await tx.run(statement, {}) })
    })().catch((err: unknown) => { this.#schema = undefined; throw err })
    await this.#schema
  }

  /** The vector index for this kind and size, created on first use and awaited online. */
  async #vectorIndex (kind: VectorKind, dims: number): Promise<string> {
    const name = vectorIndexName(kind, dims)
    let p = this.#vectorIndexes.get(name)
    if (p === undefined) {
      p = (async () => {
        await this.#session('WRITE', async tx => { await tx.run(vectorIndexStatement(kind, dims), {}) })
        await this.#session('READ', async tx => { await tx.run(Q.awaitIndex, { name, seconds: int(this.#indexWait) }) })
      })().catch((err: unknown) => { this.#vectorIndexes.delete(name); throw err })
      this.#vectorIndexes.set(name, p)
    }
    await p
    return name
  }

  /** The properties a vector is stored in: its embedder, its size, and `vec_<size>` (unit length). */
  #vectorProps (v: EmbeddingRef | undefined | null, oldDims?: number | null): Params {
    const out: Params = {}
    if (oldDims !== undefined && oldDims !== null && oldDims !== v?.vector.length) out[vectorProperty(oldDims)] = null
    if (v === undefined || v === null) return { ...out, embedder: null, embedding_dims: null }
    return { ...out, embedder: v.embedder, embedding_dims: int(v.vector.length), [vectorProperty(v.vector.length)]: normalize(v.vector) }
  }

  async init (): Promise<void> { await this.#run('READ', async tx => { await tx.run(Q.ping, {}) }) }

  async health (): Promise<StoreHealth> {
    try {
      await this.init()
      return { status: 'healthy', backend: this.backend }
    } catch (err) {
      return { status: 'unhealthy', backend: this.backend, error: (err as Error).message }
    }
  }

  // ---- entities ------------------------------------------------------------------------

  async upsertEntity (e: NewEntity): Promise<{ entity: Entity, created: boolean }> {
    if (e.embedding !== undefined) await this.#run('WRITE', async () => await this.#vectorIndex('entity', e.embedding?.vector.length ?? 0))
    return await this.#run('WRITE', async tx => {
      const id = randomUUID()
      // The MERGE locks the node for the rest of the transaction: the read-merge-write of
      // aliases and properties below cannot interleave with another upsert of the same entity.
      const m = (await tx.run(Q.mergeEntity, { id, channel: e.channel, name: e.name, type: e.type, salience: e.salience ?? 0.5 })).records[0].toObject() as Row
      const created = m.created === true
      const properties = JSON.stringify({ ...parseProperties(m.properties), ...(e.properties ?? {}) })
      const r = await tx.run(Q.updateEntity, {
        id: String(m.id), ...mergeAliases(m.aliases, e.aliases ?? []), properties, description: e.description ?? null, conversation_id: nonEmpty(e.conversation_id),
        vector: created ? this.#vectorProps(e.embedding) : {},
      })
      return { entity: toEntity(r.records[0].get('entity') as Row), created }
    })
  }

  async entity (id: string): Promise<Entity | undefined> {
    return await this.#run('READ', async tx => {
      const r = await tx.run(Q.entity, { id })
      return r.records[0] === undefined ? undefined : toEntity(r.records[0].get('entity') as Row)
    })
  }

  async entities (q: { channel?: string, exclude_channel?: string, search?: string, type?: string, min_salience?: number, offset: number, limit: number }): Promise<PageResult<Entity>> {
    const p = { channel: q.channel ?? null, exclude_channel: q.exclude_channel ?? null, min_salience: q.min_salience ?? 0, type: q.type ?? null, search: q.search ?? null }
    return await this.#run('READ', async tx => {
      const total = num((await tx.run(Q.countEntities, p)).records[0].get('total'))
      const r = await tx.run(Q.listEntities, { ...p, offset: int(q.offset), limit: int(q.limit) })
      return { items: r.records.map(x => toEntity(x.get('entity') as Row)), total }
    })
  }

  async findEntities (q: { channels: string[], name: string, limit: number }): Promise<Entity[]> {
    const name = q.name.trim()
    if (q.channels.length === 0 || name === '') return []
    return await this.#run('READ', async tx => (await tx.run(Q.findEntities, { channels: q.channels, name, limit: int(q.limit) })).records
      .map(x => toEntity(x.get('entity') as Row)))
  }

  async updateEntity (id: string, p: EntityPatch): Promise<Entity | undefined> {
    if (p.embedding !== undefined) await this.#run('WRITE', async () => await this.#vectorIndex('entity', p.embedding?.vector.length ?? 0))
    return await this.#run('WRITE', async tx => {
      const cur = (await tx.run(Q.entityForUpdate, { id })).records[0]?.toObject() as Row | undefined
      if (cur === undefined) return undefined
      const name = p.name ?? String(cur.name)
      const type = p.type ?? String(cur.type)
      const clash = (await tx.run(Q.entityClash, { id, channel: cur.channel, name, type })).records[0]
      if (clash !== undefined) {
        const other = String(clash.get('id'))
        throw new EntityConflictError(other, `Entity ${other} in channel "${String(cur.channel)}" is already called "${name}" (${type}); delete one of them or give this one another name.`)
      }
      const aliases = mergeAliases(p.aliases ?? [], [])
      const r = await tx.run(Q.updateEntityFields, {
        id, name, type, set_aliases: p.aliases !== undefined, ...aliases, set_description: p.description !== undefined, description: p.description ?? null,
        set_properties: p.properties !== undefined, properties: JSON.stringify(p.properties ?? {}), salience: p.salience ?? null,
        vector: p.embedding === undefined ? {} : this.#vectorProps(p.embedding, cur.dims === null ? null : num(cur.dims)),
      })
      return toEntity(r.records[0].get('entity') as Row)
    })
  }

  async deleteEntity (id: string): Promise<boolean> {
    return await this.#run('WRITE', async tx => num((await tx.run(Q.deleteEntity, { id })).records[0].get('n')) > 0)
  }

  async similarEntities (q: VectorQuery): Promise<Array<Entity & { score: number }>> {
    return await this.#nearest('entity', q, Q.nearestEntities, Q.scanEntities, 'entity', toEntity)
  }

  /** Keyword search over names, aliases and descriptions through the full-text index. */
  async searchEntities (q: { text: string, channels: string[], limit: number }): Promise<Array<Entity & { score: number }>> {
    const query = fulltextQuery(q.text)
    if (query === undefined || q.channels.length === 0) return []
    return await this.#run('READ', async tx => {
      const r = await tx.run(Q.searchEntities, { index: ENTITY_TEXT_INDEX, query, channels: q.channels, limit: int(q.limit) })
      return r.records.map(x => ({ ...toEntity(x.get('entity') as Row), score: num(x.get('score')) }))
    })
  }

  /**
   * Nearest by the vector index, then (when the channel filter left fewer than asked) an
   * exact scan of the channels. Neo4j's vector.similarity.cosine is (1 + cos) / 2; the contract wants cos.
   */
  async #nearest<T extends { id: string }> (kind: VectorKind, q: VectorQuery & { include_superseded?: boolean }, indexed: string, scan: string, key: string, map: (r: Row) => T): Promise<Array<T & { score: number }>> {
    const dims = q.embedding.vector.length
    if (q.channels.length === 0 || q.limit <= 0 || dims === 0) return []
    const index = await this.#run('WRITE', async () => await this.#vectorIndex(kind, dims))
    const vector = normalize(q.embedding.vector)
    const p = { channels: q.channels, embedder: q.embedding.embedder, vector, limit: int(q.limit), property: vectorProperty(dims), ...(kind === 'fact' ? { include_superseded: q.include_superseded === true } : {}) }
    const rows = await this.#run(kind === 'fact' ? 'WRITE' : 'READ', async tx => {
      let records = (await tx.run(indexed, { ...p, index, k: int(candidates(q.limit)) })).records
      if (records.length < q.limit) records = (await tx.run(scan, { ...p, dims: int(dims) })).records
      const out = records.map(x => ({ ...map(x.get(key) as Row), score: 2 * num(x.get('score')) - 1 }))
      if (kind === 'fact' && out.length > 0) await tx.run(Q.touchFacts, { ids: out.map(f => f.id) })
      return out
    })
    return rows
  }

  // ---- facts ---------------------------------------------------------------------------

  async #insertFact (tx: CypherTx, f: NewFact): Promise<{ id: string, created: boolean }> {
    const r = (await tx.run(Q.mergeFact, {
      id: randomUUID(), channel: f.channel, claim_hash: f.claim_hash, claim: f.claim, confidence: f.confidence ?? 0.8, source: f.source,
      source_turn_id: f.source_turn_id ?? null, salience: f.salience ?? 0.5, temporal_context: f.temporal_context ?? null,
      flagged_for_review: f.flagged_for_review === true, subject_id: nonEmpty(f.subject_id), attribute: nonEmpty(f.attribute), value: f.value ?? null,
      conversation_id: nonEmpty(f.conversation_id), vector: this.#vectorProps(f.embedding),
    })).records[0]
    const id = String(r.get('id'))
    if ((f.entity_ids ?? []).length > 0) await tx.run(Q.linkFact, { id, entity_ids: f.entity_ids })
    return { id, created: r.get('created') === true }
  }

  async #fact (tx: CypherTx, id: string): Promise<Fact | undefined> {
    const r = await tx.run(Q.fact, { id })
    return r.records[0] === undefined ? undefined : toFact(r.records[0].get('fact') as Row)
  }

  async addFact (f: NewFact): Promise<{ fact: Fact, created: boolean }> {
    if (f.embedding !== undefined) await this.#run('WRITE', async () => await this.#vectorIndex('fact', f.embedding?.vector.length ?? 0))
    return await this.#run('WRITE', async tx => {
      const { id, created } = await this.#insertFact(tx, f)
      return { fact: await this.#fact(tx, id) as Fact, created }
    })
  }

  async supersedeFact (oldId: string, next: NewFact): Promise<{ old: Fact, fact: Fact }> {
    if (next.embedding !== undefined) await this.#run('WRITE', async () => await this.#vectorIndex('fact', next.embedding?.vector.length ?? 0))
    return await this.#run('WRITE', async tx => {
      if (await this.#fact(tx, oldId) === undefined) throw notFound(`No fact with id "${oldId}".`)
      const { id } = await this.#insertFact(tx, next)
      // Thrown inside the transaction: the driver rolls it back, so nothing was written.
      if (id === oldId) throw Object.assign(new Error('The new claim is the same as the fact it would supersede; change the claim.'), { statusCode: 400, code: 'AGENT_ERR_MEMORY_BAD_REQUEST' })
      await tx.run(Q.supersede, { old_id: oldId, new_id: id })
      return { old: await this.#fact(tx, oldId) as Fact, fact: await this.#fact(tx, id) as Fact }
    })
  }

  async fact (id: string): Promise<Fact | undefined> {
    return await this.#run('READ', async tx => await this.#fact(tx, id))
  }

  async findFact (q: { channels: string[], claim_hash: string }): Promise<Fact | undefined> {
    if (q.channels.length === 0) return undefined
    return await this.#run('READ', async tx => {
      const r = await tx.run(Q.findFact, { channels: q.channels, claim_hash: q.claim_hash })
      return r.records[0] === undefined ? undefined : toFact(r.records[0].get('fact') as Row)
    })
  }

  async currentFacts (q: { channels: string[], subject_id: string, attribute: string }): Promise<Fact[]> {
    if (q.channels.length === 0) return []
    return await this.#run('READ', async tx => (await tx.run(Q.currentFacts, { channels: q.channels, subject_id: q.subject_id, attribute: q.attribute })).records
      .map(x => toFact(x.get('fact') as Row)))
  }

  async facts (q: { channel?: string, exclude_channel?: string, search?: string, min_confidence?: number, include_superseded?: boolean, flagged?: boolean, min_access_count?: number, min_conversations?: number, offset: number, limit: number }): Promise<PageResult<Fact>> {
    const p = {
      channel: q.channel ?? null, exclude_channel: q.exclude_channel ?? null, search: q.search ?? null, min_confidence: q.min_confidence ?? 0,
      include_superseded: q.include_superseded === true, flagged: q.flagged ?? null, min_access_count: int(q.min_access_count ?? 0), min_conversations: int(q.min_conversations ?? 0),
    }
    return await this.#run('READ', async tx => {
      const total = num((await tx.run(Q.countFacts, p)).records[0].get('total'))
      const r = await tx.run(Q.listFacts, { ...p, offset: int(q.offset), limit: int(q.limit) })
      return { items: r.records.map(x => toFact(x.get('fact') as Row)), total }
    })
  }

  async similarFacts (q: VectorQuery & { include_superseded?: boolean }): Promise<Array<Fact & { score: number }>> {
    return await this.#nearest('fact', q, Q.nearestFacts, Q.scanFacts, 'fact', toFact)
  }

  async updateFact (id: string, p: FactPatch): Promise<Fact | undefined> {
    return await this.#run('WRITE', async tx => {
      const r = await tx.run(Q.updateFact, {
        id, confidence: p.confidence ?? null, set_temporal_context: p.temporal_context !== undefined, temporal_context: p.temporal_context ?? null,
        salience: p.salience ?? null, flagged_for_review: p.flagged_for_review ?? null,
      })
      return r.records[0] === undefined ? undefined : toFact(r.records[0].get('fact') as Row)
    })
  }

  async deleteFact (id: string): Promise<boolean> {
    return await this.#run('WRITE', async tx => num((await tx.run(Q.deleteFact, { id })).records[0].get('n')) > 0)
  }

  /** Keyword search over current facts' claims through the full-text index. */
  async searchFacts (q: { text: string, channels: string[], limit: number }): Promise<Array<Fact & { score: number }>> {
    const query = fulltextQuery(q.text)
    if (query === undefined || q.channels.length === 0) return []
    return await this.#run('READ', async tx => {
      const r = await tx.run(Q.searchFacts, { index: FACT_TEXT_INDEX, query, channels: q.channels, limit: int(q.limit) })
      return r.records.map(x => ({ ...toFact(x.get('fact') as Row), score: num(x.get('score')) }))
    })
  }

  // ---- relationships and traversal -----------------------------------------------------

  async relate (rel: { source_id: string, target_id: string, type: string, confidence?: number, channel: string }): Promise<Relationship> {
    return await this.#run('WRITE', async tx => {
      const r = await tx.run(Q.relate, { ...rel, id: randomUUID(), confidence: rel.confidence ?? 0.8 })
      if (r.records[0] === undefined) throw notFound(`No entity with id "${rel.source_id}" or "${rel.target_id}"; relate two existing entities.`)
      const row = r.records[0].toObject() as Row
      return { id: String(row.id), source_id: String(row.source_id), target_id: String(row.target_id), type: String(row.type), confidence: num(row.confidence), channel: String(row.channel) }
    })
  }

  async graph (entityId: string, depth: number, limit?: number): Promise<EntityGraph | undefined> {
    const d = Math.max(1, Math.min(3, Math.trunc(depth)))
    const max = graphWalkLimit(limit)
    return await this.#run('WRITE', async tx => {
      const e = await tx.run(Q.entity, { id: entityId })
      if (e.records[0] === undefined) return undefined
      const entity = toEntity(e.records[0].get('entity') as Row)
      const rels = await tx.run(Q.walk, { id: entityId, depth: int(d), limit: int(max + 1) })
      const facts = await tx.run(Q.entityFacts, { id: entityId })
      await tx.run(Q.touchEntity, { id: entityId })
      return {
        entity,
        facts: facts.records.map(x => toFact(x.get('fact') as Row)),
        relationships: rels.records.slice(0, max).map(x => {
          const r = x.toObject() as Row
          return {
            type: String(r.type), confidence: num(r.confidence), depth: num(r.depth),
            direction: r.forward === true ? 'outgoing' as const : 'incoming' as const,
            source: { id: String(r.source_id), name: String(r.source_name), type: String(r.source_type) },
            target: { id: String(r.target_id), name: String(r.target_name), type: String(r.target_type) },
          }
        }),
        depth: d,
        limit: max,
        truncated: rels.records.length > max,
      }
    })
  }

  // ---- consolidation support -----------------------------------------------------------

  async setSalience (kind: 'entity' | 'fact', id: string, salience: number): Promise<boolean> {
    if (!Number.isFinite(salience)) throw new Error(`salience must be a number between 0 and 1, got ${salience}`)
    const v = Math.min(1, Math.max(0, salience))
    return await this.#run('WRITE', async tx => num((await tx.run(kind === 'entity' ? Q.setEntitySalience : Q.setFactSalience, { id, salience: v })).records[0].get('n')) > 0)
  }

  async moveToChannel (kind: 'entity' | 'fact', id: string, channel: string): Promise<{ id: string, merged: boolean } | undefined> {
    return await this.#run('WRITE', async tx => await moveToChannel(tx, kind, id, channel))
  }

  // ---- copies of the relational store's items (copies.ts) -------------------------------

  /** The vector index of a copy's embedding, then the copy in one transaction. */
  async #copy (kind: 'turn' | 'goal' | 'strategy', embedding: EmbeddingRef | undefined, work: (tx: CypherTx, vector: Params) => Promise<void>): Promise<void> {
    if (embedding !== undefined) await this.#run('WRITE', async () => await this.#vectorIndex(kind, embedding.vector.length))
    await this.#run('WRITE', async tx => { await work(tx, embedding === undefined ? {} : this.#vectorProps(embedding)) })
  }

  async upsertTurn (t: Turn, embedding?: EmbeddingRef): Promise<void> {
    await this.#copy('turn', embedding, async (tx, vector) => { await tx.run(CQ.upsertTurn, { ...turnParams(t), vector }) })
  }

  async upsertGoal (g: Goal, embedding?: EmbeddingRef): Promise<void> {
    await this.#copy('goal', embedding, async (tx, vector) => {
      await tx.run(CQ.upsertGoal, { ...goalParams(g), vector })
      await tx.run(CQ.adoptSubgoals, { id: g.id })
    })
  }

  async upsertStrategy (s: LearnedStrategy, embedding?: EmbeddingRef): Promise<void> {
    await this.#copy('strategy', embedding, async (tx, vector) => { await tx.run(CQ.upsertStrategy, { ...strategyParams(s), vector }) })
  }

  async removeCopy (kind: CopyKind, id: string): Promise<number> {
    return await this.#run('WRITE', async tx => {
      const n = async (q: string): Promise<number> => num((await tx.run(q, { id })).records[0].get('n'))
      if (kind === 'goal') return await n(CQ.removeGoal)
      if (kind === 'strategy') return await n(CQ.removeStrategy)
      if (kind === 'conversation') return await n(CQ.removeConversationTurns) + await n(CQ.removeConversation)
      throw new Error(`This store keeps no copies of kind "${String(kind)}" (it has goal, strategy, conversation).`)
    })
  }

  /** The nearest copied turns through the turns' vector index (recall's shared read of the query's neighbours). */
  async similarTurns (q: VectorQuery): Promise<Array<Turn & { score: number }>> {
    return await this.#nearest('turn', q, CQ.nearestTurns, CQ.scanTurns, 'turn', toTurn)
  }

  async copiedIds (kind: CopiedKind, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return []
    const q = kind === 'turn' ? CQ.copiedTurns : kind === 'goal' ? CQ.copiedGoals : CQ.copiedStrategies
    return await this.#run('READ', async tx => (await tx.run(q, { ids })).records.map(r => String(r.get('id'))))
  }

  /** The back-fill's progress, as JSON text on one node of this database: a new server starts over. */
  async backfillState (): Promise<BackfillState | undefined> {
    return await this.#run('READ', async tx => {
      const text = (await tx.run(CQ.backfillState, {})).records[0]?.get('state')
      if (typeof text !== 'string') return undefined
      try {
        const o = JSON.parse(text) as Partial<BackfillState>
        return { after: o.after ?? {}, done: o.done === true, copied: Number(o.copied ?? 0) }
      } catch { return undefined }
    })
  }

  async saveBackfillState (s: BackfillState): Promise<void> {
    await this.#run('WRITE', async tx => { await tx.run(CQ.saveBackfillState, { state: JSON.stringify(s) }) })
  }

  /** Keyword search over the copied turns through the full-text index. */
  async searchTurns (q: { text: string, channels: string[], limit: number }): Promise<Array<Turn & { score: number }>> {
    const query = fulltextQuery(q.text)
    if (query === undefined || q.channels.length === 0 || q.limit <= 0) return []
    const p = { index: TURN_TEXT_INDEX, query, channels: q.channels, limit: int(q.limit) }
    return await this.#run('READ', async tx => {
      let records = (await tx.run(CQ.searchTopTurns, { ...p, k: int(candidates(q.limit)) })).records
      if (records.length < q.limit) records = (await tx.run(CQ.searchTurns, p)).records
      return records.map(x => ({ ...toTurn(x.get('turn') as Row), score: num(x.get('score')) }))
    })
  }

  // ---- channels and housekeeping -------------------------------------------------------

  async deleteChannel (name: string): Promise<DeleteCounts> {
    return await this.#run('WRITE', async tx => {
      const n = async (q: string): Promise<number> => num((await tx.run(q, { channel: name })).records[0].get('n'))
      const relationships = await n(Q.deleteChannelRelationships)
      const facts = await n(Q.deleteChannelFacts)
      const entities = await n(Q.deleteChannelEntities)
      const turns = await n(CQ.deleteChannelTurns)
      const conversations = await n(CQ.deleteChannelConversations)
      const goals = await n(CQ.deleteChannelGoals)
      const strategies = await n(CQ.deleteChannelStrategies)
      return { entities, facts, relationships, turns, conversations, goals, strategies }
    })
  }

  async countByChannel (): Promise<Record<string, Record<string, number>>> {
    return await this.#run('READ', async tx => {
      const out: Record<string, Record<string, number>> = {}
      for (const r of (await tx.run(Q.countByChannel, {})).records) (out[String(r.get('channel'))] ??= {})[String(r.get('kind'))] = num(r.get('n'))
      return out
    })
  }

  async deleteAll (): Promise<number> {
    return await this.#run('WRITE', async tx => {
      let n = 0
      for (const q of [Q.deleteAllLinks, Q.deleteAllRelationships, Q.deleteAllFacts, Q.deleteAllEntities]) n += num((await tx.run(q, {})).records[0].get('n'))
      // The copies of goals and strategies go too, uncounted: the relational store counts its own.
      await tx.run(CQ.deleteAllGoalsAndStrategies, {})
      return n
    })
  }

  async embedderUsage (): Promise<EmbedderUsage[]> {
    return await this.#run('READ', async tx => (await tx.run(Q.embedderUsage, {})).records
      .map(r => ({ embedder: String(r.get('embedder')), dimensions: num(r.get('dims')), count: num(r.get('n')) })))
  }

  async staleEmbeddings (q: StaleQuery): Promise<StaleEmbedding[]> {
    return await this.#run('READ', async tx => {
      const out: StaleEmbedding[] = []
      for (const kind of VECTOR_KINDS) {
        const query = VECTOR_Q[kind].stale
        if (out.length >= q.limit) break
        const r = await tx.run(query, { embedder: q.embedder, dims: int(q.dimensions), after: q.after?.[kind] ?? null, limit: int(q.limit - out.length) })
        for (const x of r.records) out.push({ kind, id: String(x.get('id')), text: String(x.get('text') ?? '') })
      }
      return out
    })
  }

  async setEmbeddings (items: Array<{ kind: string, id: string, embedding: EmbeddingRef | null }>): Promise<number> {
    const kindOf = (k: string): VectorKind => {
      if ((VECTOR_KINDS as readonly string[]).includes(k)) return k as VectorKind
      throw new Error(`This store keeps no vectors of kind "${k}" (it has ${VECTOR_KINDS.join(', ')}).`)
    }
    for (const it of items) {
      const kind = kindOf(it.kind)
      if (it.embedding !== null) await this.#run('WRITE', async () => await this.#vectorIndex(kind, it.embedding?.vector.length ?? 0))
    }
    return await this.#run('WRITE', async tx => {
      let n = 0
      for (const it of items) {
        const q = VECTOR_Q[kindOf(it.kind)]
        const old = (await tx.run(q.dims, { id: it.id })).records[0]
        if (old === undefined) continue
        const oldDims = old.get('dims') === null ? null : num(old.get('dims'))
        n += num((await tx.run(q.set, { id: it.id, vector: this.#vectorProps(it.embedding, oldDims) })).records[0].get('n'))
      }
      return n
    })
  }

  async close (): Promise<void> { await this.#driver.close() }
}
