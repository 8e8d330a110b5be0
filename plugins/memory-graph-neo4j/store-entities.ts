// The Neo4j graph store's entity and relationship roles (EntityStore, RelationStore).
import { randomUUID } from 'node:crypto'
import neo4j from 'neo4j-driver'
import { EntityConflictError, graphWalkLimit, walkedRelationship } from '@agentd/sdk/kits/memory'
import type { Entity, EntityGraph, EntityPatch, NewEntity, PageResult, Relationship, VectorQuery } from '@agentd/sdk/contracts/memory-stores'
import { Q } from './cypher.ts'
import { moveToChannel, mergeAliases } from './promote.ts'
import { fulltextQuery, num, parseProperties, toEntity, toFact, type Row } from './rows.ts'
import { ENTITY_TEXT_INDEX } from './schema.ts'
import { Neo4jStoreBase, int, nonEmpty, notFound } from './store-base.ts'

export class Neo4jEntityRoles extends Neo4jStoreBase {
  // ---- entities ------------------------------------------------------------------------
  async upsertEntity (e: NewEntity): Promise<{ entity: Entity, created: boolean }> {
    if (e.embedding !== undefined) await this.run('WRITE', async () => await this.vectorIndex('entity', e.embedding?.vector.length ?? 0))
    return await this.run('WRITE', async tx => {
      const id = randomUUID()
      // The MERGE locks the node for the rest of the transaction: the read-merge-write of
      // aliases and properties below cannot interleave with another upsert of the same entity.
      const m = (await tx.run(Q.mergeEntity, { id, channel: e.channel, name: e.name, type: e.type, salience: e.salience ?? 0.5 })).records[0].toObject() as Row
      const created = m.created === true
      const properties = JSON.stringify({ ...parseProperties(m.properties), ...(e.properties ?? {}) })
      const r = await tx.run(Q.updateEntity, {
        id: String(m.id), ...mergeAliases(m.aliases, e.aliases ?? []), properties, description: e.description ?? null, conversation_id: nonEmpty(e.conversation_id),
        vector: created ? this.vectorProps(e.embedding) : {},
      })
      return { entity: toEntity(r.records[0].get('entity') as Row), created }
    })
  }

  async entity (id: string): Promise<Entity | undefined> {
    return await this.run('READ', async tx => {
      const r = await tx.run(Q.entity, { id })
      return r.records[0] === undefined ? undefined : toEntity(r.records[0].get('entity') as Row)
    })
  }

  async entities (q: { channel?: string, exclude_channel?: string, search?: string, type?: string, min_salience?: number, offset: number, limit: number }): Promise<PageResult<Entity>> {
    const p = { channel: q.channel ?? null, exclude_channel: q.exclude_channel ?? null, min_salience: q.min_salience ?? 0, type: q.type ?? null, search: q.search ?? null }
    return await this.run('READ', async tx => {
      const total = num((await tx.run(Q.countEntities, p)).records[0].get('total'))
      const r = await tx.run(Q.listEntities, { ...p, offset: int(q.offset), limit: int(q.limit) })
      return { items: r.records.map(x => toEntity(x.get('entity') as Row)), total }
    })
  }

  async findEntities (q: { channels: string[], name: string, limit: number }): Promise<Entity[]> {
    const name = q.name.trim()
    if (q.channels.length === 0 || name === '') return []
    return await this.run('READ', async tx => (await tx.run(Q.findEntities, { channels: q.channels, name, limit: int(q.limit) })).records
      .map(x => toEntity(x.get('entity') as Row)))
  }

  async updateEntity (id: string, p: EntityPatch): Promise<Entity | undefined> {
    if (p.embedding !== undefined) await this.run('WRITE', async () => await this.vectorIndex('entity', p.embedding?.vector.length ?? 0))
    return await this.run('WRITE', async tx => {
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
        vector: p.embedding === undefined ? {} : this.vectorProps(p.embedding, cur.dims === null ? null : num(cur.dims)),
      })
      return toEntity(r.records[0].get('entity') as Row)
    })
  }

  async deleteEntity (id: string): Promise<boolean> {
    return await this.run('WRITE', async tx => num((await tx.run(Q.deleteEntity, { id })).records[0].get('n')) > 0)
  }

  async similarEntities (q: VectorQuery): Promise<Array<Entity & { score: number }>> {
    return await this.nearest('entity', q, Q.nearestEntities, Q.scanEntities, 'entity', toEntity)
  }

  /** Keyword search over names, aliases and descriptions through the full-text index. */
  async searchEntities (q: { text: string, channels: string[], limit: number }): Promise<Array<Entity & { score: number }>> {
    const query = fulltextQuery(q.text)
    if (query === undefined || q.channels.length === 0) return []
    return await this.run('READ', async tx => {
      const r = await tx.run(Q.searchEntities, { index: ENTITY_TEXT_INDEX, query, channels: q.channels, limit: int(q.limit) })
      return r.records.map(x => ({ ...toEntity(x.get('entity') as Row), score: num(x.get('score')) }))
    })
  }

  // ---- relationships and traversal -----------------------------------------------------
  async relate (rel: { source_id: string, target_id: string, type: string, confidence?: number, channel: string }): Promise<Relationship> {
    return await this.run('WRITE', async tx => {
      const r = await tx.run(Q.relate, { ...rel, id: randomUUID(), confidence: rel.confidence ?? 0.8 })
      if (r.records[0] === undefined) throw notFound(`No entity with id "${rel.source_id}" or "${rel.target_id}"; relate two existing entities.`)
      const row = r.records[0].toObject() as Row
      return { id: String(row.id), source_id: String(row.source_id), target_id: String(row.target_id), type: String(row.type), confidence: num(row.confidence), channel: String(row.channel) }
    })
  }

  async graph (entityId: string, depth: number, limit?: number): Promise<EntityGraph | undefined> {
    const d = Math.max(1, Math.min(3, Math.trunc(depth)))
    const max = graphWalkLimit(limit)
    return await this.run('WRITE', async tx => {
      const e = await tx.run(Q.entity, { id: entityId })
      if (e.records[0] === undefined) return undefined
      const entity = toEntity(e.records[0].get('entity') as Row)
      const rels = await tx.run(Q.walk, { id: entityId, depth: int(d), limit: int(max + 1) })
      const facts = await tx.run(Q.entityFacts, { id: entityId })
      await tx.run(Q.touchEntity, { id: entityId })
      return {
        entity,
        facts: facts.records.map(x => toFact(x.get('fact') as Row)),
        relationships: rels.records.slice(0, max).map(x => walkedRelationship(x.toObject() as Row)),
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
    return await this.run('WRITE', async tx => num((await tx.run(kind === 'entity' ? Q.setEntitySalience : Q.setFactSalience, { id, salience: v })).records[0].get('n')) > 0)
  }

  async moveToChannel (kind: 'entity' | 'fact', id: string, channel: string): Promise<{ id: string, merged: boolean } | undefined> {
    return await this.run('WRITE', async tx => await moveToChannel(tx, kind, id, channel))
  }

}
