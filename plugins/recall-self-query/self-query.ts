// The `self_query` recall technique: a model turns the query into filters (a time range,
// an entity, what kind of memory is wanted) and a shorter search text; turns are searched
// with that text and kept only inside the range. Off by default; without a model, or with
// an answer that is not the JSON asked for, it gives nothing and says why (`note`).
import { Type, type Static } from '@agentd/sdk/typebox'
import { Value } from '@agentd/sdk/typebox/value'
import { askModel, FusionSettings, candidateDepth, rrf, RecallModelError, settingsOf, elapsedMs } from '@agentd/sdk/kits/recall'
import { SelfQuerySettings } from './settings.ts'
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { Turn, TurnStore } from '@agentd/sdk/contracts/memory-stores'
import type { RecallCandidates, RecallInput, RecallTechnique } from '@agentd/sdk/contracts/recall'

export const Filters = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 1000 })),
  since: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  until: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  entity: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  kind: Type.Optional(Type.Union([Type.Literal('turns'), Type.Literal('facts'), Type.Literal('entities'), Type.Literal('any'), Type.Null()])),
})
export type Filters = Static<typeof Filters>

export const selfQueryPrompt = (now: Date): string => `Today is ${now.toISOString().slice(0, 10)}. Turn the user's question about past conversations into search filters. ` +
  'Answer with one JSON object: {"search": words to search for, "since": ISO date or null, "until": ISO date or null, "entity": a person, place or thing it is about or null, "kind": "turns", "facts", "entities" or "any"}. ' +
  'Set since/until only when the question names a time.'

/** The model's answer as filters; throws RecallModelError when it is not the JSON asked for. */
export function parseFilters (text: string): Filters {
  const json = /\{[\s\S]*\}/.exec(text)?.[0]
  let value: unknown
  try { value = JSON.parse(json ?? '') } catch { throw new RecallModelError('the model did not answer with a JSON object') }
  if (!Value.Check(Filters, value)) throw new RecallModelError('the model\'s filters do not have the expected fields')
  for (const k of ['since', 'until'] as const) {
    const v = value[k]
    if (typeof v === 'string' && Number.isNaN(Date.parse(v))) throw new RecallModelError(`the model's "${k}" is not a date: ${v}`)
  }
  return value
}

export function selfQueryTechnique (deps: { relational: () => TurnStore | undefined, providers: () => Provider[] }): RecallTechnique {
  return {
    name: 'self_query',
    settings: SelfQuerySettings,
    run: async (input: RecallInput): Promise<RecallCandidates> => {
      const rel = deps.relational()
      if (rel === undefined) return {}
      const timings: Record<string, number> = {}
      let t0 = performance.now()
      let f: Filters
      const own = settingsOf(SelfQuerySettings, input.settings)
      try {
        const answer = await askModel(deps.providers(), own.recall_self_query_model, 'recall_self_query_model',
          [{ role: 'system', content: selfQueryPrompt(new Date()) }, { role: 'user', content: input.query }], { maxTokens: own.recall_self_query_max_tokens, temperature: own.recall_self_query_temperature, provider: own.recall_self_query_provider, json: true, signal: input.signal })
        f = parseFilters(answer)
      } catch (err) {
        if (input.signal?.aborted === true) throw err
        return { note: err instanceof RecallModelError ? err.message : `the model failed: ${(err as Error).message}`, timings_ms: { model: elapsedMs(t0) } }
      } finally { timings.model = elapsedMs(t0) }
      if (f.kind === 'facts' || f.kind === 'entities') return { relevant_turns: [], timings_ms: timings }
      t0 = performance.now()
      const text = [f.search ?? input.query, f.entity ?? ''].join(' ').trim()
      const since = typeof f.since === 'string' ? Date.parse(f.since) : -Infinity
      const until = typeof f.until === 'string' ? Date.parse(f.until) + 86_400_000 - 1 : Infinity
      const inRange = (t: Turn): boolean => { const ts = Date.parse(t.timestamp); return ts >= since && ts <= until }
      const n = candidateDepth(input.top_k, input.settings, 5, 50)
      const embedding = text === input.query ? input.embedding : await input.embed?.(text)
      const [kw, vector] = await Promise.all([
        rel.searchTurns({ text, channels: input.channels, limit: n }),
        embedding === undefined ? [] : rel.similarTurns({ embedding, channels: input.channels, limit: n }),
      ])
      timings.search = elapsedMs(t0)
      const s = settingsOf(FusionSettings, input.settings)
      const fused = rrf<Turn>([{ weight: s.recall_hybrid_bm25_weight, items: kw.filter(inRange) }, { weight: s.recall_hybrid_vector_weight, items: vector.filter(t => t.score > 0.05 && inRange(t)) }],
        s.recall_hybrid_rrf_k, t => t.id, t => Date.parse(t.timestamp))
      return { relevant_turns: fused.map(({ item, score }) => ({ ...item, score })), timings_ms: timings }
    },
  }
}
