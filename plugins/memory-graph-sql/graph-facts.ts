// The SQL graph store's fact role (FactStore): facts with supersession, found by claim, subject and attribute, vector or text.
import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { Fact, FactPatch, NewFact, PageResult, VectorQuery } from '@agentd/sdk/contracts/memory-stores'
import { likeContains, nearestRows, num, vectorValue, type Row } from '@agentd/sdk/kits/sql'
import { currentFactRows, findFactRow, noteConversation } from './consolidation-sql.ts'
import { SqlEntityRoles } from './graph-entities.ts'
import { FACT_COLS, UUID, anyWordQuery, toFact } from './graph-rows.ts'

export class SqlFactRoles extends SqlEntityRoles {
  async #insertFact (db: Kysely<unknown>, f: NewFact, supersedes: string | null): Promise<{ fact: Fact, created: boolean }> {
    const v = f.embedding
    // The same claim again: one row, the higher confidence, the subject and attribute filled in if they were missing.
    const ins = await sql<{ id: string, created: boolean }>`INSERT INTO facts AS f (id, claim, claim_hash, confidence, source, source_turn_id, channel, salience, temporal_context, supersedes_id,
        subject_id, attribute, value, flagged_for_review, embedding, embedder, embedding_dims)
      VALUES (${randomUUID()}, ${f.claim}, ${f.claim_hash}, ${f.confidence ?? 0.8}, ${f.source}, ${f.source_turn_id ?? null}, ${f.channel}, ${f.salience ?? 0.5},
        ${f.temporal_context ?? null}, ${supersedes}, ${UUID.test(f.subject_id ?? '') ? f.subject_id ?? null : null}::uuid, ${f.attribute ?? null}, ${f.value ?? null},
        ${f.flagged_for_review === true}, ${vectorValue(this.r.mode, v?.vector)}, ${v?.embedder ?? null}, ${v?.vector.length ?? null})
      ON CONFLICT (channel, claim_hash) DO UPDATE SET confidence = GREATEST(f.confidence, EXCLUDED.confidence),
        subject_id = COALESCE(f.subject_id, EXCLUDED.subject_id), attribute = COALESCE(f.attribute, EXCLUDED.attribute), value = COALESCE(f.value, EXCLUDED.value)
      RETURNING f.id, (xmax = 0) AS created`.execute(db)
    const created = Boolean(ins.rows[0].created)
    const id = String(ins.rows[0].id)
    await noteConversation(db, 'fact', id, f.conversation_id)
    const entityIds = (f.entity_ids ?? []).filter(e => UUID.test(e))
    if (entityIds.length > 0) {
      await sql`INSERT INTO fact_entities (fact_id, entity_id) SELECT ${id}::uuid, e.id FROM entities e WHERE e.id = ANY(${entityIds}::uuid[]) ON CONFLICT DO NOTHING`.execute(db)
    }
    const r = await sql<Row>`SELECT ${FACT_COLS} FROM facts f WHERE f.id = ${id}::uuid`.execute(db)
    return { fact: toFact(r.rows[0]), created }
  }

  async addFact (f: NewFact): Promise<{ fact: Fact, created: boolean }> {
    return await this.run(async db => {
      // Outside the transaction: PGlite has one connection, which the transaction holds.
      if (f.embedding !== undefined) await this.r.index('facts', f.embedding.vector.length)
      return await db.transaction().execute(async trx => await this.#insertFact(trx, f, null))
    })
  }

  async supersedeFact (oldId: string, next: NewFact): Promise<{ old: Fact, fact: Fact }> {
    if (next.embedding !== undefined) await this.run(async () => { await this.r.index('facts', next.embedding?.vector.length ?? 0) })
    return await this.run(async db => await db.transaction().execute(async trx => {
      const old = UUID.test(oldId) ? (await sql<Row>`SELECT id FROM facts WHERE id = ${oldId}::uuid FOR UPDATE`.execute(trx)).rows[0] : undefined
      if (old === undefined) throw Object.assign(new Error(`No fact with id "${oldId}".`), { statusCode: 404, code: 'AGENT_ERR_MEMORY_NOT_FOUND' })
      const { fact } = await this.#insertFact(trx, next, oldId)
      if (fact.id === oldId) throw Object.assign(new Error('The new claim is the same as the fact it would supersede; change the claim.'), { statusCode: 400, code: 'AGENT_ERR_MEMORY_BAD_REQUEST' })
      await sql`UPDATE facts SET superseded_at = now(), superseded_by_id = ${fact.id}::uuid, temporal_context = 'past' WHERE id = ${oldId}::uuid`.execute(trx)
      const o = await sql<Row>`SELECT ${FACT_COLS} FROM facts f WHERE f.id = ${oldId}::uuid`.execute(trx)
      return { old: toFact(o.rows[0]), fact }
    }))
  }

  async fact (id: string): Promise<Fact | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.run(async db => {
      const r = await sql<Row>`SELECT ${FACT_COLS} FROM facts f WHERE f.id = ${id}::uuid`.execute(db)
      return r.rows[0] === undefined ? undefined : toFact(r.rows[0])
    })
  }

  async findFact (q: { channels: string[], claim_hash: string }): Promise<Fact | undefined> {
    if (q.channels.length === 0) return undefined
    return await this.run(async db => { const row = await findFactRow(db, FACT_COLS, q); return row === undefined ? undefined : toFact(row) })
  }

  async currentFacts (q: { channels: string[], subject_id: string, attribute: string }): Promise<Fact[]> {
    if (q.channels.length === 0 || !UUID.test(q.subject_id)) return []
    return await this.run(async db => (await currentFactRows(db, FACT_COLS, q)).map(toFact))
  }

  async facts (q: { channel?: string, exclude_channel?: string, search?: string, min_confidence?: number, include_superseded?: boolean, flagged?: boolean, min_access_count?: number, min_conversations?: number, offset: number, limit: number }): Promise<PageResult<Fact>> {
    return await this.run(async db => {
      const pattern = q.search === undefined ? null : likeContains(q.search)
      const where = sql`(${q.channel ?? null}::text IS NULL OR f.channel = ${q.channel ?? null})
        AND (${q.exclude_channel ?? null}::text IS NULL OR f.channel <> ${q.exclude_channel ?? null})
        AND (${pattern}::text IS NULL OR f.claim ILIKE ${pattern} ESCAPE '\\')
        AND f.confidence >= ${q.min_confidence ?? 0} AND (${q.include_superseded === true} OR f.superseded_at IS NULL)
        AND (${q.flagged ?? null}::boolean IS NULL OR f.flagged_for_review = ${q.flagged ?? null}::boolean)
        AND f.access_count >= ${q.min_access_count ?? 0}
        AND (${q.min_conversations ?? 0}::int = 0 OR (SELECT count(*) FROM fact_conversations fc WHERE fc.fact_id = f.id) >= ${q.min_conversations ?? 0}::int)`
      const total = await sql<{ n: number }>`SELECT count(*)::int AS n FROM facts f WHERE ${where}`.execute(db)
      const r = await sql<Row>`SELECT ${FACT_COLS} FROM facts f WHERE ${where} ORDER BY f.created_at DESC, f.id LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db)
      return { items: r.rows.map(toFact), total: num(total.rows[0].n) }
    })
  }

  async similarFacts (q: VectorQuery & { include_superseded?: boolean }): Promise<Array<Fact & { score: number }>> {
    return await this.run(async db => {
      const v = q.embedding.vector
      await this.r.index('facts', v.length)
      const where = q.include_superseded === true ? undefined : sql`f.superseded_at IS NULL`
      const rows = await nearestRows(db, this.r.mode, { table: 'facts', alias: 'f', cols: FACT_COLS, where }, q)
      const ids = rows.map(row => String(row.id))
      if (ids.length > 0) await sql`UPDATE facts SET access_count = access_count + 1, last_accessed = now() WHERE id = ANY(${ids}::uuid[])`.execute(db)
      return rows.map(row => ({ ...toFact(row), score: num(row.score) }))
    })
  }

  /** Keyword search over current facts' claims: full text (`simple`), any of the words, best first. */
  async searchFacts (q: { text: string, channels: string[], limit: number }): Promise<Array<Fact & { score: number }>> {
    const query = anyWordQuery(q.text)
    if (query === undefined) return []
    return await this.run(async db => {
      const r = await sql<Row>`SELECT ${FACT_COLS}, ts_rank(to_tsvector('simple', f.claim), q) AS score
        FROM facts f, to_tsquery('simple', ${query}) q
        WHERE f.channel = ANY(${q.channels}::text[]) AND f.superseded_at IS NULL AND to_tsvector('simple', f.claim) @@ q
        ORDER BY score DESC, f.created_at DESC LIMIT ${q.limit}`.execute(db)
      return r.rows.map(row => ({ ...toFact(row), score: num(row.score) }))
    })
  }

  async updateFact (id: string, p: FactPatch): Promise<Fact | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.run(async db => {
      const r = await sql<Row>`UPDATE facts SET
          confidence = COALESCE(${p.confidence ?? null}::real, confidence),
          temporal_context = CASE WHEN ${p.temporal_context !== undefined} THEN ${p.temporal_context ?? null} ELSE temporal_context END,
          salience = COALESCE(${p.salience ?? null}::real, salience),
          flagged_for_review = COALESCE(${p.flagged_for_review ?? null}::boolean, flagged_for_review)
        WHERE id = ${id}::uuid RETURNING id`.execute(db)
      if (r.rows[0] === undefined) return undefined
      return toFact((await sql<Row>`SELECT ${FACT_COLS} FROM facts f WHERE f.id = ${id}::uuid`.execute(db)).rows[0])
    })
  }

  async deleteFact (id: string): Promise<boolean> {
    if (!UUID.test(id)) return false
    return await this.run(async db => await db.transaction().execute(async trx => {
      // The facts it superseded stay superseded (they were wrong); only the links to it go.
      await sql`UPDATE facts SET superseded_by_id = NULL WHERE superseded_by_id = ${id}::uuid`.execute(trx)
      await sql`UPDATE facts SET supersedes_id = NULL WHERE supersedes_id = ${id}::uuid`.execute(trx)
      return Number((await sql`DELETE FROM facts WHERE id = ${id}::uuid`.execute(trx)).numAffectedRows ?? 0) > 0
    }))
  }

}
