// The graph memory store on SQL (same database as memory-sql): entities, facts,
// fact-entity links and typed relationships. Neighbourhoods come from a recursive CTE
// that walks relationships both ways, up to depth 3, never revisiting an entity.
import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { DeleteCounts, EmbedderUsage, EmbeddingRef, Entity, EntityGraph, EntityPatch, Fact, FactPatch, GraphStore, NewEntity, NewFact, PageResult, Relationship, StaleEmbedding, StaleQuery, StoreHealth, VectorQuery } from '@agentd/sdk/contracts/memory-stores'
import {
  SQL_CHANNEL_TX, SqlReady, iso, isoOrNull, jsonb, likeContains, nearestRows, num, obj, setEmbeddings, staleEmbeddings, strArr, vectorValue,
  type Row, type SqlChannelPart, type SqlHandle, type SqlTxParticipant, type VectorSource,
} from '@agentd/sdk/kits/sql'
import { EntityConflictError, graphWalkLimit } from '@agentd/sdk/kits/memory'
import { moveToChannel } from './promote.ts'
import { graphMigrations } from './migrations.ts'
import { currentFactRows, findEntityRows, findFactRow, noteConversation } from './consolidation-sql.ts'

const ENTITY_COLS = sql.raw(`e.id, e.name, e.type, e.aliases, e.description, e.salience, e.properties, e.first_seen, e.last_accessed, e.access_count, e.channel,
  (SELECT count(*)::int FROM entity_conversations ec WHERE ec.entity_id = e.id) AS conversation_count`)
const FACT_COLS = sql.raw(`f.id, f.claim, f.claim_hash, f.confidence, f.source, f.source_turn_id, f.created_at, f.channel, f.last_accessed,
  f.access_count, f.salience, f.temporal_context, f.superseded_at, f.superseded_by_id, f.supersedes_id, f.flagged_for_review,
  f.subject_id, f.attribute, f.value, (SELECT count(*)::int FROM fact_conversations fc WHERE fc.fact_id = f.id) AS conversation_count,
  COALESCE((SELECT json_agg(fe.entity_id::text ORDER BY fe.entity_id) FROM fact_entities fe WHERE fe.fact_id = f.id), '[]'::json) AS entity_ids`)

const toEntity = (r: Row): Entity => ({
  id: String(r.id), name: String(r.name), type: String(r.type), aliases: strArr(r.aliases), description: r.description === null ? null : String(r.description),
  salience: num(r.salience), properties: obj(r.properties), first_seen: iso(r.first_seen), last_accessed: iso(r.last_accessed),
  access_count: num(r.access_count), channel: String(r.channel), conversation_count: num(r.conversation_count ?? 0),
})
const toFact = (r: Row): Fact => ({
  id: String(r.id), claim: String(r.claim), claim_hash: String(r.claim_hash), confidence: num(r.confidence), source: String(r.source) as Fact['source'],
  source_turn_id: r.source_turn_id === null ? null : String(r.source_turn_id), entity_ids: strArr(r.entity_ids), created_at: iso(r.created_at),
  channel: String(r.channel), last_accessed: iso(r.last_accessed), access_count: num(r.access_count), salience: num(r.salience),
  temporal_context: r.temporal_context === null ? null : String(r.temporal_context) as Fact['temporal_context'],
  superseded_at: isoOrNull(r.superseded_at), superseded_by_id: r.superseded_by_id === null ? null : String(r.superseded_by_id),
  supersedes_id: r.supersedes_id === null ? null : String(r.supersedes_id), flagged_for_review: Boolean(r.flagged_for_review),
  subject_id: r.subject_id === null || r.subject_id === undefined ? null : String(r.subject_id), attribute: r.attribute === null || r.attribute === undefined ? null : String(r.attribute),
  value: r.value === null || r.value === undefined ? null : String(r.value), conversation_count: num(r.conversation_count ?? 0),
})

/** What each table's vector was made from: the same text the memory service embeds. */
const SOURCES: VectorSource[] = [
  { kind: 'entity', table: 'entities', text: "btrim(name || ' ' || COALESCE(description, ''))" },
  { kind: 'fact', table: 'facts', text: 'claim' },
]

/** Words of a keyword query as a tsquery matching any of them; letters and digits only, so nothing in it is an operator. */
function anyWordQuery (text: string): string | undefined {
  const words = [...new Set(text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32)
  return words.length === 0 ? undefined : words.join(' | ')
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export class SqlGraphStore implements GraphStore, SqlTxParticipant {
  readonly backend: string
  readonly #r: SqlReady

  constructor (h: SqlHandle) {
    this.backend = h.backend
    this.#r = new SqlReady(h, 'graph', graphMigrations, ['facts', 'entities'])
  }

  async #run<T> (fn: (db: Kysely<unknown>) => Promise<T>): Promise<T> {
    return await this.#r.run(fn)
  }

  /** Tables converted from real[] to vector at set-up (for the plugin's log). */
  get upgraded (): string[] { return this.#r.upgraded }

  [SQL_CHANNEL_TX] (h: SqlHandle): SqlChannelPart | undefined {
    if (h !== this.#r.h) return undefined
    return { prepare: async () => { await this.init() }, deleteChannel: async (trx, name) => await this.#deleteChannelIn(trx, name) }
  }

  async init (): Promise<void> { await this.#run(async () => {}) }

  /** For this plugin's maintenance jobs: `fn` on the set-up database, with its vector mode (connection failures as for any call). */
  async maintain<T> (fn: (db: Kysely<unknown>, mode: 'vector' | 'real[]') => Promise<T>): Promise<T> {
    return await this.#run(async db => await fn(db, this.#r.mode))
  }

  async health (): Promise<StoreHealth> { return await this.#r.health() }

  async upsertEntity (e: NewEntity): Promise<{ entity: Entity, created: boolean }> {
    return await this.#run(async db => {
      const v = e.embedding
      if (v !== undefined) await this.#r.index('entities', v.vector.length)
      const r = await sql<Row>`INSERT INTO entities AS e (id, name, type, aliases, description, salience, properties, channel, embedding, embedder, embedding_dims)
        VALUES (${randomUUID()}, ${e.name}, ${e.type}, ${jsonb(e.aliases ?? [])}::jsonb, ${e.description ?? null}, ${e.salience ?? 0.5},
          ${jsonb(e.properties ?? {})}::jsonb, ${e.channel}, ${vectorValue(this.#r.mode, v?.vector)}, ${v?.embedder ?? null}, ${v?.vector.length ?? null})
        ON CONFLICT (channel, lower(name), type) DO UPDATE SET
          aliases = (SELECT COALESCE(jsonb_agg(DISTINCT a), '[]'::jsonb) FROM jsonb_array_elements(e.aliases || EXCLUDED.aliases) a),
          description = COALESCE(EXCLUDED.description, e.description),
          properties = e.properties || EXCLUDED.properties, last_accessed = now()
        RETURNING e.id, (xmax = 0) AS created`.execute(db)
      const id = String(r.rows[0].id)
      await noteConversation(db, 'entity', id, e.conversation_id)
      const row = (await sql<Row>`SELECT ${ENTITY_COLS} FROM entities e WHERE e.id = ${id}::uuid`.execute(db)).rows[0]
      return { entity: toEntity(row), created: Boolean(r.rows[0].created) }
    })
  }

  async entity (id: string): Promise<Entity | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT ${ENTITY_COLS} FROM entities e WHERE e.id = ${id}::uuid`.execute(db)
      return r.rows[0] === undefined ? undefined : toEntity(r.rows[0])
    })
  }

  async entities (q: { channel?: string, exclude_channel?: string, search?: string, type?: string, min_salience?: number, offset: number, limit: number }): Promise<PageResult<Entity>> {
    return await this.#run(async db => {
      const pattern = q.search === undefined ? null : likeContains(q.search)
      const where = sql`(${q.channel ?? null}::text IS NULL OR e.channel = ${q.channel ?? null})
        AND (${q.exclude_channel ?? null}::text IS NULL OR e.channel <> ${q.exclude_channel ?? null})
        AND e.salience >= ${q.min_salience ?? 0}
        AND (${q.type ?? null}::text IS NULL OR e.type = ${q.type ?? null})
        AND (${pattern}::text IS NULL OR e.name ILIKE ${pattern} ESCAPE '\\')`
      const total = await sql<{ n: number }>`SELECT count(*)::int AS n FROM entities e WHERE ${where}`.execute(db)
      const r = await sql<Row>`SELECT ${ENTITY_COLS} FROM entities e WHERE ${where} ORDER BY e.salience DESC, e.name, e.id LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db)
      return { items: r.rows.map(toEntity), total: num(total.rows[0].n) }
    })
  }

  async findEntities (q: { channels: string[], name: string, limit: number }): Promise<Entity[]> {
    if (q.channels.length === 0 || q.name.trim() === '') return []
    return await this.#run(async db => (await findEntityRows(db, ENTITY_COLS, { ...q, name: q.name.trim() })).map(toEntity))
  }

  async similarEntities (q: VectorQuery): Promise<Array<Entity & { score: number }>> {
    return await this.#run(async db => {
      const v = q.embedding.vector
      await this.#r.index('entities', v.length)
      const rows = await nearestRows(db, this.#r.mode, { table: 'entities', alias: 'e', cols: ENTITY_COLS }, q)
      return rows.map(row => ({ ...toEntity(row), score: num(row.score) }))
    })
  }

  async #insertFact (db: Kysely<unknown>, f: NewFact, supersedes: string | null): Promise<{ fact: Fact, created: boolean }> {
    const v = f.embedding
    // The same claim again: one row, the higher confidence, the subject and attribute filled in if they were missing.
    const ins = await sql<{ id: string, created: boolean }>`INSERT INTO facts AS f (id, claim, claim_hash, confidence, source, source_turn_id, channel, salience, temporal_context, supersedes_id,
        subject_id, attribute, value, flagged_for_review, embedding, embedder, embedding_dims)
      VALUES (${randomUUID()}, ${f.claim}, ${f.claim_hash}, ${f.confidence ?? 0.8}, ${f.source}, ${f.source_turn_id ?? null}, ${f.channel}, ${f.salience ?? 0.5},
        ${f.temporal_context ?? null}, ${supersedes}, ${UUID.test(f.subject_id ?? '') ? f.subject_id ?? null : null}::uuid, ${f.attribute ?? null}, ${f.value ?? null},
        ${f.flagged_for_review === true}, ${vectorValue(this.#r.mode, v?.vector)}, ${v?.embedder ?? null}, ${v?.vector.length ?? null})
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
    return await this.#run(async db => {
      // Outside the transaction: PGlite has one connection, which the transaction holds.
      if (f.embedding !== undefined) await this.#r.index('facts', f.embedding.vector.length)
      return await db.transaction().execute(async trx => await this.#insertFact(trx, f, null))
    })
  }

  async supersedeFact (oldId: string, next: NewFact): Promise<{ old: Fact, fact: Fact }> {
    if (next.embedding !== undefined) await this.#run(async () => { await this.#r.index('facts', next.embedding?.vector.length ?? 0) })
    return await this.#run(async db => await db.transaction().execute(async trx => {
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
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT ${FACT_COLS} FROM facts f WHERE f.id = ${id}::uuid`.execute(db)
      return r.rows[0] === undefined ? undefined : toFact(r.rows[0])
    })
  }

  async findFact (q: { channels: string[], claim_hash: string }): Promise<Fact | undefined> {
    if (q.channels.length === 0) return undefined
    return await this.#run(async db => { const row = await findFactRow(db, FACT_COLS, q); return row === undefined ? undefined : toFact(row) })
  }

  async currentFacts (q: { channels: string[], subject_id: string, attribute: string }): Promise<Fact[]> {
    if (q.channels.length === 0 || !UUID.test(q.subject_id)) return []
    return await this.#run(async db => (await currentFactRows(db, FACT_COLS, q)).map(toFact))
  }

  async facts (q: { channel?: string, exclude_channel?: string, search?: string, min_confidence?: number, include_superseded?: boolean, flagged?: boolean, min_access_count?: number, min_conversations?: number, offset: number, limit: number }): Promise<PageResult<Fact>> {
    return await this.#run(async db => {
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
    return await this.#run(async db => {
      const v = q.embedding.vector
      await this.#r.index('facts', v.length)
      const where = q.include_superseded === true ? undefined : sql`f.superseded_at IS NULL`
      const rows = await nearestRows(db, this.#r.mode, { table: 'facts', alias: 'f', cols: FACT_COLS, where }, q)
      const ids = rows.map(row => String(row.id))
      if (ids.length > 0) await sql`UPDATE facts SET access_count = access_count + 1, last_accessed = now() WHERE id = ANY(${ids}::uuid[])`.execute(db)
      return rows.map(row => ({ ...toFact(row), score: num(row.score) }))
    })
  }

  /** Keyword search over current facts' claims: full text (`simple`), any of the words, best first. */
  async searchFacts (q: { text: string, channels: string[], limit: number }): Promise<Array<Fact & { score: number }>> {
    const query = anyWordQuery(q.text)
    if (query === undefined) return []
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT ${FACT_COLS}, ts_rank(to_tsvector('simple', f.claim), q) AS score
        FROM facts f, to_tsquery('simple', ${query}) q
        WHERE f.channel = ANY(${q.channels}::text[]) AND f.superseded_at IS NULL AND to_tsvector('simple', f.claim) @@ q
        ORDER BY score DESC, f.created_at DESC LIMIT ${q.limit}`.execute(db)
      return r.rows.map(row => ({ ...toFact(row), score: num(row.score) }))
    })
  }

  /** Keyword search over entity names, aliases and descriptions, as searchFacts. */
  async searchEntities (q: { text: string, channels: string[], limit: number }): Promise<Array<Entity & { score: number }>> {
    const query = anyWordQuery(q.text)
    if (query === undefined) return []
    return await this.#run(async db => {
      const doc = sql`to_tsvector('simple', e.name || ' ' || e.aliases::text || ' ' || COALESCE(e.description, ''))`
      const r = await sql<Row>`SELECT ${ENTITY_COLS}, ts_rank(${doc}, q) AS score
        FROM entities e, to_tsquery('simple', ${query}) q
        WHERE e.channel = ANY(${q.channels}::text[]) AND ${doc} @@ q
        ORDER BY score DESC, e.salience DESC LIMIT ${q.limit}`.execute(db)
      return r.rows.map(row => ({ ...toEntity(row), score: num(row.score) }))
    })
  }

  async relate (rel: { source_id: string, target_id: string, type: string, confidence?: number, channel: string }): Promise<Relationship> {
    return await this.#run(async db => {
      const r = await sql<Row>`INSERT INTO relationships (id, source_id, target_id, type, confidence, channel)
        VALUES (${randomUUID()}, ${rel.source_id}::uuid, ${rel.target_id}::uuid, ${rel.type}, ${rel.confidence ?? 0.8}, ${rel.channel})
        ON CONFLICT (source_id, target_id, type) DO UPDATE SET confidence = EXCLUDED.confidence RETURNING *`.execute(db)
      const row = r.rows[0]
      return { id: String(row.id), source_id: String(row.source_id), target_id: String(row.target_id), type: String(row.type), confidence: num(row.confidence), channel: String(row.channel) }
    })
  }

  async graph (entityId: string, depth: number, limit?: number): Promise<EntityGraph | undefined> {
    const entity = await this.entity(entityId)
    if (entity === undefined) return undefined
    const d = Math.max(1, Math.min(3, Math.trunc(depth)))
    const max = graphWalkLimit(limit)
    return await this.#run(async db => {
      // Distances, not paths: `reach` is each entity within d - 1 hops with its distance
      // (UNION drops repeated (node, dist) rows, so the work grows with the edges near the
      // root, where walking every simple path grew as k^d around a hub). An edge is reached
      // at depth min(dist(source), dist(target)) + 1, which is the least depth of a simple
      // path ending on it; `forward`: the walk left from its source (a tie counts forward).
      // A self-loop counts only on the root (a path never revisits another entity). The
      // nearest edges are kept; one more than the limit is read to tell a cut walk.
      const rels = await sql<Row>`WITH RECURSIVE reach (node, dist) AS (
          SELECT ${entityId}::uuid, 0
          UNION
          SELECT CASE WHEN r.source_id = w.node THEN r.target_id ELSE r.source_id END, w.dist + 1
          FROM reach w JOIN relationships r ON (r.source_id = w.node OR r.target_id = w.node)
          WHERE w.dist < ${d - 1}
        ), near AS (SELECT node, min(dist) AS dist FROM reach GROUP BY node),
        touched AS (SELECT DISTINCT r.id FROM near n JOIN relationships r ON (r.source_id = n.node OR r.target_id = n.node)),
        best AS (
          SELECT r.id AS rel_id, least(coalesce(ns.dist, ${d}), coalesce(nt.dist, ${d})) + 1 AS depth,
                 coalesce(ns.dist, ${d}) <= coalesce(nt.dist, ${d}) AS forward
          FROM touched x JOIN relationships r ON r.id = x.id
          LEFT JOIN near ns ON ns.node = r.source_id LEFT JOIN near nt ON nt.node = r.target_id
          WHERE r.source_id <> r.target_id OR r.source_id = ${entityId}::uuid
        )
        SELECT r.type, r.confidence, b.depth, b.forward, r.source_id, s.name AS source_name, s.type AS source_type,
               r.target_id, tg.name AS target_name, tg.type AS target_type
        FROM best b JOIN relationships r ON r.id = b.rel_id JOIN entities s ON s.id = r.source_id JOIN entities tg ON tg.id = r.target_id
        ORDER BY b.depth, r.type, tg.name, r.id LIMIT ${max + 1}`.execute(db)
      const facts = await sql<Row>`SELECT ${FACT_COLS} FROM facts f JOIN fact_entities fe ON fe.fact_id = f.id
        WHERE fe.entity_id = ${entityId}::uuid AND f.superseded_at IS NULL ORDER BY f.confidence DESC, f.created_at DESC LIMIT 200`.execute(db)
      await sql`UPDATE entities SET access_count = access_count + 1, last_accessed = now() WHERE id = ${entityId}::uuid`.execute(db)
      return {
        entity,
        facts: facts.rows.map(toFact),
        relationships: rels.rows.slice(0, max).map(r => {
          return {
            type: String(r.type), confidence: num(r.confidence), depth: num(r.depth),
            direction: r.forward === true || r.forward === 't' ? 'outgoing' as const : 'incoming' as const,
            source: { id: String(r.source_id), name: String(r.source_name), type: String(r.source_type) },
            target: { id: String(r.target_id), name: String(r.target_name), type: String(r.target_type) },
          }
        }),
        depth: d,
        limit: max,
        truncated: rels.rows.length > max,
      }
    })
  }

  async #deleteChannelIn (trx: Kysely<unknown>, name: string): Promise<DeleteCounts> {
    const facts = Number((await sql`DELETE FROM facts WHERE channel = ${name}`.execute(trx)).numAffectedRows ?? 0)
    const rels = Number((await sql`DELETE FROM relationships WHERE channel = ${name}`.execute(trx)).numAffectedRows ?? 0)
    const entities = Number((await sql`DELETE FROM entities WHERE channel = ${name}`.execute(trx)).numAffectedRows ?? 0)
    return { entities, facts, relationships: rels }
  }

  async deleteChannel (name: string): Promise<DeleteCounts> {
    return await this.#run(async db => await db.transaction().execute(async trx => await this.#deleteChannelIn(trx, name)))
  }

  async updateFact (id: string, p: FactPatch): Promise<Fact | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.#run(async db => {
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
    return await this.#run(async db => await db.transaction().execute(async trx => {
      // The facts it superseded stay superseded (they were wrong); only the links to it go.
      await sql`UPDATE facts SET superseded_by_id = NULL WHERE superseded_by_id = ${id}::uuid`.execute(trx)
      await sql`UPDATE facts SET supersedes_id = NULL WHERE supersedes_id = ${id}::uuid`.execute(trx)
      return Number((await sql`DELETE FROM facts WHERE id = ${id}::uuid`.execute(trx)).numAffectedRows ?? 0) > 0
    }))
  }

  async updateEntity (id: string, p: EntityPatch): Promise<Entity | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.#run(async db => await db.transaction().execute(async trx => {
      const cur = (await sql<Row>`SELECT ${ENTITY_COLS} FROM entities e WHERE e.id = ${id}::uuid FOR UPDATE`.execute(trx)).rows[0]
      if (cur === undefined) return undefined
      const name = p.name ?? String(cur.name)
      const type = p.type ?? String(cur.type)
      const clash = (await sql<Row>`SELECT id FROM entities WHERE channel = ${cur.channel} AND lower(name) = lower(${name}) AND type = ${type} AND id <> ${id}::uuid`.execute(trx)).rows[0]
      if (clash !== undefined) throw new EntityConflictError(String(clash.id), `Entity ${String(clash.id)} in channel "${String(cur.channel)}" is already called "${name}" (${type}); delete one of them or give this one another name.`)
      const e = p.embedding
      await sql`UPDATE entities SET name = ${name}, type = ${type},
          aliases = CASE WHEN ${p.aliases !== undefined} THEN ${jsonb(p.aliases ?? [])}::jsonb ELSE aliases END,
          description = CASE WHEN ${p.description !== undefined} THEN ${p.description ?? null} ELSE description END,
          properties = CASE WHEN ${p.properties !== undefined} THEN ${jsonb(p.properties ?? {})}::jsonb ELSE properties END,
          salience = COALESCE(${p.salience ?? null}::real, salience),
          embedding = CASE WHEN ${e !== undefined} THEN ${vectorValue(this.#r.mode, e?.vector)} ELSE embedding END,
          embedder = CASE WHEN ${e !== undefined} THEN ${e?.embedder ?? null} ELSE embedder END,
          embedding_dims = CASE WHEN ${e !== undefined} THEN ${e?.vector.length ?? null}::int ELSE embedding_dims END
        WHERE id = ${id}::uuid`.execute(trx)
      return toEntity((await sql<Row>`SELECT ${ENTITY_COLS} FROM entities e WHERE e.id = ${id}::uuid`.execute(trx)).rows[0])
    }))
  }

  async deleteEntity (id: string): Promise<boolean> {
    if (!UUID.test(id)) return false
    // Relationships and fact links go with it (ON DELETE CASCADE).
    return await this.#run(async db => Number((await sql`DELETE FROM entities WHERE id = ${id}::uuid`.execute(db)).numAffectedRows ?? 0) > 0)
  }

  async setSalience (kind: 'entity' | 'fact', id: string, salience: number): Promise<boolean> {
    if (!Number.isFinite(salience)) throw new Error(`salience must be a number between 0 and 1, got ${salience}`)
    if (!UUID.test(id)) return false
    const v = Math.min(1, Math.max(0, salience))
    return await this.#run(async db => Number((await sql`UPDATE ${sql.table(kind === 'entity' ? 'entities' : 'facts')} SET salience = ${v} WHERE id = ${id}::uuid`.execute(db)).numAffectedRows ?? 0) > 0)
  }

  async moveToChannel (kind: 'entity' | 'fact', id: string, channel: string): Promise<{ id: string, merged: boolean } | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.#run(async db => await db.transaction().execute(async trx => await moveToChannel(trx, kind, id, channel)))
  }

  async staleEmbeddings (q: StaleQuery): Promise<StaleEmbedding[]> {
    return await this.#run(async db => await staleEmbeddings(db, SOURCES, q))
  }

  async setEmbeddings (items: Array<{ kind: string, id: string, embedding: EmbeddingRef | null }>): Promise<number> {
    return await this.#run(async db => await setEmbeddings(db, this.#r, SOURCES, items))
  }

  async countByChannel (): Promise<Record<string, Record<string, number>>> {
    return await this.#r.countByChannel(sql<Row>`SELECT channel, 'entities' AS kind, count(*)::int AS n FROM entities GROUP BY channel
        UNION ALL SELECT channel, 'facts', count(*)::int FROM facts GROUP BY channel`)
  }

  async deleteAll (): Promise<number> {
    return await this.#run(async db => await db.transaction().execute(async trx => {
      let n = 0
      for (const table of ['relationships', 'fact_entities', 'facts', 'entities']) n += Number((await sql`DELETE FROM ${sql.table(table)}`.execute(trx)).numAffectedRows ?? 0)
      return n
    }))
  }

  async embedderUsage (): Promise<EmbedderUsage[]> {
    return await this.#run(async db => {
      const r = await sql<Row>`SELECT embedder, embedding_dims AS dims, count(*)::int AS n FROM (
          SELECT embedder, embedding_dims FROM entities UNION ALL SELECT embedder, embedding_dims FROM facts) v
        WHERE embedder IS NOT NULL GROUP BY embedder, embedding_dims`.execute(db)
      return r.rows.map(row => ({ embedder: String(row.embedder), dimensions: num(row.dims), count: num(row.n) }))
    })
  }
}
