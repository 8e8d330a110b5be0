// What every part of the memory service shares: the stores, looked up in the registry per
// call (so the service never holds a store of a retired generation), the hooks, the log
// and the options. The parts (embedding, episodic, semantic, procedural, recall, channel
// admin) each take this, never each other's internals.
import type { FastifyBaseLogger } from 'fastify'
import type { GraphStore, KvStore, RelationalStore } from '@agentd/sdk/contracts/memory-stores'
import type { Hooks, Registry } from '@agentd/sdk'
import type { RecallSettings } from '@agentd/sdk/contracts/recall'
import { MemoryErrors } from './errors.ts'
import type { Outbox } from './outbox/outbox.ts'
import { OutageLog } from './outage-log.ts'

export interface ServiceOptions {
  /** Embedder instance name; undefined: EMBEDDING_PROVIDER's plugin, else embed-onnx, else embed-hash, else the first. */
  embedder?: string
  embeddingProvider?: string
  tokenBudget: number
  topK: number
  /** How many of a conversation's latest turns recall leaves out when the caller names the conversation but not what it holds. */
  workingMemoryTurns: number
  /** Weight of recency against similarity when ranking turns (0-1). */
  recencyWeight: number
  recencyHalfLifeHours: number
  /** Rows per batch of the re-embed job. */
  reembedBatchSize?: number
  /** The recall settings in force (GET /api/memory/recall-settings); defaults when not given. */
  recallSettings?: () => RecallSettings
  /** How long a recall technique may take before the recall goes on without it (default 2000). */
  techniqueTimeoutMs?: number
}

export type StoreRole = 'relational' | 'graph' | 'kv'

export class ServiceContext {
  readonly registry: () => Registry
  readonly hooks: () => Hooks
  readonly log: FastifyBaseLogger
  readonly opts: ServiceOptions
  /** Where the chat's writes go while their store is down (set by the plugin; none in unit tests). */
  outbox: Outbox | undefined = undefined

  constructor (registry: () => Registry, hooks: () => Hooks, log: FastifyBaseLogger, opts: ServiceOptions) {
    this.registry = registry
    this.hooks = hooks
    this.log = log
    this.opts = opts
    this.outage = new OutageLog(() => this.log)
  }

  /** One warning per store outage; the stores below report every call's outcome to it. */
  readonly outage: OutageLog

  get relational (): RelationalStore | undefined { return this.#observed('relational', this.registry().relationalStores.first()) }
  get graph (): GraphStore | undefined { return this.#observed('graph', this.registry().graphStores.first()) }
  get kv (): KvStore | undefined { return this.#observed('kv', this.registry().kvStores.first()) }

  #observed<S extends object> (role: StoreRole, s: S | undefined): S | undefined {
    return s === undefined ? undefined : this.outage.observe(role, s)
  }

  /** The store serving `role`, or a 503 naming the plugin to enable. */
  need (role: 'relational'): RelationalStore
  need (role: 'graph'): GraphStore
  need (role: 'kv'): KvStore
  need (role: StoreRole): RelationalStore | GraphStore | KvStore
  need (role: StoreRole): RelationalStore | GraphStore | KvStore {
    const s = role === 'relational' ? this.relational : role === 'graph' ? this.graph : this.kv
    if (s !== undefined) return s
    const plugin = role === 'relational' ? 'memory-sql' : role === 'graph' ? 'memory-graph-sql' : 'memory-kv or memory-redis'
    throw new MemoryErrors.NOT_CONFIGURED(`No ${role} memory store is loaded: enable ${plugin} in plugins.json.`)
  }

  /** Runs the memory:stored hook; a failing handler is logged, never fails the write. */
  async stored (kind: string, item: unknown): Promise<void> {
    try {
      await this.hooks().run('memory:stored', { kind, item })
    } catch (err) {
      this.log.warn({ err, kind }, 'memory: a memory:stored hook failed')
    }
  }
}
