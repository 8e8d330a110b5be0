// The `hyde` recall technique (Hypothetical Document Embeddings, Gao et al. 2022): a model
// writes a short answer as if it remembered one; that answer is embedded and searched,
// since an answer looks more like the turn that holds it than the question does. Off by
// default. Without a model, or when the model fails, it gives nothing and says why (`note`);
// the service's time limit covers a model that does not answer.
import { askModel, FusionSettings, candidateDepth, rrf, RecallModelError, settingsOf, elapsedMs } from '@agentd/sdk/kits/recall'
import { HydeSettings } from './settings.ts'
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { Turn, TurnStore } from '@agentd/sdk/contracts/memory-stores'
import type { RecallCandidates, RecallInput, RecallTechnique } from '@agentd/sdk/contracts/recall'

export const HYDE_PROMPT = 'You are helping to search a memory of past conversations. Write one or two sentences that could be the message in which someone said the answer to the question below, in the first person, with plausible details. Answer with the sentences only.'

export function hydeTechnique (deps: { relational: () => TurnStore | undefined, providers: () => Provider[] }): RecallTechnique {
  return {
    name: 'hyde',
    settings: HydeSettings,
    run: async (input: RecallInput): Promise<RecallCandidates> => {
      const rel = deps.relational()
      if (rel === undefined) return {}
      const timings: Record<string, number> = {}
      let t0 = performance.now()
      let answer: string
      const own = settingsOf(HydeSettings, input.settings)
      try {
        answer = (await askModel(deps.providers(), own.recall_hyde_model, 'recall_hyde_model',
          [{ role: 'system', content: HYDE_PROMPT }, { role: 'user', content: input.query }], { maxTokens: own.recall_hyde_max_tokens, temperature: own.recall_hyde_temperature, provider: own.recall_hyde_provider, signal: input.signal })).trim()
      } catch (err) {
        if (input.signal?.aborted === true) throw err
        return { note: err instanceof RecallModelError ? err.message : `the model failed: ${(err as Error).message}`, timings_ms: { model: elapsedMs(t0) } }
      } finally { timings.model = elapsedMs(t0) }
      if (answer === '') return { note: 'the model gave an empty answer', timings_ms: timings }
      t0 = performance.now()
      const embedding = await input.embed?.(answer)
      const n = candidateDepth(input.top_k, input.settings, 2)
      const [vector, text] = await Promise.all([
        embedding === undefined ? [] : rel.similarTurns({ embedding, channels: input.channels, limit: n }),
        rel.searchTurns({ text: answer, channels: input.channels, limit: n }),
      ])
      timings.search = elapsedMs(t0)
      const s = settingsOf(FusionSettings, input.settings)
      const fused = rrf<Turn>([{ weight: s.recall_hybrid_vector_weight, items: vector.filter(t => t.score > 0.05) }, { weight: s.recall_hybrid_bm25_weight, items: text }],
        s.recall_hybrid_rrf_k, t => t.id, t => Date.parse(t.timestamp))
      return { relevant_turns: fused.map(({ item, score }) => ({ ...item, score })), timings_ms: timings }
    },
  }
}
