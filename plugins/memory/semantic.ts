// Semantic memory in the graph store: entities, facts (one per channel and claim hash;
// a newer fact supersedes an older one, which stays linked and out of recall) and the
// relationships between entities.
import { EntityConflictError, claimHash } from '@agentd/sdk/kits/memory'
import type { Entity, EntityPatch, Fact, FactPatch, NewEntity, NewFact, Relationship, TemporalContext } from '@agentd/sdk/contracts/memory-stores'
import { record, type Actor } from './history.ts'
import type { ServiceContext } from './context.ts'
import type { Embedding } from './embedding.ts'
import { DEFAULT, checkChannel } from './channels.ts'
import { MemoryErrors } from './errors.ts'

export interface FactInput { claim: string, confidence?: number, source?: Fact['source'], source_turn_id?: string | null, entity_ids?: string[], channel?: string, temporal_context?: TemporalContext | null, salience?: number }
export type EntityInput = Omit<NewEntity, 'embedding' | 'channel'> & { channel?: string }
export interface RelationInput { source_id: string, target_id: string, type: string, confidence?: number, channel?: string }

export class Semantic {
  readonly #ctx: ServiceContext
  readonly #embedding: Embedding

  constructor (ctx: ServiceContext, embedding: Embedding) { this.#ctx = ctx; this.#embedding = embedding }

  async addEntity (e: EntityInput, actor: Actor = 'system'): Promise<{ entity: Entity, created: boolean }> {
    const channel = checkChannel(e.channel ?? DEFAULT)
    const embedding = await this.#embedding.embed([e.name, e.description ?? ''].join(' ').trim())
    const res = await this.#ctx.need('graph').upsertEntity({ ...e, channel, embedding })
    await record(this.#ctx, { kind: 'entity', action: res.created ? 'create' : 'merge', id: res.entity.id, channel, actor: res.created ? actor : 'merge', details: { name: e.name, type: e.type, by: actor, ...(e.aliases === undefined ? {} : { aliases: e.aliases }) } })
    if (res.created) await this.#ctx.stored('entity', res.entity)
    return res
  }

  /** Same (channel, claim) as a stored fact: that fact (`created: false`), not a second one. */
  async addFact (f: FactInput, actor: Actor = 'system'): Promise<{ fact: Fact, created: boolean }> {
    const graph = this.#ctx.need('graph')
    if (f.entity_ids !== undefined) await this.#checkEntities(f.entity_ids)
    const res = await graph.addFact(await this.#newFact(f))
    if (res.created) {
      await record(this.#ctx, { kind: 'fact', action: 'create', id: res.fact.id, channel: res.fact.channel, actor, details: { claim: res.fact.claim, source: res.fact.source, confidence: res.fact.confidence } })
      await this.#ctx.stored('fact', res.fact)
    }
    return res
  }

  /**
   * The write API's edit. A new claim is a correction: a new fact supersedes this one, which
   * stays (linked, out of recall) so the history is kept. Other fields change in place.
   */
  async editFact (id: string, patch: { claim?: string } & FactPatch, actor: Actor = 'user'): Promise<{ fact: Fact, superseded?: Fact }> {
    const graph = this.#ctx.need('graph')
    const old = await graph.fact(id)
    if (old === undefined) throw new MemoryErrors.NOT_FOUND(`No fact with id "${id}". GET /api/memory/facts lists them.`)
    if (old.superseded_by_id !== null) throw new MemoryErrors.CONFLICT(`Fact "${id}" was superseded by fact "${old.superseded_by_id}"; edit that one.`)
    if (patch.claim !== undefined && claimHash(patch.claim) !== old.claim_hash) {
      const res = await this.supersedeFact(id, {
        claim: patch.claim, confidence: patch.confidence ?? old.confidence, source: 'user_stated', entity_ids: old.entity_ids, channel: old.channel,
        temporal_context: patch.temporal_context === undefined ? old.temporal_context : patch.temporal_context, salience: patch.salience ?? old.salience,
      }, actor)
      return { fact: res.fact, superseded: res.old }
    }
    const { claim: _same, ...fields } = patch
    const fact = await graph.updateFact(id, fields)
    if (fact === undefined) throw new MemoryErrors.NOT_FOUND(`No fact with id "${id}".`)
    const changes = Object.fromEntries(Object.keys(fields).map(k => [k, { from: old[k as keyof Fact], to: fact[k as keyof Fact] }]))
    await record(this.#ctx, { kind: 'fact', action: 'update', id, channel: fact.channel, actor, details: { changes } })
    return { fact }
  }

  async deleteFact (id: string, actor: Actor = 'user'): Promise<Fact> {
    const graph = this.#ctx.need('graph')
    const fact = await graph.fact(id)
    if (fact === undefined || !await graph.deleteFact(id)) throw new MemoryErrors.NOT_FOUND(`No fact with id "${id}". GET /api/memory/facts lists them.`)
    await record(this.#ctx, { kind: 'fact', action: 'delete', id, channel: fact.channel, actor, details: { claim: fact.claim } })
    return fact
  }

  async editEntity (id: string, patch: Omit<EntityPatch, 'embedding'>, actor: Actor = 'user'): Promise<Entity> {
    const graph = this.#ctx.need('graph')
    const old = await graph.entity(id)
    if (old === undefined) throw new MemoryErrors.NOT_FOUND(`No entity with id "${id}". GET /api/memory/entities lists them.`)
    const renamed = (patch.name !== undefined && patch.name !== old.name) || (patch.description !== undefined && patch.description !== old.description)
    const embedding = renamed ? await this.#embedding.embed([patch.name ?? old.name, (patch.description === undefined ? old.description : patch.description) ?? ''].join(' ').trim()) : undefined
    let entity: Entity | undefined
    try {
      entity = await graph.updateEntity(id, { ...patch, ...(embedding === undefined ? {} : { embedding }) })
    } catch (err) {
      if (err instanceof EntityConflictError) throw new MemoryErrors.CONFLICT(err.message)
      throw err
    }
    if (entity === undefined) throw new MemoryErrors.NOT_FOUND(`No entity with id "${id}".`)
    const changes = Object.fromEntries(Object.keys(patch).map(k => [k, { from: old[k as keyof Entity], to: entity[k as keyof Entity] }]))
    await record(this.#ctx, { kind: 'entity', action: 'update', id, channel: entity.channel, actor, details: { changes } })
    return entity
  }

  async deleteEntity (id: string, actor: Actor = 'user'): Promise<Entity> {
    const graph = this.#ctx.need('graph')
    const entity = await graph.entity(id)
    if (entity === undefined || !await graph.deleteEntity(id)) throw new MemoryErrors.NOT_FOUND(`No entity with id "${id}". GET /api/memory/entities lists them.`)
    await record(this.#ctx, { kind: 'entity', action: 'delete', id, channel: entity.channel, actor, details: { name: entity.name, type: entity.type } })
    return entity
  }

  async #checkEntities (ids: string[]): Promise<void> {
    const graph = this.#ctx.need('graph')
    for (const id of ids) if (await graph.entity(id) === undefined) throw new MemoryErrors.NOT_FOUND(`No entity with id "${id}" (entity_ids).`)
  }

  async #newFact (f: FactInput): Promise<NewFact> {
    if (f.claim.trim() === '') throw new MemoryErrors.BAD_REQUEST('A fact needs a non-empty claim.')
    return {
      claim: f.claim, claim_hash: claimHash(f.claim), confidence: f.confidence, source: f.source ?? 'user_stated',
      source_turn_id: f.source_turn_id ?? null, entity_ids: f.entity_ids, channel: checkChannel(f.channel ?? DEFAULT),
      temporal_context: f.temporal_context ?? 'current', salience: f.salience, embedding: await this.#embedding.embed(f.claim),
    }
  }

  /** Replaces a fact with a newer one; the old one stays, linked, out of recall. */
  async supersedeFact (oldId: string, next: FactInput, actor: Actor = 'system'): Promise<{ old: Fact, fact: Fact }> {
    const graph = this.#ctx.need('graph')
    const old = await graph.fact(oldId)
    if (old === undefined) throw new MemoryErrors.NOT_FOUND(`No fact with id "${oldId}".`)
    const res = await graph.supersedeFact(oldId, await this.#newFact({ ...next, channel: next.channel ?? old.channel }))
    await record(this.#ctx, { kind: 'fact', action: 'superseded', id: oldId, channel: res.old.channel, actor, details: { superseded_by_id: res.fact.id, claim: res.old.claim, by_claim: res.fact.claim } })
    await record(this.#ctx, { kind: 'fact', action: 'create', id: res.fact.id, channel: res.fact.channel, actor, details: { supersedes_id: oldId, claim: res.fact.claim, source: res.fact.source, confidence: res.fact.confidence } })
    await this.#ctx.stored('fact', res.fact)
    return res
  }

  async relate (r: RelationInput): Promise<Relationship> {
    const graph = this.#ctx.need('graph')
    for (const id of [r.source_id, r.target_id]) if (await graph.entity(id) === undefined) throw new MemoryErrors.NOT_FOUND(`No entity with id "${id}".`)
    return await graph.relate({ ...r, channel: checkChannel(r.channel ?? DEFAULT) })
  }
}
