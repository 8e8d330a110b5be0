// The `time` recall technique: a query that names a time ("What did Maria donate in
// December 2023?", "what happened on 7 May 2023") favours the turns of that time. Every
// turn's keywords hold its date and the dates its relative expressions point to ("yesterday"
// said on 8 May 2023: 7 May), as day and month words (the recall kit's dates.ts); a search
// for the query's date words finds the turns of that day or month, and of the query's
// keyword and vector neighbours those are this technique's list, in their fused order: the
// fusion then counts them once more. Filtering by time and ranking by relevance, as
// time-aware retrieval does (LongMemEval's time-aware query expansion narrows the search to
// the time the question names), without a model. A query naming no time costs a regular
// expression.
import type { CopyStore, Turn, TurnStore } from '@agentd/sdk/contracts/memory-stores'
import type { RecallCandidates, RecallInput, RecallTechnique } from '@agentd/sdk/contracts/recall'
import { FusionSettings, candidateDepth, keywordTurns, queryDateWords, rrf, settingsOf, elapsedMs } from '@agentd/sdk/kits/recall'
import { TimeSettings } from './settings.ts'

/**
 * How many turns of the named time are read: a month of a busy channel holds more, and
 * then only the ones whose date words rank first (every one of them holds the same word:
 * the shorter turns) are seen. Keyword search reads no word held by most of a channel.
 */
const DATED = 500

export function timeTechnique (relational: () => TurnStore | undefined, graph: () => CopyStore | undefined = () => undefined): RecallTechnique {
  return {
    name: 'time',
    // As much as the vector list: the turns of the named time are few, and each of them
    // is a candidate the question's words alone may not rank (LoCoMo dev R@10 0.748 without).
    weight: 0.7,
    settings: TimeSettings,
    run: async (input: RecallInput): Promise<RecallCandidates> => {
      const rel = relational()
      if (rel === undefined) return {}
      let t0 = performance.now()
      const dates = await queryDateWords(input.query)
      const timings: Record<string, number> = { dates: elapsedMs(t0) }
      if (dates.length === 0) return { relevant_turns: [], timings_ms: timings }
      t0 = performance.now()
      const stores = { graph: graph(), relational: rel }
      // Deeper than the others: only the neighbours of the named time are kept.
      const n = candidateDepth(input.top_k, input.settings, 5, 50)
      const { embedding, channels } = input
      const [dated, text, vector] = await Promise.all([
        rel.searchTurns({ text: dates.join(' '), channels, limit: DATED }),
        keywordTurns(stores, { text: input.query, channels, limit: n }),
        embedding === undefined ? [] : input.nearestTurns?.(n) ?? rel.similarTurns({ embedding, channels, limit: n }),
      ])
      timings.search = elapsedMs(t0)
      const then = new Set(dated.map(t => t.id))
      const s = settingsOf(FusionSettings, input.settings)
      const fused = rrf<Turn>([
        { weight: s.recall_hybrid_bm25_weight, items: text.filter(t => then.has(t.id)) },
        { weight: s.recall_hybrid_vector_weight, items: vector.filter(t => then.has(t.id)) },
      ], s.recall_hybrid_rrf_k, t => t.id, t => Date.parse(t.timestamp))
      return { relevant_turns: fused.map(({ item, score }) => ({ ...item, score })), timings_ms: timings }
    },
  }
}
