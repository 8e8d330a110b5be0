// The `entity_centric` recall technique: entities the query names (by name or alias, or by
// embedding at least recall_entity_similarity_threshold similar; at most
// recall_entity_max_entities), then their current facts, and the turns that mention them
// (keyword search for the query with the entities' names and aliases). Works with what
// exists: with no graph store or no entities yet it gives nothing.
import { STOPWORDS, candidateDepth, keywordTurns, settingsOf, words, elapsedMs } from '@agentd/sdk/kits/recall'
import { EntitySettings } from './settings.ts'
import type { Entity, EntityGraph, Fact, GraphStore, RelationalStore } from '@agentd/sdk/contracts/memory-stores'
import type { RecallCandidates, RecallInput, RecallTechnique } from '@agentd/sdk/contracts/recall'

/**
 * Words of the query that could name an entity: capitalised words that are not function
 * words ("Okafor", "Lisbon"); at most 3, each one lookup per channel. Other entities are
 * found by embedding.
 */
export function nameCandidates (query: string): string[] {
  const caps = [...query.matchAll(/(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}'-]+/gu)].map(m => m[0].replace(/'s$/, '').toLowerCase())
  return [...new Set(caps)].filter(w => !STOPWORDS.has(w) && w.length >= 2).slice(0, 3)
}

const mentions = (e: Entity, word: string): boolean =>
  [e.name, ...e.aliases].some(n => words(n).includes(word) || n.toLowerCase() === word)

type Walked = Array<{ e: Entity & { score: number }, g: EntityGraph | undefined }>

/**
 * The facts of the entities within `depth` relationship hops of the matched ones (at most
 * `limit` entities, nearest first), each scored as its matched entity's score times its
 * confidence, halved per hop: a neighbour's fact ranks below the entity's own.
 */
async function relatedFacts (graph: GraphStore, walked: Walked, depth: number, limit: number): Promise<Array<Fact & { score: number, about: string, via: string }>> {
  const matched = new Set(walked.map(w => w.e.id))
  const near = new Map<string, { hop: number, name: string, from: Entity & { score: number } }>()
  for (const { e, g } of walked) {
    for (const r of g?.relationships ?? []) {
      if (r.depth > depth) continue
      for (const end of [r.source, r.target]) {
        if (matched.has(end.id)) continue
        const had = near.get(end.id)
        if (had === undefined || r.depth < had.hop) near.set(end.id, { hop: r.depth, name: end.name, from: e })
      }
    }
  }
  const picked = [...near.entries()].sort((a, b) => a[1].hop - b[1].hop || b[1].from.score - a[1].from.score).slice(0, limit)
  const graphs = await Promise.all(picked.map(async ([id, n]) => ({ n, g: await graph.graph(id, 1) })))
  return graphs.flatMap(({ n, g }) => (g?.facts ?? []).map(f => ({ ...f, score: n.from.score * f.confidence * 0.5 ** n.hop, about: n.name, via: n.from.name })))
}

export function entityTechnique (stores: { graph: () => GraphStore | undefined, relational: () => RelationalStore | undefined }): RecallTechnique {
  return {
    name: 'entity_centric',
    settings: EntitySettings,
    run: async (input: RecallInput): Promise<RecallCandidates> => {
      const graph = stores.graph()
      if (graph === undefined) return {}
      const s = settingsOf(EntitySettings, input.settings)
      const max = s.recall_entity_max_entities
      const timings: Record<string, number> = {}
      let t0 = performance.now()
      const found = new Map<string, Entity & { score: number }>()
      // The service's shared read of the query's nearest entities (vector_recency reads the
      // same), else our own. It lists every entity with a vector in the channels, up to
      // `max` (the SQL kit falls back to an exact scan rather than return fewer rows than
      // exist): none means the channels hold no entity the embedder has seen, and a name
      // search would find none either. Skipped then, as it is a statement of its own
      // (0.4-0.6 ms on PGlite over an empty table) on every chat in a channel not yet
      // consolidated. Entities are embedded when stored; one stored while the embedder
      // failed is found by name once any entity in its channels has a vector.
      const near = input.embedding === undefined
        ? undefined
        : await (input.nearestEntities?.(max) ?? graph.similarEntities({ embedding: input.embedding, channels: input.channels, limit: max }))
      const names = near?.length === 0 ? [] : nameCandidates(input.query)
      // A store with keyword search (full-text index: names, aliases, descriptions) answers
      // every candidate word in one query; otherwise one substring lookup of names per word
      // and channel. Either way only entities whose name or an alias holds the word count.
      const { searchEntities } = graph
      const byName = names.length === 0
        ? []
        : searchEntities !== undefined
          ? (await searchEntities.call(graph, { text: names.join(' '), channels: input.channels, limit: Math.max(20, max * 4) })).filter(e => names.some(w => mentions(e, w)))
          : (await Promise.all(names.flatMap(w => input.channels.map(async channel =>
              (await graph.entities({ channel, search: w, offset: 0, limit: 5 })).items.filter(e => mentions(e, w)))))).flat()
      for (const e of byName) if (!found.has(e.id)) found.set(e.id, { ...e, score: 1 })
      for (const e of near ?? []) if (e.score >= s.recall_entity_similarity_threshold && !found.has(e.id)) found.set(e.id, e)
      timings.match = elapsedMs(t0)
      const entities = [...found.values()].sort((a, b) => b.score - a.score || b.salience - a.salience).slice(0, max)
      if (entities.length === 0) return { entities: [], facts: [], relevant_turns: [], timings_ms: timings }
      t0 = performance.now()
      const depth = s.recall_entity_graph_depth
      const graphs = await Promise.all(entities.map(async e => ({ e, g: await graph.graph(e.id, Math.max(1, depth)) })))
      const own = graphs.flatMap(({ e, g }) => (g?.facts ?? []).map(f => ({ ...f, score: e.score * f.confidence, about: e.name })))
      const related = depth === 0 ? [] : await relatedFacts(graph, graphs, depth, max * 2)
      const seen = new Set<string>()
      const facts = [...own, ...related]
        .filter(f => f.superseded_at === null && input.channels.includes(f.channel))
        .sort((a, b) => b.score - a.score)
        .filter(f => !seen.has(f.id) && seen.add(f.id) !== undefined)
      timings.facts = elapsedMs(t0)
      t0 = performance.now()
      const rel = stores.relational()
      const aliases = entities.flatMap(e => [e.name, ...e.aliases]).join(' ')
      // The graph store's copies of the turns when it keeps them (Neo4j's full-text index), else the relational store's.
      const turns = await keywordTurns({ graph, relational: rel }, { text: `${input.query} ${aliases}`, channels: input.channels, limit: candidateDepth(input.top_k, input.settings, 2) })
      timings.turns = elapsedMs(t0)
      return {
        entities,
        facts,
        relevant_turns: turns,
        timings_ms: timings,
        // Its turns are one more keyword list (the query's words and the entities' names),
        // a third beside hybrid's and the variants': at full weight they outvoted the vector
        // list once consolidation had named the speakers (LoCoMo dev R@10 after
        // consolidation 0.716 at 1, 0.758 at 0.3, 0.764 at 0.2, 0.763 at 0). Its facts and
        // entities, which no other list holds, keep the technique's weight.
        weights: { relevant_turns: 0.2 },
      }
    },
  }
}
