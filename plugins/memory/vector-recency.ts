// The memory service's own recall technique: vector similarity blended with recency over
// the active channel and _global, a RecallTechnique like any other plugin's (hybrid,
// entity-centric, HyDE...). It reads the stores and options it is given, nothing more.
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import { FusionSettings, asksAboutRecency, candidateDepth, settingsOf } from '@agentd/sdk/kits/recall'
import type { EmbeddingRef, GraphStore, RelationalStore, Turn } from '@agentd/sdk/contracts/memory-stores'
import type { Ranked, RecallCandidates, RecallInput, RecallTechnique } from '@agentd/sdk/contracts/recall'
import type { ServiceOptions } from './context.ts'
import { asksAboutPast } from './recall-time.ts'

/** What the technique reads: the stores serving now, and the ranking options. */
export interface VectorRecencyDeps {
  readonly relational: RelationalStore | undefined
  readonly graph: GraphStore | undefined
  readonly opts: Pick<ServiceOptions, 'recencyWeight' | 'recencyHalfLifeHours' | 'workingMemoryTurns'>
}

/** The basic technique: vector similarity + recency for turns; nearest facts, entities, strategies; active goals. */
export function vectorRecency (svc: VectorRecencyDeps): RecallTechnique {
  return {
    name: 'vector_recency',
    run: async (input: RecallInput): Promise<RecallCandidates> => {
      const degraded: string[] = []
      const timings: Record<string, number> = {}
      const part = async <T>(stage: string, role: 'relational' | 'graph', fn: () => Promise<T[]>): Promise<T[]> => {
        const t0 = performance.now()
        try {
          input.signal?.throwIfAborted()
          return await fn()
        } catch (err) {
          if (input.strict || !(err instanceof StoreUnavailableError)) throw err
          degraded.push(role)
          return []
        } finally { timings[stage] = Math.round((performance.now() - t0) * 100) / 100 }
      }
      const { embedding, channels, top_k: topK } = input
      const rel = svc.relational
      const graph = svc.graph
      const [turns, facts, entities, strategies, goals] = await Promise.all([
        part('turns', 'relational', async () => rel === undefined ? [] : await rankTurns(svc, rel, input, embedding)),
        part('facts', 'graph', async () => graph === undefined || embedding === undefined ? [] : (await graph.similarFacts({ embedding, channels, limit: topK, include_superseded: asksAboutPast(input.query) })).filter(f => f.score > 0.05)),
        part('entities', 'graph', async () => graph === undefined || embedding === undefined ? [] : (await (input.nearestEntities?.(Math.min(topK, 5)) ?? graph.similarEntities({ embedding, channels, limit: Math.min(topK, 5) }))).filter(e => e.score > 0.2)),
        part('strategies', 'relational', async () => rel === undefined || embedding === undefined ? [] : (await rel.similarStrategies({ embedding, channels, limit: 3 })).filter(s => s.score > 0.2)),
        part('goals', 'relational', async () => rel === undefined ? [] : await rel.goals({ channels, status: 'active', limit: 5 })),
      ])
      // The vector list weighs what the settings give vector ranks where they meet keyword
      // ranks (hybrid's list, the variants', each its own list in the service's one fusion).
      // Without a vector the newest turns stand in, and count no more than the keyword list.
      const s = settingsOf(FusionSettings, input.settings)
      const weights = { relevant_turns: embedding === undefined ? s.recall_hybrid_bm25_weight : s.recall_hybrid_vector_weight }
      return { relevant_turns: turns, facts, entities, strategies, active_goals: goals, degraded, timings_ms: timings, weights }
    },
  }
}

/** The ranking options vector neighbours are ranked by. */
export type RankOptions = Pick<ServiceOptions, 'recencyWeight' | 'recencyHalfLifeHours'>

/**
 * The query's vector neighbours as the service ranks them: by similarity, recency only
 * breaking ties (rounded similarity), unless the query asks for what is recent: then
 * score = (1-w)·cosine + w·2^(-age/half-life). Neighbours below 0.05 are noise and left out.
 * `similarity` keeps the cosine. Used for the one shared read of a recall (RecallInput.nearestTurns),
 * so hybrid's vector list is this ranking too.
 */
export function rankNeighbours<T extends { score: number, timestamp: string }> (turns: T[], query: string, opts: RankOptions, now = Date.now()): Array<T & { similarity: number }> {
  const w = asksAboutRecency(query) ? opts.recencyWeight : 0
  const recency = (ts: string): number => 2 ** (-(now - Date.parse(ts)) / (opts.recencyHalfLifeHours * 3_600_000))
  return turns.filter(t => t.score > 0.05)
    .map(t => ({ ...t, similarity: t.score, score: Math.round(((1 - w) * t.score + w * recency(t.timestamp)) * 10_000) / 10_000 }))
    .sort((a, b) => b.score - a.score || Date.parse(b.timestamp) - Date.parse(a.timestamp))
}

/**
 * Turns: the query's neighbours ranked by rankNeighbours (the service's shared read already
 * is), or, without a vector, the newest turns. The current conversation's latest turns are
 * left out by the service after fusion (they are already in the chat history).
 */
async function rankTurns (svc: VectorRecencyDeps, rel: RelationalStore, input: RecallInput, embedding: EmbeddingRef | undefined): Promise<Array<Turn & Ranked>> {
  // Read deeper than top_k: the service may drop the current conversation's turns and repeats.
  // As deep as hybrid reads (candidateDepth), so the service's one shared read serves both.
  const n = candidateDepth(input.top_k, input.settings)
  if (embedding === undefined) {
    return (await rel.recentTurns(input.channels, n)).map(t => ({ ...t, similarity: null, score: 0 }))
      .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp))
  }
  const ranked = input.nearestTurns !== undefined ? await input.nearestTurns(n) : rankNeighbours(await rel.similarTurns({ embedding, channels: input.channels, limit: n }), input.query, svc.opts)
  return ranked.map(t => ({ ...t }))
}
