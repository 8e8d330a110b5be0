// The `patterns` job: tool-using runs become procedural memory. A run is the tools one
// conversation called, in order (a tool called several times in a row counts once); it
// succeeded when its last call did not fail. A successful run creates the strategy for its
// tool sequence in its channel or counts towards it; a failed run counts against an
// existing one. The store counts a conversation once per strategy, so the job can read
// the same invocations again (after a restart) without counting twice.
import { loadNlp } from '@agentd/sdk/kits/memory'
import type { Job, JobContext } from '@agentd/sdk/contracts/job'
import type { ToolInvocation, Turn } from '@agentd/sdk/contracts/memory-stores'
import type { EmbeddingRef, LearnedStrategy, RelationalStore } from '@agentd/sdk/contracts/memory-stores'

/** What the job needs (the plugin builds it over the memory plugin's job support). */
export interface PatternsDeps {
  relational: () => RelationalStore
  embed: (text: string, signal?: AbortSignal) => Promise<EmbeddingRef | undefined>
  /** Copies a strategy the job created or counted into a graph store that keeps copies (never rejects). */
  copyStrategy?: (s: LearnedStrategy, embedding?: EmbeddingRef) => Promise<void>
  settings: () => { patterns_batch_size: number }
}

export type PatternsMetrics = { invocations: number, runs: number, successful_runs: number, failed_runs: number, strategies_created: number, strategies_updated: number, unchanged: number, items_processed?: number }

/** The tool sequence of a run: consecutive repeats collapsed. */
export const toolSequence = (calls: ToolInvocation[]): string[] => calls.map(c => c.tool).filter((t, i, a) => i === 0 || a[i - 1] !== t)

/** Keywords of what the user asked: nouns and verbs, lower-cased, at most eight. */
export async function contextPattern (text: string): Promise<string> {
  const doc = (await loadNlp())(text)
  const words = [...(doc.nouns().out('array') as string[]), ...(doc.verbs().toInfinitive().out('array') as string[])]
    .flatMap(w => w.toLowerCase().split(/[^\p{L}\p{N}]+/u))
    .filter(w => w.length > 2 && !['the', 'and', 'you', 'can', 'please', 'could', 'would', 'what', 'me', 'my'].includes(w))
  return [...new Set(words)].slice(0, 8).join(' ')
}

export function patternsJob (deps: PatternsDeps, everySeconds = 3600): Job {
  // Where the last run stopped (in this process; the store's per-conversation count makes a re-read harmless).
  let since: string | undefined
  return {
    name: 'patterns',
    group: 'memory',
    description: 'Turns successful tool-using runs into strategies (tool sequence, context pattern, success and failure counts)',
    schedule: { every_seconds: everySeconds },
    run: async (ctx: JobContext) => {
      const res = await patterns(deps, ctx, since)
      since = res.since
      return res.metrics
    },
  }
}

export async function patterns (deps: PatternsDeps, ctx: JobContext, since?: string): Promise<{ metrics: PatternsMetrics, since?: string }> {
  const rel = deps.relational()
  const m: PatternsMetrics = { invocations: 0, runs: 0, successful_runs: 0, failed_runs: 0, strategies_created: 0, strategies_updated: 0, unchanged: 0 }
  const batch = await rel.toolInvocations({ since, limit: deps.settings().patterns_batch_size })
  m.invocations = batch.length
  const conversations = [...new Set(batch.map(c => c.conversation_id).filter((c): c is string => c !== null))]
  for (const id of conversations) {
    ctx.signal.throwIfAborted()
    // The whole run, also the calls an earlier batch held.
    const calls = await rel.toolInvocations({ conversation_id: id, limit: 10_000 })
    if (calls.length === 0) continue
    const sequence = toolSequence(calls)
    const success = !calls[calls.length - 1].is_error
    m.runs++
    if (success) m.successful_runs++; else m.failed_runs++
    const turns = await rel.conversationTurns(id, 100_000)
    const ask = askedBefore(turns, calls[0].created_at)
    const description = `Use ${sequence.join(' -> ')} for requests like: ${clip(ask, 160)}`
    const pattern = (await contextPattern(ask)) || sequence.join(' ')
    const embedding = await deps.embed(`${description} ${pattern}`, ctx.signal)
    const r = await rel.recordStrategyRun({ description, context_pattern: pattern, tool_sequence: sequence, channel: calls[0].channel, conversation_id: id, success, embedding })
    if (r.strategy !== undefined && (r.created || r.counted)) await deps.copyStrategy?.(r.strategy, r.created ? embedding : undefined)
    if (r.created) m.strategies_created++
    else if (r.counted) m.strategies_updated++
    else m.unchanged++
  }
  return { metrics: { ...m, items_processed: m.runs }, since: batch.at(-1)?.created_at ?? since }
}

/** The user turn that started the run: the last one before its first call, else the first one. */
function askedBefore (turns: Turn[], at: string): string {
  const users = turns.filter(t => t.role === 'user')
  const before = users.filter(t => t.timestamp <= at).at(-1)
  return (before ?? users[0])?.content ?? ''
}

const clip = (s: string, n: number): string => { const t = s.replace(/\s+/g, ' ').trim(); return t.length <= n ? t : `${t.slice(0, n - 1)}…` }
