// Hybrid recall: keyword search (RelationalStore.searchTurns: BM25-style full text) and
// vector search over the same turns, fused by reciprocal rank fusion with the settings'
// weights (0.3 / 0.7, k 60 by default). Keyword search finds the turn that shares a rare
// word with the query ("Okafor", "Paystream"); vectors find the one that says it otherwise.
// When the graph store keeps copies of the turns with a full-text index of its own
// (GraphStore.searchTurns: Neo4j's Lucene index), the keyword list comes from there; the
// graph store being down sends it back to the relational store, the record.
import { FusionSettings, keywordTurns, rrf, settingsOf, elapsedMs } from '@agentd/sdk/kits/recall'
import { HybridSettings } from './settings.ts'
import type { CopyStore, Turn, TurnStore } from '@agentd/sdk/contracts/memory-stores'
import type { RecallCandidates, RecallInput, RecallTechnique } from '@agentd/sdk/contracts/recall'

/** Below this cosine a vector neighbour is noise, not a match. */
const MIN_SIMILARITY = 0.05

/** How deep each list is read: fusion needs more than the top_k of each to agree on. */
export const depth = (topK: number): number => Math.max(topK * 3, 30)

export function hybridTechnique (relational: () => TurnStore | undefined, graph: () => CopyStore | undefined = () => undefined): RecallTechnique {
  return {
    name: 'hybrid',
    settings: HybridSettings,
    run: async (input: RecallInput): Promise<RecallCandidates> => {
      const rel = relational()
      if (rel === undefined) return {}
      const timings: Record<string, number> = {}
      const timed = async <T>(stage: string, p: Promise<T>): Promise<T> => {
        const t0 = performance.now()
        try { return await p } finally { timings[stage] = elapsedMs(t0) }
      }
      const n = depth(input.top_k)
      const { embedding, channels } = input
      const [text, vector] = await Promise.all([
        timed('fulltext', keywordTurns({ graph: graph(), relational: rel }, { text: input.query, channels, limit: n })),
        // The service's shared read of the query's neighbours (vector_recency reads the same), else our own.
        embedding === undefined ? [] : timed('vector', input.nearestTurns?.(n) ?? rel.similarTurns({ embedding, channels, limit: n })),
      ])
      const s = settingsOf(FusionSettings, input.settings)
      const fused = rrf<Turn>([
        { weight: s.recall_hybrid_bm25_weight, items: text },
        { weight: s.recall_hybrid_vector_weight, items: vector.filter(t => t.score > MIN_SIMILARITY) },
      ], s.recall_hybrid_rrf_k, t => t.id, t => Date.parse(t.timestamp))
      return {
        relevant_turns: fused.map(({ item, score }) => ({ ...item, score })),
        timings_ms: timings,
        // The vector half is the service's shared list: the service then does not count it again.
        ...(embedding !== undefined && input.nearestTurns !== undefined ? { includes: [{ technique: 'vector_recency', part: 'relevant_turns' as const }] } : {}),
      }
    },
  }
}
