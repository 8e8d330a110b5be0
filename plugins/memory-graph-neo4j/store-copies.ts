// The Neo4j graph store's copy role (CopyStore): copies of turns, goals and strategies, their
// full-text and vector search, and the back-fill's position.
import neo4j from 'neo4j-driver'
import type { BackfillState, CopiedKind, CopyKind, EmbeddingRef, Goal, LearnedStrategy, Turn, VectorQuery } from '@agentd/sdk/contracts/memory-stores'
import { type CypherTx, type Params } from './driver.ts'
import { fulltextQuery, num, type Row } from './rows.ts'
import { CQ, goalParams, strategyParams, toTurn, turnParams } from './copies.ts'
import { TURN_TEXT_INDEX } from './schema.ts'
import { Neo4jFactRoles } from './store-facts.ts'

import { candidates, int } from './store-base.ts'

export class Neo4jCopyRoles extends Neo4jFactRoles {
  // ---- copies of the relational store's items (copies.ts) -------------------------------
  /** The vector index of a copy's embedding, then the copy in one transaction. */
  async #copy (kind: 'turn' | 'goal' | 'strategy', embedding: EmbeddingRef | undefined, work: (tx: CypherTx, vector: Params) => Promise<void>): Promise<void> {
    if (embedding !== undefined) await this.run('WRITE', async () => await this.vectorIndex(kind, embedding.vector.length))
    await this.run('WRITE', async tx => { await work(tx, embedding === undefined ? {} : this.vectorProps(embedding)) })
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
    return await this.run('WRITE', async tx => {
      const n = async (q: string): Promise<number> => num((await tx.run(q, { id })).records[0].get('n'))
      if (kind === 'goal') return await n(CQ.removeGoal)
      if (kind === 'strategy') return await n(CQ.removeStrategy)
      if (kind === 'conversation') return await n(CQ.removeConversationTurns) + await n(CQ.removeConversation)
      throw new Error(`This store keeps no copies of kind "${String(kind)}" (it has goal, strategy, conversation).`)
    })
  }

  /** The nearest copied turns through the turns' vector index (recall's shared read of the query's neighbours). */
  async similarTurns (q: VectorQuery): Promise<Array<Turn & { score: number }>> {
    return await this.nearest('turn', q, CQ.nearestTurns, CQ.scanTurns, 'turn', toTurn)
  }

  async copiedIds (kind: CopiedKind, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return []
    const q = kind === 'turn' ? CQ.copiedTurns : kind === 'goal' ? CQ.copiedGoals : CQ.copiedStrategies
    return await this.run('READ', async tx => (await tx.run(q, { ids })).records.map(r => String(r.get('id'))))
  }

  /** The back-fill's progress, as JSON text on one node of this database: a new server starts over. */
  async backfillState (): Promise<BackfillState | undefined> {
    return await this.run('READ', async tx => {
      const text = (await tx.run(CQ.backfillState, {})).records[0]?.get('state')
      if (typeof text !== 'string') return undefined
      try {
        const o = JSON.parse(text) as Partial<BackfillState>
        return { after: o.after ?? {}, done: o.done === true, copied: Number(o.copied ?? 0) }
      } catch { return undefined }
    })
  }

  async saveBackfillState (s: BackfillState): Promise<void> {
    await this.run('WRITE', async tx => { await tx.run(CQ.saveBackfillState, { state: JSON.stringify(s) }) })
  }

  /** Keyword search over the copied turns through the full-text index. */
  async searchTurns (q: { text: string, channels: string[], limit: number }): Promise<Array<Turn & { score: number }>> {
    const query = fulltextQuery(q.text)
    if (query === undefined || q.channels.length === 0 || q.limit <= 0) return []
    const p = { index: TURN_TEXT_INDEX, query, channels: q.channels, limit: int(q.limit) }
    return await this.run('READ', async tx => {
      let records = (await tx.run(CQ.searchTopTurns, { ...p, k: int(candidates(q.limit)) })).records
      if (records.length < q.limit) records = (await tx.run(CQ.searchTurns, p)).records
      return records.map(x => ({ ...toTurn(x.get('turn') as Row), score: num(x.get('score')) }))
    })
  }

}
