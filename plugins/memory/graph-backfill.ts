// The graph back-fill: a graph store that keeps copies (Neo4j) configured after agentd has
// run for a while holds none of the turns, goals and strategies written before. This job
// copies them from the relational store (the record), kind by kind in id order, in
// batches, with their stored vectors; items the graph store already has are skipped (the
// live copy path wrote them, and may have written a newer version). Its progress is saved
// in the graph store after every batch, so a stopped run resumes where it was, and a new
// graph server starts over. Progress is in health (memory.graph_backfill).
import type { FastifyBaseLogger } from 'fastify'
import type { BackfillState, CopiedKind, CopySourceItem, GraphStore, RelationalStore } from '@agentd/sdk/contracts/memory-stores'
import { copying } from './graph-copy.ts'

export interface BackfillProgress {
  status: 'idle' | 'running' | 'done' | 'error' | 'stopped'
  /** Items of each kind in the relational store when the run started. */
  total?: number
  /** Items looked at in this run and before it (the saved position). */
  seen: number
  /** Items copied, over every run into this graph store. */
  copied: number
  kind?: CopiedKind
  started_at?: string
  finished_at?: string
  error?: string
}

export interface BackfillDeps {
  relational: () => RelationalStore | undefined
  graph: () => GraphStore | undefined
  batchSize: number
  log: FastifyBaseLogger
}

const KINDS: readonly CopiedKind[] = ['turn', 'goal', 'strategy']

type Filling = GraphStore & Required<Pick<GraphStore, 'upsertTurn' | 'upsertGoal' | 'upsertStrategy' | 'copiedIds' | 'backfillState' | 'saveBackfillState'>>
type Source = RelationalStore & Required<Pick<RelationalStore, 'copySource'>>

/** The two stores when a back-fill can run between them, else why not. */
function stores (d: BackfillDeps): { graph: Filling, rel: Source } | string {
  const g = copying(d.graph())
  const rel = d.relational()
  if (g === undefined || g.copiedIds === undefined || g.backfillState === undefined || g.saveBackfillState === undefined) return 'the graph store keeps no copies'
  if (rel?.copySource === undefined) return 'the relational store cannot list its items for copying'
  return { graph: g as Filling, rel: rel as Source }
}

export class GraphBackfill {
  readonly #d: BackfillDeps
  #p: BackfillProgress = { status: 'idle', seen: 0, copied: 0 }
  #run: Promise<BackfillProgress> | undefined
  #stop = false

  constructor (deps: BackfillDeps) { this.#d = deps }

  progress (): BackfillProgress { return { ...this.#p } }

  /** Whether this graph store still lacks items written before it (false when it keeps no copies, or is done). */
  async needed (): Promise<boolean> {
    const s = stores(this.#d)
    if (typeof s === 'string') return false
    return (await s.graph.backfillState())?.done !== true
  }

  /** Runs unless a run is going (then joins it); resolves with the final progress. */
  async run (signal?: AbortSignal): Promise<BackfillProgress> {
    this.#run ??= this.#go(signal).finally(() => { this.#run = undefined })
    return await this.#run
  }

  /** Stops after the current batch. */
  async stop (): Promise<void> { this.#stop = true; await this.#run?.catch(() => {}) }

  async #go (signal?: AbortSignal): Promise<BackfillProgress> {
    this.#stop = false
    const s = stores(this.#d)
    if (typeof s === 'string') {
      this.#p = { status: 'idle', seen: 0, copied: 0, error: s }
      return this.progress()
    }
    const { graph, rel } = s
    const log = this.#d.log
    try {
      const saved: BackfillState = await graph.backfillState() ?? { after: {}, done: false, copied: 0 }
      const counts = await rel.copySourceCount?.()
      this.#p = { status: 'running', seen: 0, copied: saved.copied, started_at: new Date().toISOString(), ...(counts === undefined ? {} : { total: counts.turn + counts.goal + counts.strategy }) }
      if (saved.done) { this.#p.status = 'done'; return this.progress() }
      log.info({ after: saved.after, total: this.#p.total }, 'memory: copying items written before the graph store was configured')
      for (const kind of KINDS) {
        this.#p.kind = kind
        for (;;) {
          if (this.#stop || signal?.aborted === true) { this.#p.status = 'stopped'; return this.progress() }
          const batch = await rel.copySource({ kind, after: saved.after[kind], limit: this.#d.batchSize })
          if (batch.length === 0) break
          const have = new Set(await graph.copiedIds(kind, batch.map(b => b.item.id)))
          // One at a time, in id order: a conversation's turns link up whichever came first.
          for (const b of batch) if (!have.has(b.item.id)) await copy(graph, b)
          saved.after[kind] = batch[batch.length - 1].item.id
          saved.copied += batch.length - have.size
          this.#p.seen += batch.length
          this.#p.copied = saved.copied
          await graph.saveBackfillState(saved)
        }
      }
      saved.done = true
      await graph.saveBackfillState(saved)
      this.#p.status = 'done'
      delete this.#p.kind
      log.info({ copied: saved.copied }, 'memory: graph back-fill finished')
    } catch (err) {
      this.#p.status = 'error'
      this.#p.error = `${(err as Error).message}. It resumes where it stopped: POST /api/jobs/graph_backfill/run once the cause is fixed.`
      log.warn({ err: (err as Error).message, copied: this.#p.copied }, 'memory: graph back-fill stopped')
    } finally {
      this.#p.finished_at = new Date().toISOString()
    }
    return this.progress()
  }
}

async function copy (graph: Filling, b: CopySourceItem): Promise<void> {
  if (b.kind === 'turn') await graph.upsertTurn(b.item, b.embedding)
  else if (b.kind === 'goal') await graph.upsertGoal(b.item, b.embedding)
  else await graph.upsertStrategy(b.item, b.embedding)
}
