// Storing one conversation's extraction in the graph: entities linked to what the channel
// already holds (same name or alias, else a name similar enough, of the same type), facts
// filtered for relevance and checked against the current facts about their subject
// (supersession), then relationships. Everything is keyed so that storing the same
// extraction twice adds nothing (claim_hash, entity name, relationship triple).
import { setImmediate } from 'node:timers/promises'
import type { Entity, Fact, GraphStore, NewFact } from '@agentd/sdk/contracts/memory-stores'
import { USER, attributeOf, normPredicate, isRelation, type Extraction, type ExtractedFact, type ExtractionTurn } from './extraction.ts'
import { GLOBAL_CHANNEL } from '@agentd/sdk/kits/memory'
import type { ConsolidationDeps } from './deps.ts'
import type { ConsolidateSettingsValues } from './settings.ts'
import { isSmallTalk } from './junk.ts'

export type StoreMetrics = {
  entities_created: number
  entities_linked: number
  facts_created: number
  facts_existing: number
  facts_superseded: number
  facts_flagged: number
  facts_filtered: number
  relationships: number
}
export const emptyStoreMetrics = (): StoreMetrics => ({ entities_created: 0, entities_linked: 0, facts_created: 0, facts_existing: 0, facts_superseded: 0, facts_flagged: 0, facts_filtered: 0, relationships: 0 })

/** How lasting an attribute is: who someone is, where they work and live, who they know, count most. */
function weight (predicate: string): number {
  const p = normPredicate(predicate)
  if (['name', 'works_at', 'job_title', 'lives_in', 'from', 'born_in', 'birth_year', 'age', 'studies_at', 'allergic_to', 'diet', 'has_pet'].includes(p) || isRelation(p)) return 1
  if (['likes', 'dislikes', 'prefers', 'speaks', 'plays', 'teaches', 'studies', 'learning', 'drives'].includes(p) || p.startsWith('favourite_') || p.startsWith('favorite_')) return 0.8
  return 0.7
}

/** A fact's relevance: how certain times how lasting. The relevance filter compares it with relevance_threshold. */
export const relevance = (f: Pick<ExtractedFact, 'confidence' | 'predicate'>): number => f.confidence * weight(f.predicate)

/** Salience from the number of conversations that mentioned an entity: 0.5, 0.625, 0.72 ... -> 1. */
export const salienceFor = (conversations: number): number => 1 - 0.5 * 0.75 ** Math.max(0, conversations - 1)

const TYPES = new Map(['person', 'organization', 'location', 'concept', 'event', 'animal'].map(t => [t, t[0].toUpperCase() + t.slice(1)]))
const normType = (t: string): string => TYPES.get(t.toLowerCase()) ?? (t.toLowerCase() === 'organisation' ? 'Organization' : t.toLowerCase() === 'place' ? 'Location' : t)

export class ExtractionWriter {
  readonly metrics = emptyStoreMetrics()
  readonly #ids = new Map<string, string>()

  constructor (
    private readonly deps: ConsolidationDeps,
    private readonly s: Readonly<ConsolidateSettingsValues>,
    private readonly channel: string,
    private readonly conversationId: string,
    private readonly signal?: AbortSignal,
  ) {}

  get #graph (): GraphStore { return this.deps.graph() }
  /** Linking and supersession read the conversation's channel, then what was promoted. */
  get #channels (): string[] { return this.channel === GLOBAL_CHANNEL ? [GLOBAL_CHANNEL] : [this.channel, GLOBAL_CHANNEL] }

  async store (x: Extraction, turns: ExtractionTurn[]): Promise<void> {
    const declared = new Map(x.entities.map(e => [e.name.trim().toLowerCase(), e]))
    const entityId = async (name: string, fallbackType: string): Promise<string> => {
      const key = name.trim().toLowerCase()
      const had = this.#ids.get(key)
      if (had !== undefined) return had
      const e = declared.get(key)
      const id = await this.#entity(e?.name ?? name.trim(), normType(e?.type ?? fallbackType), e?.aliases ?? [], e?.description ?? null)
      this.#ids.set(key, id)
      return id
    }
    // A turn between items: the embedded database answers without leaving the event loop
    // (its statements resolve as microtasks), so a long extraction stored in one go held
    // every request up; now the loop serves them between one item's statements and the next.
    for (const e of x.entities) { await entityId(e.name, e.type); await setImmediate() }

    // Facts in the order they were said, so a later statement supersedes an earlier one.
    const facts = [...x.facts].sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0))
    for (const f of facts) {
      this.signal?.throwIfAborted()
      const source = f.turn === undefined ? undefined : turns[f.turn]
      // Junk never stored: from a turn that is small talk, below the quality bars.
      if ((source !== undefined && isSmallTalk(source.content)) || f.confidence < this.s.fact_confidence_threshold ||
        (this.s.relevance_filter_enabled && relevance(f) < this.s.relevance_threshold)) {
        this.metrics.facts_filtered++
        continue
      }
      const subjectId = await entityId(f.subject, f.subject === USER ? 'Person' : 'Concept')
      const linked = [subjectId]
      for (const n of f.entities ?? []) if (declared.has(n.trim().toLowerCase()) || this.#ids.has(n.trim().toLowerCase())) linked.push(await entityId(n, 'Concept'))
      await this.#fact(f, subjectId, [...new Set(linked)], source?.id ?? null)
      await setImmediate()
    }

    for (const r of x.relationships) {
      const [a, b] = [r.source.trim().toLowerCase(), r.target.trim().toLowerCase()]
      if (a === b) continue
      const src = this.#ids.get(a) ?? (declared.has(a) ? await entityId(r.source, 'Concept') : undefined)
      const dst = this.#ids.get(b) ?? (declared.has(b) ? await entityId(r.target, 'Concept') : undefined)
      if (src === undefined || dst === undefined) continue
      await this.#graph.relate({ source_id: src, target_id: dst, type: normPredicate(r.type), confidence: r.confidence, channel: this.channel })
      this.metrics.relationships++
      await setImmediate()
    }
  }

  /** Links to an entity the channel holds (name or alias; else a similar name of the same type) or creates one. */
  async #entity (name: string, type: string, aliases: string[], description: string | null): Promise<string> {
    const g = this.#graph
    let found: Entity | undefined
    if (this.s.entity_linking_enabled) {
      const byName = [name, ...aliases]
      for (const n of byName) {
        const hits = await g.findEntities({ channels: this.#channels, name: n, limit: 5 })
        found = hits.find(h => h.type === type) ?? hits.find(h => name !== USER && h.name !== USER) ?? (name === USER ? hits.find(h => h.name === USER) : undefined)
        if (found !== undefined) break
      }
      if (found === undefined && name !== USER) {
        const embedding = await this.deps.embed(name, this.signal)
        if (embedding !== undefined) {
          const near = await g.similarEntities({ embedding, channels: this.#channels, limit: 3 })
          found = near.find(e => e.type === type && e.name !== USER && e.score >= this.s.entity_linking_similarity_threshold)
        }
      }
    }
    const embedding = await this.deps.embed([found?.name ?? name, found?.description ?? description ?? ''].join(' ').trim(), this.signal)
    const extra = found !== undefined && found.name.toLowerCase() !== name.toLowerCase() ? [name, ...aliases] : aliases
    // A linked entity stays where it is (a promoted one in _global).
    const res = await g.upsertEntity({
      name: found?.name ?? name, type: found?.type ?? type, aliases: extra.filter(a => a.toLowerCase() !== (found?.name ?? name).toLowerCase()),
      description: found === undefined ? description : null, channel: found?.channel ?? this.channel, embedding, conversation_id: this.conversationId,
    })
    if (res.created) {
      this.metrics.entities_created++
      await this.deps.history?.({ kind: 'entity', action: 'create', id: res.entity.id, channel: res.entity.channel, details: { name: res.entity.name, type: res.entity.type, conversation_id: this.conversationId } })
    } else if (found !== undefined) {
      this.metrics.entities_linked++
      // Another name for it merged in (linked by alias or a similar name): in its history.
      const had = new Set([found.name, ...found.aliases].map(a => a.toLowerCase()))
      const added = [name, ...aliases].filter(a => !had.has(a.toLowerCase()))
      if (added.length > 0) await this.deps.history?.({ kind: 'entity', action: 'merge', id: res.entity.id, channel: res.entity.channel, actor: 'merge', details: { name: res.entity.name, merged_names: added, by: 'consolidation', conversation_id: this.conversationId } })
    }
    // Salience grows with the number of conversations that mention it (never lowered).
    const target = salienceFor(res.entity.conversation_count)
    if (target > res.entity.salience) await g.setSalience('entity', res.entity.id, target)
    return res.entity.id
  }

  async #fact (f: ExtractedFact, subjectId: string, entityIds: string[], sourceTurnId: string | null): Promise<void> {
    const g = this.#graph
    const attribute = attributeOf(f.predicate)
    const claimHash = this.deps.claimHash(f.claim)
    const next: NewFact = {
      claim: f.claim, claim_hash: claimHash, confidence: f.confidence, source: 'extraction', source_turn_id: sourceTurnId,
      entity_ids: entityIds, channel: this.channel, temporal_context: f.temporal_context, embedding: await this.deps.embed(f.claim, this.signal),
      subject_id: subjectId, attribute, value: f.object, conversation_id: this.conversationId,
    }
    const known = await g.findFact({ channels: this.#channels, claim_hash: claimHash })
    // The same claim again (this run, a re-run, or another conversation) is a restatement,
    // never a contradiction: counted where it is (a promoted fact in _global), not superseding anything.
    if (known !== undefined) return await this.#add({ ...next, channel: known.channel })
    if (attribute === null) return await this.#add(next)
    const sameValue = (x: Fact): boolean => (x.value ?? '').trim().toLowerCase() === f.object.trim().toLowerCase()
    const current = (await g.currentFacts({ channels: this.#channels, subject_id: subjectId, attribute })).filter(x => x.claim_hash !== claimHash)
    // A current fact is contradicted by a new current value, or by "no longer" the same value.
    // Memory settings: contradiction_detection_enabled governs the first, correction_detection_enabled the second.
    const contradicted = f.temporal_context === 'current' ? (this.s.contradiction_detection_enabled ? current.filter(x => !sameValue(x)) : [])
      : f.temporal_context === 'past' ? (this.s.correction_detection_enabled ? current.filter(sameValue) : []) : []
    if (contradicted.length === 0) return await this.#add(next)
    if (f.confidence < this.s.contradiction_review_threshold) {
      this.metrics.facts_flagged++
      return await this.#add({ ...next, flagged_for_review: true })
    }
    // The first supersession stores the new fact; the others link to it (same claim_hash).
    for (const [i, old] of contradicted.entries()) {
      const res = await g.supersedeFact(old.id, next)
      await this.deps.history?.({ kind: 'fact', action: 'superseded', id: old.id, channel: old.channel, details: { superseded_by_id: res.fact.id, claim: old.claim, by_claim: res.fact.claim } })
      if (i === 0) await this.deps.history?.({ kind: 'fact', action: 'create', id: res.fact.id, channel: res.fact.channel, details: { supersedes_id: old.id, claim: res.fact.claim, source: 'extraction', confidence: res.fact.confidence } })
      this.metrics.facts_superseded++
      if (i === 0) this.metrics.facts_created++
    }
  }

  async #add (f: NewFact): Promise<void> {
    const res = await this.#graph.addFact(f)
    if (res.created) {
      this.metrics.facts_created++
      await this.deps.history?.({ kind: 'fact', action: 'create', id: res.fact.id, channel: res.fact.channel, details: { claim: res.fact.claim, source: 'extraction', confidence: res.fact.confidence, flagged_for_review: f.flagged_for_review === true } })
    } else this.metrics.facts_existing++
  }
}
