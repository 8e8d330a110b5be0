// The `query_expansion` recall technique: the rule-made variants of the query (rules.ts)
// are searched together by keywords and by their vector, the two lists fused by
// reciprocal rank fusion. No model is needed.
import { rrf } from '@agentd/sdk/kits/recall'
import type { RelationalStore, Turn } from '@agentd/sdk/contracts/memory-stores'
import type { RecallCandidates, RecallInput, RecallTechnique } from '@agentd/sdk/contracts/recall'
import { expandQuery } from './rules.ts'

const ms = (t0: number): number => Math.round((performance.now() - t0) * 100) / 100

export function expansionTechnique (relational: () => RelationalStore | undefined): RecallTechnique {
  return {
    name: 'query_expansion',
    run: async (input: RecallInput): Promise<RecallCandidates> => {
      const rel = relational()
      const s = input.settings
      if (rel === undefined) return {}
      let t0 = performance.now()
      const variants = expandQuery(input.query, s.recall_expansion_max_variants)
      const timings: Record<string, number> = { variants: ms(t0) }
      if (variants.length === 0) return { relevant_turns: [], timings_ms: timings }
      const n = Math.max(input.top_k * 2, 20)
      t0 = performance.now()
      // One keyword search over every variant's words (IDF weighs them), and one vector
      // search for the variants together: two queries however many variants, since every
      // technique shares one database connection on PGlite.
      const together = variants.join(' ')
      const embedding = await input.embed?.(together)
      const [text, vector] = await Promise.all([
        rel.searchTurns({ text: together, channels: input.channels, limit: n }),
        embedding === undefined ? [] : rel.similarTurns({ embedding, channels: input.channels, limit: n }),
      ])
      timings.search = ms(t0)
      const fused = rrf<Turn>([{ weight: s.recall_hybrid_bm25_weight, items: text }, { weight: s.recall_hybrid_vector_weight, items: vector.filter(t => t.score > 0.05) }],
        s.recall_hybrid_rrf_k, t => t.id, t => Date.parse(t.timestamp))
      return { relevant_turns: fused.map(({ item, score }) => ({ ...item, score })), timings_ms: timings }
    },
  }
}
