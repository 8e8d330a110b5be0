// The `query_expansion` recall technique: the rule-made variants of the query (rules.ts)
// searched together by keywords. No model is needed. Keywords only: the variants exist to
// widen the lexical match (synonyms, lemmas, statement forms the question's words miss);
// their vector would be the query's own neighbours again (the hashing embedder is a bag of
// words, a dense one already places synonyms near), which vector_recency and hybrid already
// count in the fusion. Counting them a third time buried what only the variants found:
// bench/recall-quality.bench.ts, R@10 0.667 -> 0.676, p50 one embed and one vector search less.
import type { TurnStore } from '@agentd/sdk/contracts/memory-stores'
import type { RecallCandidates, RecallInput, RecallTechnique } from '@agentd/sdk/contracts/recall'
import { candidateDepth, settingsOf, elapsedMs } from '@agentd/sdk/kits/recall'
import { expandQuery, synonymsAndRelated, type SynonymSource } from './rules.ts'
import { ExpansionSettings } from './settings.ts'

export function expansionTechnique (relational: () => TurnStore | undefined, synonymsOf: SynonymSource = synonymsAndRelated): RecallTechnique {
  return {
    name: 'query_expansion',
    // A second keyword list beside hybrid's (the variants hold the query's own words too):
    // under the vector list's 0.7, so the two keyword lists do not outvote it. 0.3-0.6 all
    // gave LoCoMo dev R@10 0.754-0.761, 0 gave 0.730, 1 0.730 (docs/benchmarks.md, "One fusion").
    weight: 0.4,
    settings: ExpansionSettings,
    run: async (input: RecallInput): Promise<RecallCandidates> => {
      const rel = relational()
      const s = settingsOf(ExpansionSettings, input.settings)
      if (rel === undefined) return {}
      let t0 = performance.now()
      const variants = expandQuery(input.query, s.recall_expansion_max_variants, synonymsOf)
      const timings: Record<string, number> = { variants: elapsedMs(t0) }
      if (variants.length === 0) return { relevant_turns: [], timings_ms: timings }
      const n = candidateDepth(input.top_k, input.settings, 2)
      t0 = performance.now()
      // One keyword search over every variant's words (IDF weighs them): one query however
      // many variants, since every technique shares one database connection on PGlite.
      const text = await rel.searchTurns({ text: variants.join(' '), channels: input.channels, limit: n })
      timings.search = elapsedMs(t0)
      return { relevant_turns: text.map(t => ({ ...t })), timings_ms: timings }
    },
  }
}
