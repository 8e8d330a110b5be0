// The SQL graph store's entity and relationship roles (EntityStore, RelationStore): entities deduplicated per channel, found by name, vector or text; relationships and the graph walk.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { Entity, EntityGraph, EntityPatch, NewEntity, PageResult, Relationship, VectorQuery } from '@agentd/sdk/contracts/memory-stores'
import { jsonb, likeContains, nearestRows, num, vectorValue, type Row } from '@agentd/sdk/kits/sql'
import { EntityConflictError, graphWalkLimit, walkedRelationship } from '@agentd/sdk/kits/memory'
import { moveToChannel } from './promote.ts'
import { findEntityRows, noteConversation } from './consolidation-sql.ts'
import { SqlGraphBase } from './graph-base.ts'
import { ENTITY_COLS, FACT_COLS, UUID, anyWordQuery, toEntity, toFact } from './graph-rows.ts'

export class SqlEntityRoles extends SqlGraphBase {
  async upsertEntity (e: NewEntity): Promise<{ entity: Entity, created: boolean }> {
    return await this.run(async db => {
      const v = e.embedding
      if (v !== undefined) await this.r.index('entities', v.vector.length)
      const r = await sql<Row>`INSERT INTO entities AS e (id, name, type, aliases, description, salience, properties, channel, embedding, embedder, embedding_dims)
        VALUES (${randomUUID()}, ${e.name}, ${e.type}, ${jsonb(e.aliases ?? [])}::jsonb, ${e.description ?? null}, ${e.salience ?? 0.5},
          ${jsonb(e.properties ?? {})}::jsonb, ${e.channel}, ${vectorValue(this.r.mode, v?.vector)}, ${v?.embedder ?? null}, ${v?.vector.length ?? null})
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
    return await this.run(async db => {
      const r = await sql<Row>`SELECT ${ENTITY_COLS} FROM entities e WHERE e.id = ${id}::uuid`.execute(db)
      return r.rows[0] === undefined ? undefined : toEntity(r.rows[0])
    })
  }

  async entities (q: { channel?: string, exclude_channel?: string, search?: string, type?: string, min_salience?: number, offset: number, limit: number }): Promise<PageResult<Entity>> {
    return await this.run(async db => {
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
    return await this.run(async db => (await findEntityRows(db, ENTITY_COLS, { ...q, name: q.name.trim() })).map(toEntity))
  }

  async similarEntities (q: VectorQuery): Promise<Array<Entity & { score: number }>> {
    return await this.run(async db => {
      const v = q.embedding.vector
      await this.r.index('entities', v.length)
      const rows = await nearestRows(db, this.r.mode, { table: 'entities', alias: 'e', cols: ENTITY_COLS }, q)
      return rows.map(row => ({ ...toEntity(row), score: num(row.score) }))
    })
  }

  /** Keyword search over entity names, aliases and descriptions, as searchFacts. */
  async searchEntities (q: { text: string, channels: string[], limit: number }): Promise<Array<Entity & { score: number }>> {
    const query = anyWordQuery(q.text)
    if (query === undefined) return []
    return await this.run(async db => {
      const doc = sql`to_tsvector('simple', e.name || ' ' || e.aliases::text || ' ' || COALESCE(e.description, ''))`
      const r = await sql<Row>`SELECT ${ENTITY_COLS}, ts_rank(${doc}, q) AS score
        FROM entities e, to_tsquery('simple', ${query}) q
        WHERE e.channel = ANY(${q.channels}::text[]) AND ${doc} @@ q
        ORDER BY score DESC, e.salience DESC LIMIT ${q.limit}`.execute(db)
      return r.rows.map(row => ({ ...toEntity(row), score: num(row.score) }))
    })
  }

  async updateEntity (id: string, p: EntityPatch): Promise<Entity | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.run(async db => await db.transaction().execute(async trx => {
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
          embedding = CASE WHEN ${e !== undefined} THEN ${vectorValue(this.r.mode, e?.vector)} ELSE embedding END,
          embedder = CASE WHEN ${e !== undefined} THEN ${e?.embedder ?? null} ELSE embedder END,
          embedding_dims = CASE WHEN ${e !== undefined} THEN ${e?.vector.length ?? null}::int ELSE embedding_dims END
        WHERE id = ${id}::uuid`.execute(trx)
      return toEntity((await sql<Row>`SELECT ${ENTITY_COLS} FROM entities e WHERE e.id = ${id}::uuid`.execute(trx)).rows[0])
    }))
  }

  async deleteEntity (id: string): Promise<boolean> {
    if (!UUID.test(id)) return false
    // Relationships and fact links go with it (ON DELETE CASCADE).
    return await this.run(async db => Number((await sql`DELETE FROM entities WHERE id = ${id}::uuid`.execute(db)).numAffectedRows ?? 0) > 0)
  }

  async relationships (q: { channel: string, after?: string, limit: number }): Promise<Relationship[]> {
    return await this.run(async db => {
      const r = await sql<Row>`SELECT r.* FROM relationships r JOIN entities e ON e.id = r.source_id
        WHERE e.channel = ${q.channel} AND (${q.after ?? null}::uuid IS NULL OR r.id > ${q.after ?? null}::uuid) ORDER BY r.id LIMIT ${q.limit}`.execute(db)
      return r.rows.map(row => ({ id: String(row.id), source_id: String(row.source_id), target_id: String(row.target_id), type: String(row.type), confidence: num(row.confidence), channel: String(row.channel) }))
    })
  }

  async relate (rel: { source_id: string, target_id: string, type: string, confidence?: number, channel: string }): Promise<Relationship> {
    return await this.run(async db => {
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
    return await this.run(async db => {
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
        relationships: rels.rows.slice(0, max).map(walkedRelationship),
        depth: d,
        limit: max,
        truncated: rels.rows.length > max,
      }
    })
  }

  async setSalience (kind: 'entity' | 'fact', id: string, salience: number): Promise<boolean> {
    if (!Number.isFinite(salience)) throw new Error(`salience must be a number between 0 and 1, got ${salience}`)
    if (!UUID.test(id)) return false
    const v = Math.min(1, Math.max(0, salience))
    return await this.run(async db => Number((await sql`UPDATE ${sql.table(kind === 'entity' ? 'entities' : 'facts')} SET salience = ${v} WHERE id = ${id}::uuid`.execute(db)).numAffectedRows ?? 0) > 0)
  }

  async moveToChannel (kind: 'entity' | 'fact', id: string, channel: string): Promise<{ id: string, merged: boolean } | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.run(async db => await db.transaction().execute(async trx => await moveToChannel(trx, kind, id, channel)))
  }

}
