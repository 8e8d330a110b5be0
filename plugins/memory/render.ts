// Renders a memory bundle as prompt text within a token budget. Tokens are estimated at
// four characters each (no tokenizer for every model); the most useful items go first
// (facts, goals, strategies, then past turns, then entities) and the text stops before
// the budget is spent.
import type { Entity, Fact, Goal, LearnedStrategy, Turn } from '@agentd/sdk/contracts/memory-stores'

/** The fields of a bundle's items the text shows. */
export interface Renderable {
  facts: Array<Pick<Fact, 'claim' | 'temporal_context'>>
  active_goals: Array<Pick<Goal, 'description' | 'priority'>>
  strategies: Array<Pick<LearnedStrategy, 'description' | 'tool_sequence'>>
  relevant_turns: Array<Pick<Turn, 'role' | 'content'>>
  entities: Array<Pick<Entity, 'name' | 'type' | 'description'>>
}

export const estimateTokens = (s: string): number => Math.ceil(s.length / 4)

// A technique from another plugin is typed, not checked: a field it left out renders empty rather than failing the recall.
const str = (v: unknown): string => typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v)
const clip = (v: unknown, max: number): string => { const s = str(v); return s.length <= max ? s : `${s.slice(0, max - 1)}…` }

export function renderBundle (b: Renderable, tokenBudget: number): string {
  const sections: Array<[string, string[]]> = [
    ['Known facts', b.facts.map(f => `- ${clip(f.claim, 400)}${f.temporal_context === 'past' ? ' (in the past)' : f.temporal_context === 'future' ? ' (planned)' : ''}`)],
    ['Active goals', b.active_goals.map(g => `- ${clip(g.description, 300)} (priority ${str(g.priority)})`)],
    ['Strategies that worked before', b.strategies.map(s => `- ${clip(s.description, 300)}${Array.isArray(s.tool_sequence) && s.tool_sequence.length > 0 ? ` [tools: ${s.tool_sequence.join(' -> ')}]` : ''}`)],
    ['Relevant earlier conversation', b.relevant_turns.map(t => `- ${str(t.role)}: ${clip(t.content, 500)}`)],
    ['Entities', b.entities.map(e => `- ${clip(e.name, 100)} (${str(e.type)})${e.description === null || e.description === undefined ? '' : `: ${clip(e.description, 200)}`}`)],
  ]
  const budget = Math.max(0, tokenBudget)
  let used = 0
  const out: string[] = []
  for (const [title, lines] of sections) {
    if (lines.length === 0) continue
    const heading = `${title}:`
    if (used + estimateTokens(heading) + estimateTokens(lines[0]) > budget) continue
    out.push(heading)
    used += estimateTokens(heading) + 1
    for (const line of lines) {
      const cost = estimateTokens(line) + 1
      if (used + cost > budget) break
      out.push(line)
      used += cost
    }
  }
  return out.length === 0 ? '' : `Relevant memory (from earlier conversations):\n${out.join('\n')}`
}
