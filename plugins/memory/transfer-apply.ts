// Writing a checked import file (transfer-read.ts, transfer-chatgpt.ts) into the stores,
// through the memory service and the store contracts, so every backend takes it and every
// item is embedded again with the embedder loaded here.
// Ids: a turn and its conversation keep their ids when they go back into the channel they
// came from (a restore; an id already stored is not added twice); into another channel they
// get name-based ids (transfer-ids.ts), the same on every import. Entities, facts, goals and
// strategies get the ids their store gives; every reference in the file (a fact's entities,
// subject and turn, supersession, relationships, a goal's parent) follows the mapping, and a
// reference to an item neither in the file nor in the store is dropped (counted in `dropped`).
// Duplicates: entities (name and type) and facts (claim) are merged by their stores; goals
// and strategies already in the channel with the same text are not added again.
// All or nothing: the stores are checked before the first write, and when a write fails the
// items this import created are deleted again (transfer-undo.ts) before the error answers.
import type { Entity, Fact, Goal, GraphStore, NewFact } from '@agentd/sdk/contracts/memory-stores'
import { claimHash } from '@agentd/sdk/kits/memory'
import type { MemoryServiceImpl } from './service.ts'
import type { FactItem, TransferDoc } from './transfer-format.ts'
import { nameUuid } from './transfer-ids.ts'
import { Undo } from './transfer-undo.ts'

export interface ImportResult {
  success: true
  channels: string[]
  /** Items written (new) per kind. */
  imported: Record<string, number>
  /** Items already there (merged or skipped) per kind. */
  existing: Record<string, number>
  /** References to items neither in the file nor in the store, left out. */
  dropped: number
  duration_ms: number
}

/** More turns than a conversation holds (conversationTurns takes the last `limit`). */
const ALL_TURNS = 10_000_000
const KINDS = ['conversations', 'turns', 'entities', 'relationships', 'facts', 'goals', 'strategies'] as const
type Kind = typeof KINDS[number]

/** How far an import is: items written or found so far of the file's `total`. */
export type Progress = (p: { done: number, total: number }) => void

export async function applyImport (svc: MemoryServiceImpl, doc: TransferDoc, opts: { channel?: string, onProgress?: Progress }): Promise<ImportResult> {
  const started = Date.now()
  const rel = svc.ctx.need('relational')
  const graph = svc.ctx.need('graph')
  // Both answer before anything is written: a store that is down fails the import whole.
  await Promise.all([rel.channels(), graph.entities({ offset: 0, limit: 1 })])
  const run = new ImportRun(svc, graph, opts.channel, KINDS.reduce((n, k) => n + doc[k].length, 0), opts.onProgress)
  try {
    await run.all(doc)
  } catch (err) {
    await run.undo.run(svc)
    throw err
  }
  await rel.audit({ action: 'memory.import', channel: opts.channel, details: { imported: run.imported, existing: run.existing } }).catch(() => {})
  return { success: true, channels: [...run.channels], imported: run.imported, existing: run.existing, dropped: run.dropped, duration_ms: Date.now() - started }
}

class ImportRun {
  readonly undo = new Undo()
  readonly imported = Object.fromEntries(KINDS.map(k => [k, 0])) as Record<Kind, number>
  readonly existing = Object.fromEntries(KINDS.map(k => [k, 0])) as Record<Kind, number>
  readonly channels = new Set<string>()
  dropped = 0
  readonly #turns = new Map<string, string>()
  readonly #entities = new Map<string, string>()
  readonly #facts = new Map<string, string>()
  readonly #goalIds = new Map<string, string>()

  #done = 0
  #reported = 0

  constructor (readonly svc: MemoryServiceImpl, readonly graph: GraphStore, readonly target: string | undefined,
    readonly total: number, readonly onProgress?: Progress) {}

  #count (kind: Kind, created: boolean): void {
    (created ? this.imported : this.existing)[kind]++
    // Reported at most every 2% of the file (and at its end), so a large import is not a line per item.
    this.#done++
    if (this.onProgress !== undefined && (this.#done - this.#reported >= Math.max(1, this.total / 50) || this.#done === this.total)) {
      this.#reported = this.#done
      this.onProgress({ done: this.#done, total: this.total })
    }
  }
  #into (channel: string): string { return this.target ?? channel }
  /** A reference after the mapping: the new id, or the old one when the store has it, else null (dropped). */
  async #ref (map: Map<string, string>, id: string | null | undefined, exists: (id: string) => Promise<unknown>): Promise<string | null> {
    if (id === null || id === undefined) return null
    const mapped = map.get(id)
    if (mapped !== undefined) return mapped
    if (await exists(id).catch(() => undefined) !== undefined) return id
    return this.#drop()
  }

  #drop (): null { this.dropped++; return null }

  async all (doc: TransferDoc): Promise<void> {
    const rel = this.svc.ctx.need('relational')
    const named = new Set([...doc.channels.map(c => c.name), ...KINDS.flatMap(k => (doc[k] as Array<{ channel: string }>).map(i => i.channel))].map(c => this.#into(c)))
    // A channel is there when any store holds something in it, not only when it was created.
    const there = new Set((await this.svc.channels.listChannels()).map(c => c.name))
    for (const name of named) {
      await rel.createChannel(name)
      if (!there.has(name)) this.undo.channel(name)
      this.channels.add(name)
    }
    await this.#conversations(doc)
    for (const e of doc.entities) {
      const { entity, created } = await this.svc.semantic.addEntity({ name: e.name, type: e.type, aliases: e.aliases, description: e.description, salience: e.salience, properties: e.properties, channel: this.#into(e.channel) }, 'user')
      this.#entities.set(e.id, entity.id)
      if (created) this.undo.add('entity', entity.id, entity.channel)
      this.#count('entities', created)
    }
    const entityExists = async (id: string): Promise<Entity | undefined> => await this.graph.entity(id)
    for (const r of doc.relationships) {
      const source = await this.#ref(this.#entities, r.source_id, entityExists)
      const target = await this.#ref(this.#entities, r.target_id, entityExists)
      if (source === null || target === null) continue
      await this.svc.semantic.relate({ source_id: source, target_id: target, type: r.type, confidence: r.confidence, channel: this.#into(r.channel) })
      this.#count('relationships', true)
    }
    await this.#allFacts(doc.facts)
    await this.#goals(doc)
    await this.#strategies(doc)
  }

  async #conversations (doc: TransferDoc): Promise<void> {
    const rel = this.svc.ctx.need('relational')
    const convChannel = new Map(doc.conversations.map(c => [c.id, c.channel]))
    const newConvId = (id: string, from: string): string => this.#into(from) === from ? id : nameUuid(`${this.#into(from)}:conversation:${id}`)
    const byConv = groupBy(doc.turns, t => t.conversation_id)
    for (const [conv, turns] of byConv) {
      const from = convChannel.get(conv) ?? turns[0].channel
      const id = newConvId(conv, from)
      const had = new Set((await rel.conversationTurns(id, ALL_TURNS)).map(t => t.id))
      const existed = had.size > 0
      if (!existed) this.undo.add('conversation', id, this.#into(from))
      this.#count('conversations', !existed)
      turns.sort((a, b) => (a.index ?? 0) - (b.index ?? 0) || a.timestamp.localeCompare(b.timestamp))
      for (const t of turns) {
        const turnId = this.#into(t.channel) === t.channel ? t.id : nameUuid(`${this.#into(t.channel)}:turn:${t.id}`)
        // Already stored (a second import): not embedded again only to be found there.
        if (had.has(turnId)) { this.#turns.set(t.id, turnId); this.#count('turns', false); continue }
        const stored = await this.svc.episodic.addTurn({ id: turnId, timestamp: t.timestamp, conversation_id: id, role: t.role, content: t.content, channel: this.#into(t.channel), metadata: t.metadata })
        this.#turns.set(t.id, stored.id)
        this.#count('turns', !had.has(stored.id))
      }
    }
    for (const c of doc.conversations) {
      if (c.consolidated_at !== undefined && c.consolidated_at !== null) await rel.markConsolidated([newConvId(c.id, c.channel)], c.consolidated_at)
    }
  }

  /** Facts oldest first along each supersession chain: a fact that supersedes one in the file is stored by superseding it. */
  async #allFacts (facts: FactItem[]): Promise<void> {
    const inFile = new Set(facts.map(f => f.id))
    const next = groupBy(facts.filter(f => f.supersedes_id !== undefined && f.supersedes_id !== null && inFile.has(f.supersedes_id)), f => f.supersedes_id ?? '')
    const walk = async (f: FactItem, supersedes?: string): Promise<void> => {
      // Already there as the file has it (a second import): not embedded again only to be found.
      const found = await this.graph.findFact({ channels: [this.#into(f.channel)], claim_hash: claimHash(f.claim) })
      const same = found !== undefined && (f.confidence ?? 0) <= found.confidence && (supersedes === undefined || found.supersedes_id === supersedes)
      const { fact, created } = found !== undefined && same
        ? { fact: found, created: false }
        : supersedes === undefined ? await this.graph.addFact(await this.#newFact(f)) : await this.#supersede(supersedes, await this.#newFact(f))
      this.#facts.set(f.id, fact.id)
      if (created && !this.undo.has(fact.id)) this.undo.add('fact', fact.id, fact.channel)
      this.#count('facts', created)
      for (const later of next.get(f.id) ?? []) await walk(later, fact.id)
    }
    for (const f of facts) if (f.supersedes_id === undefined || f.supersedes_id === null || !inFile.has(f.supersedes_id)) await walk(f)
  }

  /** A fact that already supersedes `oldId` (an earlier import) is left as it is. */
  async #supersede (oldId: string, nf: NewFact): Promise<{ fact: Fact, created: boolean }> {
    const found = await this.graph.findFact({ channels: [nf.channel], claim_hash: nf.claim_hash })
    if (found !== undefined && found.supersedes_id === oldId) return { fact: found, created: false }
    const { fact } = await this.graph.supersedeFact(oldId, nf)
    return { fact, created: found === undefined }
  }

  async #newFact (f: FactItem): Promise<NewFact> {
    const entityExists = async (id: string): Promise<Entity | undefined> => await this.graph.entity(id)
    const entityIds: string[] = []
    for (const id of f.entity_ids ?? []) { const m = await this.#ref(this.#entities, id, entityExists); if (m !== null) entityIds.push(m) }
    // A turn outside the file cannot be looked up by id through the contract: dropped.
    const turnRef = f.source_turn_id === undefined || f.source_turn_id === null ? null : this.#turns.get(f.source_turn_id) ?? this.#drop()
    return {
      claim: f.claim, claim_hash: claimHash(f.claim), confidence: f.confidence, source: f.source ?? 'user_stated', source_turn_id: turnRef,
      entity_ids: entityIds, channel: this.#into(f.channel), salience: f.salience, temporal_context: f.temporal_context ?? 'current',
      embedding: await this.svc.embedding.embed(f.claim), subject_id: await this.#ref(this.#entities, f.subject_id, entityExists),
      attribute: f.attribute ?? null, value: f.value ?? null, flagged_for_review: f.flagged_for_review,
    }
  }

  async #goals (doc: TransferDoc): Promise<void> {
    const rel = this.svc.ctx.need('relational')
    const byId = new Map(doc.goals.map(g => [g.id, g]))
    /** The goals of each channel, read once: a goal the same as one there is not added again. */
    const there = new Map<string, Goal[]>()
    const add = async (id: string): Promise<string> => {
      const done = this.#goalIds.get(id)
      if (done !== undefined) return done
      const g = byId.get(id)
      if (g === undefined) throw new Error(`goal ${id} not in the file`)
      const parentInFile = g.parent_goal_id !== undefined && g.parent_goal_id !== null && byId.has(g.parent_goal_id)
      const parent = parentInFile ? await add(g.parent_goal_id ?? '') : await this.#ref(this.#goalIds, g.parent_goal_id, async x => await rel.goal(x))
      const channel = this.#into(g.channel)
      let known = there.get(channel)
      if (known === undefined) there.set(channel, known = await rel.goals({ channels: [channel], limit: 100_000 }))
      const same = known.find(x => x.description === g.description && x.parent_goal_id === parent)
      const goal = same ?? await this.svc.procedural.addGoal({ description: g.description, status: g.status, priority: g.priority, parent_goal_id: parent, deadline: g.deadline, created_at: g.created_at, channel }, 'user')
      if (same === undefined) { this.undo.add('goal', goal.id, channel); known.push(goal) }
      this.#count('goals', same === undefined)
      this.#goalIds.set(id, goal.id)
      return goal.id
    }
    for (const g of doc.goals) await add(g.id)
  }

  async #strategies (doc: TransferDoc): Promise<void> {
    const rel = this.svc.ctx.need('relational')
    for (const s of doc.strategies) {
      const channel = this.#into(s.channel)
      const tools = JSON.stringify(s.tool_sequence ?? [])
      const have = await rel.strategies({ channel, search: s.description, offset: 0, limit: 100 })
      const same = have.items.find(x => x.description === s.description && x.context_pattern === s.context_pattern && JSON.stringify(x.tool_sequence) === tools)
      if (same === undefined) {
        const added = await this.svc.procedural.addStrategy({ description: s.description, context_pattern: s.context_pattern, tool_sequence: s.tool_sequence, success_count: s.success_count, failure_count: s.failure_count, last_used: s.last_used, channel }, 'user')
        this.undo.add('strategy', added.id, channel)
      }
      this.#count('strategies', same === undefined)
    }
  }
}

function groupBy<T> (items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const item of items) {
    const k = key(item)
    const list = out.get(k)
    if (list === undefined) out.set(k, [item])
    else list.push(item)
  }
  return out
}
