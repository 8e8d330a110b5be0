// The relevance model (memory settings relevance_filter_*): asked once per conversation,
// before extraction, whether its user turns hold anything worth remembering. A NO skips
// the extraction (the conversation is marked consolidated); anything else, or a failure
// (reported by the caller), lets it through: a memory write is never lost to a filter
// that could not answer.
import type { TraceContext } from '@agentd/sdk'
import type { ModelChoice } from './llm-extractor.ts'
import { DEFAULT_RELEVANCE_PROMPT } from './llm-extractor.ts'
import type { ExtractionTurn } from './extraction.ts'

export interface RelevanceAsk { prompt: string, maxTokens: number, timeoutMs: number, signal?: AbortSignal, trace?: TraceContext }

/** true unless the model's answer starts with "no". */
export async function askRelevance (choice: ModelChoice, turns: ExtractionTurn[], o: RelevanceAsk): Promise<boolean> {
  const timeout = AbortSignal.timeout(o.timeoutMs)
  const signal = o.signal === undefined ? timeout : AbortSignal.any([o.signal, timeout])
  const listing = turns.map((t, i) => `[${i}] ${t.content}`).join('\n')
  let answer: string
  try {
    answer = (await choice.provider.complete({
      model: choice.model,
      messages: [{ role: 'system', content: o.prompt.trim() || DEFAULT_RELEVANCE_PROMPT }, { role: 'user', content: `User turns:\n${listing}` }],
      max_tokens: o.maxTokens,
      temperature: 0,
      trace: o.trace,
    }, signal)).content
  } catch (err) {
    if (timeout.aborted) throw new Error(`relevance model ${choice.id} did not answer within ${o.timeoutMs} ms`)
    throw err
  }
  return !/^\W*no\b/i.test(answer.trim())
}
