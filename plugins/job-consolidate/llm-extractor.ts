// The extractor that asks a language model. Structured output (a JSON Schema response
// format) where the model supports JSON mode, otherwise the schema in the prompt; the
// answer is validated against ExtractionSchema, and an unusable answer is asked for once
// more with what was wrong. Throws ExtractionFailed (with the reason) when it still has
// nothing usable, when the model cannot be reached, or when it takes too long: the caller
// then runs the offline extractor and reports why (choose.ts).
import type { TraceContext } from '@agentd/sdk'
import { check, formatErrors } from '@agentd/sdk'
import type { CompletionRequest, Message, Provider } from '@agentd/sdk/contracts/provider'
import { ENTITY_TYPES, ExtractionSchema, USER, type Extraction, type ExtractionTurn, type Extractor } from './extraction.ts'

export const DEFAULT_EXTRACTION_PROMPT = [
  'You extract long-term memory from what a user said to an assistant.',
  'Read only the user\'s turns below. Return one JSON object with three arrays:',
  `- "entities": named things the user mentions: {name, type (one of ${ENTITY_TYPES.join(', ')}), aliases, description}.`,
  `- "facts": lasting facts the user states: {subject, predicate, object, claim, confidence, temporal_context, turn, entities}.`,
  `  subject: the entity the fact is about; "${USER}" for the user themself. predicate: a snake_case attribute`,
  '  (name, works_at, job_title, lives_in, from, age, likes, dislikes, speaks, has_pet, or a relation such as sister, wife, friend).',
  `  claim: one sentence in the third person naming the subject ("The user works at Acme.", "Anna lives in Paris.").`,
  '  confidence: 0-1 from how certain the user sounds (hedged "I think" ~0.6, plain statement ~0.9).',
  '  temporal_context: "current", "past" (used to, no longer) or "future" (plans). turn: the 0-based index of the turn it came from.',
  '  entities: names of the entities the fact mentions.',
  '- "relationships": {source, target, type, confidence} between named entities (type in snake_case).',
  'Never extract from greetings, thanks, small talk, questions or requests to the assistant; never invent facts.',
  'If there is nothing worth remembering, return {"entities": [], "facts": [], "relationships": []}.',
  'Answer with the JSON object only.',
].join('\n')

/** The relevance model's instructions (memory setting relevance_filter_prompt). */
export const DEFAULT_RELEVANCE_PROMPT = [
  'You decide whether a conversation is worth keeping in a long-term memory of the user.',
  'Worth keeping: lasting facts about the user or the people, places, work, pets, preferences and plans in their life.',
  'Not worth keeping: greetings, small talk, questions to the assistant, one-off tasks with nothing about the user.',
  'Read the user\'s turns and answer with one word: YES or NO.',
].join('\n')

/** Asked of the model when the memory setting extraction_condense_facts is on. */
export const CONDENSE_INSTRUCTION = 'Condense: at most one fact per subject and predicate (the latest the user stated), each claim under 15 words.'

export class ExtractionFailed extends Error {
  constructor (readonly reason: string) { super(reason) }
}

export interface ModelChoice { provider: Provider, model: string, id: string }

export interface LlmExtractorOptions {
  /** The model to ask; throws when none can be had (no provider loaded, unknown provider). */
  model: () => ModelChoice
  /** Read per call (the setting is live). */
  timeoutMs: () => number
  prompt: () => string
  /** Read per call, like the rest (memory settings extraction_temperature, extraction_max_tokens, extraction_condense_facts). */
  temperature?: () => number
  maxTokens?: () => number
  condense?: () => boolean
}

/** The JSON object in a model's answer: bare, fenced in ``` blocks, or after some words. */
export function jsonIn (text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)
  const body = (fenced?.[1] ?? text).trim()
  try { return JSON.parse(body) } catch {}
  const start = body.indexOf('{'); const end = body.lastIndexOf('}')
  if (start >= 0 && end > start) return JSON.parse(body.slice(start, end + 1))
  throw new SyntaxError('no JSON object in the answer')
}

export class LlmExtractor implements Extractor {
  readonly name = 'llm' as const
  /** Model id of the last call (for metrics). */
  lastModel: string | undefined

  constructor (private readonly o: LlmExtractorOptions) {}

  async extract (turns: ExtractionTurn[], signal?: AbortSignal, trace?: TraceContext): Promise<Extraction> {
    let choice: ModelChoice
    try { choice = this.o.model() } catch (err) { throw new ExtractionFailed(`no extraction model: ${(err as Error).message}`) }
    this.lastModel = choice.id
    if (choice.provider.status().status !== 'configured') throw new ExtractionFailed(`model ${choice.id} is not configured: ${choice.provider.status().error ?? 'set its key'}`)
    const json = choice.provider.capabilities(choice.model).supports_json_mode
    const listing = turns.map((t, i) => `[${i}]${t.speaker === undefined ? '' : ` ${t.speaker}:`} ${t.content}`).join('\n')
    const prompt = (this.o.prompt().trim() || DEFAULT_EXTRACTION_PROMPT) + (this.o.condense?.() === true ? `\n${CONDENSE_INSTRUCTION}` : '')
    const messages: Message[] = [
      { role: 'system', content: json ? prompt : `${prompt}\nThe JSON Schema of the answer:\n${JSON.stringify(ExtractionSchema)}` },
      { role: 'user', content: `User turns:\n${listing}` },
    ]
    const ask = async (msgs: Message[]): Promise<string> => {
      const req: CompletionRequest = {
        model: choice.model, messages: msgs, temperature: this.o.temperature?.() ?? 0, max_tokens: this.o.maxTokens?.() ?? 2000,
        ...(json ? { response_format: { type: 'json_schema' as const, name: 'memory_extraction', schema: ExtractionSchema as unknown as Record<string, unknown> } } : {}),
        trace,
      }
      const ms = this.o.timeoutMs()
      const timeout = AbortSignal.timeout(ms)
      const s = signal === undefined ? timeout : AbortSignal.any([signal, timeout])
      try {
        return (await choice.provider.complete(req, s)).content
      } catch (err) {
        if (timeout.aborted) throw new ExtractionFailed(`model ${choice.id} did not answer within ${ms} ms`)
        if (signal?.aborted === true) throw err
        throw new ExtractionFailed(`model ${choice.id} failed: ${(err as Error).message}`)
      }
    }
    const parse = (text: string): { ok: true, value: Extraction } | { ok: false, why: string } => {
      let value: unknown
      try { value = jsonIn(text) } catch (err) { return { ok: false, why: `not JSON (${(err as Error).message})` } }
      const c = check(ExtractionSchema, value)
      return c.ok ? { ok: true, value: c.value } : { ok: false, why: `does not match the schema: ${formatErrors(c.errors).slice(0, 500)}` }
    }
    const first = await ask(messages)
    const a = parse(first)
    if (a.ok) return a.value
    // One retry, telling the model what was wrong.
    const second = await ask([...messages, { role: 'assistant', content: first.slice(0, 4000) },
      { role: 'user', content: `That answer ${a.why}. Answer again with only the JSON object described above.` }])
    const b = parse(second)
    if (b.ok) return b.value
    throw new ExtractionFailed(`model ${choice.id} gave unusable output twice: ${b.why}`)
  }
}
