// The `consolidate` job: conversations not consolidated yet (or with turns added since),
// a batch at a time; their user turns, cleaned of recalled memory, echoes of the agent and
// small talk; one extraction per conversation (LLM or offline, choose.ts); stored with
// linking and supersession (store-extraction.ts); the conversation marked consolidated as
// of the last change it had, so a turn added meanwhile brings it back next run.
import type { Job, JobContext } from '@agentd/sdk/contracts/job'
import { ExtractionRun } from './choose.ts'
import type { ConsolidationDeps } from './deps.ts'
import type { ExtractionTurn } from './extraction.ts'
import { echoOf, isSmallTalk, sentences, stripRecalledMemory } from './junk.ts'
import { ExtractionWriter, emptyStoreMetrics, type StoreMetrics } from './store-extraction.ts'
import { attributeSpeakers } from './speakers.ts'

export type ConsolidateMetrics = StoreMetrics & {
  conversations: number
  /** The conversations consolidated (the jobs API shows it per run). */
  items_processed: number
  user_turns: number
  turns_skipped: number
  /** Conversations each extractor handled. */
  extractor: { llm: number, offline: number }
  /** Conversations the relevance model called not worth remembering (marked consolidated, nothing extracted). */
  conversations_irrelevant: number
  /** Facts dropped by extraction_condense_facts (an earlier value of the same subject and attribute). */
  facts_condensed: number
  /** Set when extraction_enabled is false: nothing was read. */
  skipped?: string
  mode: string
  model: string | null
  fallbacks: Array<{ conversation_id: string, reason: string }>
  /** Conversations whose relevance model failed: they were extracted anyway. */
  relevance_failures: Array<{ conversation_id: string, reason: string }>
  errors: Array<{ conversation_id: string, error: string }>
}

/** The user's informative sentences: no recall block, no small talk, nothing the agent said first. */
export function cleanTurn (content: string, echoed: (sentence: string) => boolean): string {
  return sentences(stripRecalledMemory(content)).filter(s => !isSmallTalk(s) && !echoed(s)).join(' ')
}

/**
 * extraction_condense_facts: one fact per subject, predicate and time (current, past,
 * future): the one stated last (the highest turn), the more certain on a tie.
 */
export function condenseFacts<F extends { subject: string, predicate: string, temporal_context?: string | null, turn?: number, confidence: number }> (facts: F[]): F[] {
  const best = new Map<string, F>()
  for (const f of facts) {
    const key = `${f.subject.trim().toLowerCase()}\u0000${f.predicate.trim().toLowerCase()}\u0000${f.temporal_context ?? ''}`
    const had = best.get(key)
    if (had === undefined || (f.turn ?? 0) > (had.turn ?? 0) || ((f.turn ?? 0) === (had.turn ?? 0) && f.confidence > had.confidence)) best.set(key, f)
  }
  const keep = new Set(best.values())
  return facts.filter(f => keep.has(f))
}

export function consolidateJob (deps: ConsolidationDeps, everySeconds = 900): Job {
  return {
    name: 'consolidate',
    group: 'memory',
    description: 'Extracts entities, facts and relationships from conversations not consolidated yet (LLM or offline extractor), with supersession of contradicted facts',
    // The memory setting job_consolidate_interval changes it (index.ts, a registry.jobSchedules source).
    schedule: { every_seconds: everySeconds },
    run: async (ctx: JobContext) => await consolidate(deps, ctx),
  }
}

export async function consolidate (deps: ConsolidationDeps, ctx: JobContext): Promise<ConsolidateMetrics> {
  const s = deps.settings()
  const rel = deps.relational()
  const metrics: ConsolidateMetrics = {
    conversations: 0, items_processed: 0, user_turns: 0, turns_skipped: 0, conversations_irrelevant: 0, facts_condensed: 0, ...emptyStoreMetrics(), extractor: { llm: 0, offline: 0 },
    mode: s.extraction_mode, model: s.extraction_mode === 'offline' ? null : (safe(deps.modelId) ?? null), fallbacks: [], relevance_failures: [], errors: [],
  }
  // Off: nothing is read or marked, so the conversations wait for extraction to be on again.
  if (!s.extraction_enabled) return { ...metrics, model: null, skipped: 'extraction_enabled is false' }
  const run = new ExtractionRun(s.extraction_mode, deps.extractors.llm, deps.extractors.offline)
  const batch = await rel.unconsolidatedConversations({ limit: s.consolidation_batch_size })
  for (const conv of batch) {
    ctx.signal.throwIfAborted()
    try {
      const all = await rel.conversationTurns(conv.id, 100_000)
      const echoed = echoOf(all)
      const turns: ExtractionTurn[] = []
      for (const [at, t] of all.entries()) {
        if (t.role !== 'user') continue
        metrics.user_turns++
        const text = cleanTurn(t.content, sentence => echoed(sentence, at))
        const speaker = typeof t.metadata.name === 'string' ? t.metadata.name : undefined
        if (text === '') metrics.turns_skipped++
        else turns.push({ id: t.id, content: text, ...(speaker === undefined ? {} : { speaker }) })
      }
      let worth = turns.length > 0
      if (worth && deps.relevance !== undefined) {
        try {
          worth = await deps.relevance(turns, ctx.signal, ctx.trace) ?? true
        } catch (err) {
          if (ctx.signal.aborted) throw err
          metrics.relevance_failures.push({ conversation_id: conv.id, reason: (err as Error).message })
        }
        if (!worth) metrics.conversations_irrelevant++
      }
      if (worth) {
        const out = await run.extract(turns, ctx.signal, ctx.trace)
        out.extraction = attributeSpeakers(out.extraction, turns)
        if (s.extraction_condense_facts) {
          const kept = condenseFacts(out.extraction.facts)
          metrics.facts_condensed += out.extraction.facts.length - kept.length
          out.extraction = { ...out.extraction, facts: kept }
        }
        metrics.extractor[out.extractor]++
        if (out.fallback_reason !== undefined) metrics.fallbacks.push({ conversation_id: conv.id, reason: out.fallback_reason })
        const writer = new ExtractionWriter(deps, s, conv.channel, conv.id, ctx.signal)
        try {
          await writer.store(out.extraction, turns)
        } finally {
          for (const k of Object.keys(writer.metrics) as Array<keyof StoreMetrics>) metrics[k] += writer.metrics[k]
        }
      }
      await rel.markConsolidated([conv.id], conv.updated_at)
      metrics.conversations++
    } catch (err) {
      if (ctx.signal.aborted) throw err
      // One conversation's failure (a store hiccup) does not stop the batch; it is retried next run.
      metrics.errors.push({ conversation_id: conv.id, error: (err as Error).message })
      ctx.log('consolidate: a conversation failed; it is retried next run', { conversation_id: conv.id, error: (err as Error).message })
    }
  }
  metrics.items_processed = metrics.conversations
  if (metrics.fallbacks.length > 0) ctx.log('consolidate: the offline extractor ran instead of the model', { reasons: [...new Set(metrics.fallbacks.map(f => f.reason))] })
  return metrics
}

const safe = (fn: (() => string) | undefined): string | undefined => { try { return fn?.() } catch { return undefined } }
