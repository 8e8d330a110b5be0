// Semantic memory in the graph store: entities, facts (one per channel and claim hash;
// a newer fact supersedes an older one, which stays linked and out of recall) and the
// relationships between entities.
import { claimHash } from '@agentd/sdk/kits/memory'
import type { Entity, Fact, NewEntity, NewFact, Relationship, TemporalContext } from '@agentd/sdk/contracts/memory-stores'
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

  async addEntity (e: EntityInput): Promise<{ entity: Entity, created: boolean }> {
    const channel = checkChannel(e.channel ?? DEFAULT)
    const embedding = await this.#embedding.embed([e.name, e.description ?? ''].join(' ').trim())
    const res = await this.#ctx.need('graph').upsertEntity({ ...e, channel, embedding })
    if (res.created) await this.#ctx.stored('entity', res.entity)
    return res
  }

  async addFact (f: FactInput): Promise<{ fact: Fact, created: boolean }> {
    const res = await this.#ctx.need('graph').addFact(await this.#newFact(f))
    if (res.created) await this.#ctx.stored('fact', res.fact)
    return res
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
  async supersedeFact (oldId: string, next: FactInput): Promise<{ old: Fact, fact: Fact }> {
    const graph = this.#ctx.need('graph')
    const old = await graph.fact(oldId)
    if (old === undefined) throw new MemoryErrors.NOT_FOUND(`No fact with id "${oldId}".`)
    const res = await graph.supersedeFact(oldId, await this.#newFact({ ...next, channel: next.channel ?? old.channel }))
    await this.#ctx.relational?.audit({ action: 'fact.supersede', target: oldId, channel: res.fact.channel, details: { superseded_by_id: res.fact.id } }).catch(() => {})
    await this.#ctx.stored('fact', res.fact)
    return res
  }

  async relate (r: RelationInput): Promise<Relationship> {
    const graph = this.#ctx.need('graph')
    for (const id of [r.source_id, r.target_id]) if (await graph.entity(id) === undefined) throw new MemoryErrors.NOT_FOUND(`No entity with id "${id}".`)
    return await graph.relate({ ...r, channel: checkChannel(r.channel ?? DEFAULT) })
  }
}
