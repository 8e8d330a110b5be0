// Reflection: draft, critique, revise, until a critique passes or `max_rounds` critiques
// have been made. Calls: 1 draft + one critique per round + one revision after each
// failing critique, so a pass on round r costs 2r calls and the cap costs 1 + 2*max_rounds.
// Drafts use the drafting model; critiques use the reasoning model.
import type { StrategyContext, StrategyResult } from '@agentd/sdk/contracts/strategy'
import { parseJsonLoose, splitThinking } from '@agentd/sdk/kits/output'

export interface Verdict { pass: boolean, issues: string[] }

/** Reads a critique: JSON `{pass, issues}` (or `verdict`), else a leading PASS/REVISE word. Unclear means "revise". */
export function parseVerdict (text: string): Verdict {
  const json = parseJsonLoose(text)
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const o = json as { pass?: unknown, verdict?: unknown, issues?: unknown }
    const pass = typeof o.pass === 'boolean' ? o.pass : typeof o.verdict === 'string' ? /^(pass|approved?|ok|good)$/i.test(o.verdict.trim()) : undefined
    if (pass !== undefined) {
      const issues = Array.isArray(o.issues) ? o.issues.map(i => typeof i === 'string' ? i : JSON.stringify(i)) : []
      return { pass, issues }
    }
  }
  const answer = splitThinking(text).answer
  const first = /^\W*(\w+)/.exec(answer)?.[1]?.toLowerCase() ?? ''
  const pass = ['pass', 'passes', 'passed', 'approved', 'approve', 'lgtm'].includes(first)
  return { pass, issues: pass ? [] : [answer] }
}

const CRITIQUE = 'You are a strict reviewer. Check the draft below against the task: correctness, completeness, clarity, tone. ' +
  'If it needs no change, reply PASS. Otherwise reply REVISE followed by the concrete issues to fix. ' +
  'In JSON mode reply {"pass": true|false, "issues": ["..."]}.'

export async function reflect (ctx: StrategyContext, maxRounds: number): Promise<StrategyResult> {
  const first = await ctx.complete({ messages: [...ctx.messages] }, { role: 'drafting', trace: { type: 'draft', round: 0 } })
  let draft = splitThinking(first.content, first.thinking).answer
  ctx.progress(draft)
  const jsonMode = ctx.capabilities('reasoning').supports_json_mode
  let rounds = 0
  let passed = false
  while (rounds < maxRounds) {
    rounds++
    const critique = await ctx.complete({
      messages: [...ctx.messages, { role: 'assistant', content: draft }, { role: 'user', content: CRITIQUE }],
      temperature: 0,
      ...(jsonMode ? { response_format: { type: 'json_schema' as const, name: 'critique', schema: { type: 'object', properties: { pass: { type: 'boolean' }, issues: { type: 'array', items: { type: 'string' } } }, required: ['pass', 'issues'], additionalProperties: false } } } : {}),
    }, { role: 'reasoning', trace: false })
    const verdict = parseVerdict(critique.content)
    ctx.trace({ type: 'critique', content: critique.content.trim(), pass: verdict.pass, round: rounds, model: critique.model_id, tokens: critique.usage.total_tokens, time_ms: critique.time_ms })
    if (verdict.pass) { passed = true; break }
    const revision = await ctx.complete({
      messages: [...ctx.messages, { role: 'assistant', content: draft },
        { role: 'user', content: `Revise your answer to fix these issues. Reply with the full revised answer only.\n\n${verdict.issues.map(i => `- ${i}`).join('\n')}` }],
    }, { role: 'drafting', trace: { type: 'revision', round: rounds } })
    draft = splitThinking(revision.content, revision.thinking).answer
    ctx.progress(draft)
  }
  if (!passed) ctx.trace({ type: 'note', content: `stopped at the round cap (${maxRounds}) without a passing critique; the last revision is the answer` })
  return { answer: draft, reasoning_steps: rounds }
}
