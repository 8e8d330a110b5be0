// The `auto` strategy rule. Rules are tried in order; the first whose strategy is
// registered and whose condition matches the task wins; otherwise `auto_fallback`.
// Built-in rule (override it with the agent option `auto_rules`):
//   1. react       when tools are available and the task needs one: the plan has an `action`
//                  step, or the task names a tool, or asks to
//                  calculate/compute/convert, look up/search/fetch, for the current time or
//                  date, today's or the latest anything, or contains arithmetic like "17 * 23";
//   2. tot         when the task is open-ended or ambiguous: brainstorm, ideas, options,
//                  alternatives, approaches, trade-offs, pros and cons, "best way", "should I",
//                  design, strategy, plan for, puzzle, riddle;
//   3. reflection  when it is quality-sensitive writing: write, draft, compose, rewrite,
//                  polish, proofread, essay, article, letter, email, poem, story, blog post,
//                  speech, report, announcement, press release, cover letter;
//   4. cot         otherwise.
import type { AutoRuleT } from './options.ts'

export const TOOL_CUES = String.raw`\b(calculat\w*|comput\w*|convert\w*|look(?:ing)?\s+up|search\w*|fetch\w*|what time|current (?:time|date)|today'?s?|right now|latest|weather)\b|\d\s*[-+*/^%×÷]\s*\d`

export const DEFAULT_AUTO_RULES: AutoRuleT[] = [
  { strategy: 'react', when: 'tools_needed', pattern: TOOL_CUES, reason: 'the task needs a tool' },
  { strategy: 'tot', when: 'pattern', pattern: String.raw`\b(brainstorm\w*|ideas?|options|alternatives?|approaches|possibilit\w+|trade-?offs?|pros and cons|best way|should (?:i|we)|design\w*|strateg(?:y|ies)|plan (?:for|a|an|the|my|our)|puzzle|riddle|ambiguous|open-ended)\b`, reason: 'the task is open-ended or ambiguous' },
  { strategy: 'reflection', when: 'pattern', pattern: String.raw`\b(write|draft|compose|rewrite|polish|proofread|essay|article|letter|e-?mail|poem|story|blog(?:\s+post)?|speech|report|announcement|press release|cover letter)\b`, reason: 'the task is quality-sensitive writing' },
]

export interface AutoChoice { strategy: string, reason: string, matched?: string }

function matchOf (pattern: string | undefined, task: string): string | undefined {
  if (pattern === undefined) return undefined
  return new RegExp(pattern, 'i').exec(task)?.[0]
}

/** True when the task mentions a tool by name ("current_time" or "current time"). */
function namedTool (task: string, toolNames: readonly string[]): string | undefined {
  const lower = task.toLowerCase()
  return toolNames.find(n => lower.includes(n.toLowerCase()) || lower.includes(n.toLowerCase().replaceAll('_', ' ')))
}

export function chooseStrategy (input: { task: string, toolNames: readonly string[], registered: readonly string[], rules: readonly AutoRuleT[], fallback: string, planNeedsTools?: boolean }): AutoChoice {
  const { task, toolNames, registered } = input
  for (const rule of input.rules) {
    if (!registered.includes(rule.strategy)) continue
    if (rule.when === 'tools_needed') {
      if (toolNames.length === 0) continue
      const matched = namedTool(task, toolNames) ?? matchOf(rule.pattern ?? TOOL_CUES, task) ?? (input.planNeedsTools === true ? 'a plan step of type action' : undefined)
      if (matched !== undefined) return { strategy: rule.strategy, reason: rule.reason ?? 'the task needs a tool', matched }
      continue
    }
    const matched = matchOf(rule.pattern, task)
    if (matched !== undefined) return { strategy: rule.strategy, reason: rule.reason ?? `the task matches /${rule.pattern ?? ''}/`, matched }
  }
  const fallback = registered.includes(input.fallback) ? input.fallback : registered.includes('cot') ? 'cot' : registered[0]
  return { strategy: fallback, reason: 'no rule matched; the fallback strategy' }
}

/** Checks rule patterns compile; returns a message saying which is broken, or undefined. */
export function checkRules (rules: readonly AutoRuleT[]): string | undefined {
  for (const [i, r] of rules.entries()) {
    if (r.when !== 'tools_needed' && r.pattern === undefined) return `auto_rules[${i}] (strategy "${r.strategy}") needs a "pattern" unless "when" is "tools_needed"`
    if (r.pattern !== undefined) {
      try { new RegExp(r.pattern, 'i') } catch (err) { return `auto_rules[${i}].pattern is not a valid regular expression: ${(err as Error).message}` }
    }
  }
  return undefined
}
