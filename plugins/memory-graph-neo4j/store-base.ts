// The Neo4j graph store's base: the driver, sessions, the circuit breaker, schema and vector
// indexes set up on first use, the nearest-by-vector read every role shares, health and the
// stored vectors. The roles extend it in turn: entities and relationships
// (store-entities.ts), facts (store-facts.ts), copies (store-copies.ts), channels
// (graph-store.ts, the whole).
import neo4j from 'neo4j-driver'
import { Breaker, StoreUnavailableError, normalize } from '@agentd/sdk/kits/memory'
import type { EmbedderUsage, EmbeddingRef, StaleEmbedding, StaleQuery, StoreHealth, VectorQuery } from '@agentd/sdk/contracts/memory-stores'
import { isUnavailable, type CypherDriver, type CypherTx, type Params } from './driver.ts'
import { Q } from './cypher.ts'
import { num, type Row } from './rows.ts'
import { CQ } from './copies.ts'
import { SCHEMA, vectorIndexName, vectorIndexStatement, vectorProperty, type VectorKind } from './schema.ts'

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

export const int = (n: number): ReturnType<typeof neo4j.int> => neo4j.int(Math.trunc(n))
/** An optional id or name: empty means none. */
export const nonEmpty = (v: string | null | undefined): string | null => v === undefined || v === null || v === '' ? null : v
export const notFound = (what: string): Error => Object.assign(new Error(what), { statusCode: 404, code: 'AGENT_ERR_MEMORY_NOT_FOUND' })

/** Every kind of node with a vector, in the order re-embedding walks them, and its statements. */
export const VECTOR_KINDS = ['entity', 'fact', 'turn', 'goal', 'strategy'] as const satisfies readonly VectorKind[]
export const VECTOR_Q: Record<VectorKind, { stale: string, dims: string, set: string }> = {
  entity: { stale: Q.staleEntities, dims: Q.entityDims, set: Q.setEntityVector },
  fact: { stale: Q.staleFacts, dims: Q.factDims, set: Q.setFactVector },
  turn: { stale: CQ.staleTurns, dims: CQ.turnDims, set: CQ.setTurnVector },
  goal: { stale: CQ.staleGoals, dims: CQ.goalDims, set: CQ.setGoalVector },
  strategy: { stale: CQ.staleStrategies, dims: CQ.strategyDims, set: CQ.setStrategyVector },
}

/** How many nearest neighbours to ask the index for before the channel filter. */
export const candidates = (limit: number): number => Math.min(1000, Math.max(limit * 10, 100))

export class Neo4jStoreBase {
  readonly backend = 'neo4j'

  protected readonly driver: CypherDriver

  protected readonly database: string | undefined

  protected readonly breaker: Breaker

  protected readonly indexWait: number

  protected schema: Promise<void> | undefined

  protected readonly vectorIndexes = new Map<string, Promise<void>>()

  constructor (opts: Neo4jGraphStoreOptions) {
    this.driver = opts.driver
    this.database = opts.database
    this.breaker = new Breaker(opts.cooldownMs ?? 5000, opts.now)
    this.indexWait = opts.indexWaitSeconds ?? 60
  }

  // ---- running statements --------------------------------------------------------------
  protected async session<T> (mode: 'READ' | 'WRITE', work: (tx: CypherTx) => Promise<T>): Promise<T> {
    const session = this.driver.session({ ...(this.database === undefined ? {} : { database: this.database }), defaultAccessMode: mode })
    try {
      return mode === 'READ' ? await session.executeRead(work) : await session.executeWrite(work)
    } finally {
      await session.close().catch(() => {})
    }
  }

  /** Runs `work` after the schema is in place; connection failures become StoreUnavailableError and open the breaker. */
  protected async run<T> (mode: 'READ' | 'WRITE', work: (tx: CypherTx) => Promise<T>): Promise<T> {
    const blocked = this.breaker.blocked()
    if (blocked !== undefined) throw new StoreUnavailableError('graph', this.backend, blocked)
    try {
      await this.ready()
      const out = await this.session(mode, work)
      this.breaker.succeeded()
      return out
    } catch (err) {
      if (err instanceof StoreUnavailableError) throw err
      if (isUnavailable(err)) {
        this.breaker.failed(err)
        throw new StoreUnavailableError('graph', this.backend, err)
      }
      throw err
    }
  }

  /** Constraints and indexes, once; a failure is retried by the next call. */
  protected async ready (): Promise<void> {
    this.schema ??= (async () => {
      // Schema commands cannot share a transaction with each other's data: one each.
      for (const statement of SCHEMA) await this.session('WRITE', async tx => { await tx.run(statement, {}) })
    })().catch((err: unknown) => { this.schema = undefined; throw err })
    await this.schema
  }

  /** The vector index for this kind and size, created on first use and awaited online. */
  protected async vectorIndex (kind: VectorKind, dims: number): Promise<string> {
    const name = vectorIndexName(kind, dims)
    let p = this.vectorIndexes.get(name)
    if (p === undefined) {
      p = (async () => {
        await this.session('WRITE', async tx => { await tx.run(vectorIndexStatement(kind, dims), {}) })
        await this.session('READ', async tx => { await tx.run(Q.awaitIndex, { name, seconds: int(this.indexWait) }) })
      })().catch((err: unknown) => { this.vectorIndexes.delete(name); throw err })
      this.vectorIndexes.set(name, p)
    }
    await p
    return name
  }

  /** The properties a vector is stored in: its embedder, its size, and `vec_<size>` (unit length). */
  protected vectorProps (v: EmbeddingRef | undefined | null, oldDims?: number | null): Params {
    const out: Params = {}
    if (oldDims !== undefined && oldDims !== null && oldDims !== v?.vector.length) out[vectorProperty(oldDims)] = null
    if (v === undefined || v === null) return { ...out, embedder: null, embedding_dims: null }
    return { ...out, embedder: v.embedder, embedding_dims: int(v.vector.length), [vectorProperty(v.vector.length)]: normalize(v.vector) }
  }

  /**
   * Nearest by the vector index, then (when the channel filter left fewer than asked) an
   * exact scan of the channels. Neo4j's vector.similarity.cosine is (1 + cos) / 2; the contract wants cos.
   */
  protected async nearest<T extends { id: string }> (kind: VectorKind, q: VectorQuery & { include_superseded?: boolean }, indexed: string, scan: string, key: string, map: (r: Row) => T): Promise<Array<T & { score: number }>> {
    const dims = q.embedding.vector.length
    if (q.channels.length === 0 || q.limit <= 0 || dims === 0) return []
    const index = await this.run('WRITE', async () => await this.vectorIndex(kind, dims))
    const vector = normalize(q.embedding.vector)
    const p = { channels: q.channels, embedder: q.embedding.embedder, vector, limit: int(q.limit), property: vectorProperty(dims), ...(kind === 'fact' ? { include_superseded: q.include_superseded === true } : {}) }
    const rows = await this.run(kind === 'fact' ? 'WRITE' : 'READ', async tx => {
      let records = (await tx.run(indexed, { ...p, index, k: int(candidates(q.limit)) })).records
      if (records.length < q.limit) records = (await tx.run(scan, { ...p, dims: int(dims) })).records
      const out = records.map(x => ({ ...map(x.get(key) as Row), score: 2 * num(x.get('score')) - 1 }))
      if (kind === 'fact' && out.length > 0) await tx.run(Q.touchFacts, { ids: out.map(f => f.id) })
      return out
    })
    return rows
  }

  async init (): Promise<void> { await this.run('READ', async tx => { await tx.run(Q.ping, {}) }) }

  async health (): Promise<StoreHealth> {
    try {
      await this.init()
      return { status: 'healthy', backend: this.backend }
    } catch (err) {
      return { status: 'unhealthy', backend: this.backend, error: (err as Error).message }
    }
  }

  async embedderUsage (): Promise<EmbedderUsage[]> {
    return await this.run('READ', async tx => (await tx.run(Q.embedderUsage, {})).records
      .map(r => ({ embedder: String(r.get('embedder')), dimensions: num(r.get('dims')), count: num(r.get('n')) })))
  }

  async staleEmbeddings (q: StaleQuery): Promise<StaleEmbedding[]> {
    return await this.run('READ', async tx => {
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
      if (it.embedding !== null) await this.run('WRITE', async () => await this.vectorIndex(kind, it.embedding?.vector.length ?? 0))
    }
    return await this.run('WRITE', async tx => {
      let n = 0
      for (const it of items) {
        const q = VECTOR_Q[kindOf(it.kind)]
        const old = (await tx.run(q.dims, { id: it.id })).records[0]
        if (old === undefined) continue
        const oldDims = old.get('dims') === null ? null : num(old.get('dims'))
        n += num((await tx.run(q.set, { id: it.id, vector: this.vectorProps(it.embedding, oldDims) })).records[0].get('n'))
      }
      return n
    })
  }

  async close (): Promise<void> { await this.driver.close() }
}
