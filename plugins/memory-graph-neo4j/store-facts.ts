// The Neo4j graph store's fact role (FactStore): facts with supersession.
import { randomUUID } from 'node:crypto'
import neo4j from 'neo4j-driver'
import type { Fact, FactPatch, NewFact, PageResult, VectorQuery } from '@agentd/sdk/contracts/memory-stores'
import { type CypherTx } from './driver.ts'
import { Q } from './cypher.ts'
import { fulltextQuery, num, toFact, type Row } from './rows.ts'
import { FACT_TEXT_INDEX } from './schema.ts'
import { Neo4jEntityRoles } from './store-entities.ts'

import { int, nonEmpty, notFound } from './store-base.ts'

export class Neo4jFactRoles extends Neo4jEntityRoles {
  // ---- facts ---------------------------------------------------------------------------
  async #insertFact (tx: CypherTx, f: NewFact): Promise<{ id: string, created: boolean }> {
    const r = (await tx.run(Q.mergeFact, {
      id: randomUUID(), channel: f.channel, claim_hash: f.claim_hash, claim: f.claim, confidence: f.confidence ?? 0.8, source: f.source,
      source_turn_id: f.source_turn_id ?? null, salience: f.salience ?? 0.5, temporal_context: f.temporal_context ?? null,
      flagged_for_review: f.flagged_for_review === true, subject_id: nonEmpty(f.subject_id), attribute: nonEmpty(f.attribute), value: f.value ?? null,
      conversation_id: nonEmpty(f.conversation_id), vector: this.vectorProps(f.embedding),
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
    if (f.embedding !== undefined) await this.run('WRITE', async () => await this.vectorIndex('fact', f.embedding?.vector.length ?? 0))
    return await this.run('WRITE', async tx => {
      const { id, created } = await this.#insertFact(tx, f)
      return { fact: await this.#fact(tx, id) as Fact, created }
    })
  }

  async supersedeFact (oldId: string, next: NewFact): Promise<{ old: Fact, fact: Fact }> {
    if (next.embedding !== undefined) await this.run('WRITE', async () => await this.vectorIndex('fact', next.embedding?.vector.length ?? 0))
    return await this.run('WRITE', async tx => {
      if (await this.#fact(tx, oldId) === undefined) throw notFound(`No fact with id "${oldId}".`)
      const { id } = await this.#insertFact(tx, next)
      // Thrown inside the transaction: the driver rolls it back, so nothing was written.
      if (id === oldId) throw Object.assign(new Error('The new claim is the same as the fact it would supersede; change the claim.'), { statusCode: 400, code: 'AGENT_ERR_MEMORY_BAD_REQUEST' })
      await tx.run(Q.supersede, { old_id: oldId, new_id: id })
      return { old: await this.#fact(tx, oldId) as Fact, fact: await this.#fact(tx, id) as Fact }
    })
  }

  async fact (id: string): Promise<Fact | undefined> {
    return await this.run('READ', async tx => await this.#fact(tx, id))
  }

  async findFact (q: { channels: string[], claim_hash: string }): Promise<Fact | undefined> {
    if (q.channels.length === 0) return undefined
    return await this.run('READ', async tx => {
      const r = await tx.run(Q.findFact, { channels: q.channels, claim_hash: q.claim_hash })
      return r.records[0] === undefined ? undefined : toFact(r.records[0].get('fact') as Row)
    })
  }

  async currentFacts (q: { channels: string[], subject_id: string, attribute: string }): Promise<Fact[]> {
    if (q.channels.length === 0) return []
    return await this.run('READ', async tx => (await tx.run(Q.currentFacts, { channels: q.channels, subject_id: q.subject_id, attribute: q.attribute })).records
      .map(x => toFact(x.get('fact') as Row)))
  }

  async facts (q: { channel?: string, exclude_channel?: string, search?: string, min_confidence?: number, include_superseded?: boolean, flagged?: boolean, min_access_count?: number, min_conversations?: number, offset: number, limit: number }): Promise<PageResult<Fact>> {
    const p = {
      channel: q.channel ?? null, exclude_channel: q.exclude_channel ?? null, search: q.search ?? null, min_confidence: q.min_confidence ?? 0,
      include_superseded: q.include_superseded === true, flagged: q.flagged ?? null, min_access_count: int(q.min_access_count ?? 0), min_conversations: int(q.min_conversations ?? 0),
    }
    return await this.run('READ', async tx => {
      const total = num((await tx.run(Q.countFacts, p)).records[0].get('total'))
      const r = await tx.run(Q.listFacts, { ...p, offset: int(q.offset), limit: int(q.limit) })
      return { items: r.records.map(x => toFact(x.get('fact') as Row)), total }
    })
  }

  async similarFacts (q: VectorQuery & { include_superseded?: boolean }): Promise<Array<Fact & { score: number }>> {
    return await this.nearest('fact', q, Q.nearestFacts, Q.scanFacts, 'fact', toFact)
  }

  async updateFact (id: string, p: FactPatch): Promise<Fact | undefined> {
    return await this.run('WRITE', async tx => {
      const r = await tx.run(Q.updateFact, {
        id, confidence: p.confidence ?? null, set_temporal_context: p.temporal_context !== undefined, temporal_context: p.temporal_context ?? null,
        salience: p.salience ?? null, flagged_for_review: p.flagged_for_review ?? null,
      })
      return r.records[0] === undefined ? undefined : toFact(r.records[0].get('fact') as Row)
    })
  }

  async deleteFact (id: string): Promise<boolean> {
    return await this.run('WRITE', async tx => num((await tx.run(Q.deleteFact, { id })).records[0].get('n')) > 0)
  }

  /** Keyword search over current facts' claims through the full-text index. */
  async searchFacts (q: { text: string, channels: string[], limit: number }): Promise<Array<Fact & { score: number }>> {
    const query = fulltextQuery(q.text)
    if (query === undefined || q.channels.length === 0) return []
    return await this.run('READ', async tx => {
      const r = await tx.run(Q.searchFacts, { index: FACT_TEXT_INDEX, query, channels: q.channels, limit: int(q.limit) })
      return r.records.map(x => ({ ...toFact(x.get('fact') as Row), score: num(x.get('score')) }))
    })
  }

}
