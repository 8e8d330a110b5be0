// Hybrid recall: keyword search (RelationalStore.searchTurns: BM25-style full text) beside
// vector search over the same turns. Keyword search finds the turn that shares a rare word
// with the query ("Okafor", "Paystream"); vectors find the one that says it otherwise.
// This technique gives the keyword list; the vector list is the service's own
// (vector_recency's shared read), and the service fuses the two, by reciprocal rank with
// the settings' weights (0.3 / 0.7), in its one fusion beside every other technique's list.
// Fused here first and then again there (a rank of a rank), the vector list lost its
// weight against the keyword lists of query expansion and time: on LoCoMo dev, with every
// list 80 deep, R@10 0.728 so, 0.740 with this technique off (the vector list counted
// directly); one fusion as built 0.761 (docs/benchmarks.md, "One fusion").
// When the graph store keeps copies of the turns with a full-text index of its own
// (GraphStore.searchTurns: Neo4j's Lucene index), the keyword list comes from there; the
// graph store being down sends it back to the relational store, the record.
import { FusionSettings, candidateDepth, keywordTurns, settingsOf, elapsedMs } from '@agentd/sdk/kits/recall'
import { HybridSettings } from './settings.ts'
import type { CopyStore, TurnStore } from '@agentd/sdk/contracts/memory-stores'
import type { RecallCandidates, RecallInput, RecallTechnique } from '@agentd/sdk/contracts/recall'

export function hybridTechnique (relational: () => TurnStore | undefined, graph: () => CopyStore | undefined = () => undefined): RecallTechnique {
  return {
    name: 'hybrid',
    settings: HybridSettings,
    run: async (input: RecallInput): Promise<RecallCandidates> => {
      const rel = relational()
      if (rel === undefined) return {}
      const t0 = performance.now()
      const text = await keywordTurns({ graph: graph(), relational: rel }, { text: input.query, channels: input.channels, limit: candidateDepth(input.top_k, input.settings) })
      return {
        relevant_turns: text,
        timings_ms: { fulltext: elapsedMs(t0) },
        weights: { relevant_turns: settingsOf(FusionSettings, input.settings).recall_hybrid_bm25_weight },
      }
    },
  }
}
