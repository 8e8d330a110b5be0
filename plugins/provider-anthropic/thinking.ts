// Which form of the Messages API's `thinking` parameter a model takes. Claude 4.5 and
// older (Haiku 4.5 included) know only the budget form, `{ type: "enabled",
// budget_tokens }`. Adaptive thinking came with Claude 4.6: `{ type: "adaptive" }`, its
// depth set by `output_config.effort`. On Opus/Sonnet 4.6 the budget form is deprecated;
// Opus 4.7 and later, the Claude 5 families, Fable and Mythos refuse it with a 400
// ("thinking.type.enabled is not supported for this model"). So the form is chosen by
// the version in the model id, and an id with no readable version (a custom deployment
// name) keeps the budget form, which every older model takes.
import type Anthropic from '@anthropic-ai/sdk'

/** `output_config.effort` values of the Messages API (the plugin option thinking_effort lists the same). */
export type Effort = 'low' | 'medium' | 'high' | 'xhigh' | 'max'

export interface ThinkingSettings {
  /** 0: thinking is not asked for (a model whose thinking is always on still thinks). */
  budgetTokens: number
  /** Adaptive models only; unset leaves the model's default effort. */
  effort?: Effort
}

/** The smallest `budget_tokens` the Messages API accepts. */
export const MIN_THINKING_BUDGET = 1024

/** Families that have only ever had adaptive thinking, whatever their number. */
const ADAPTIVE_FAMILIES = new Set(['fable', 'mythos'])

/** `claude-opus-4-6`, `claude-sonnet-5`, `claude-haiku-4-5-20251001`, `claude-fable-5-1`; the old `claude-3-7-sonnet` order too. */
const NEW_ID = /^claude-([a-z]+)-(\d+)(?:-(\d{1,2}))?(?:-|$)/
const OLD_ID = /^claude-(\d+)(?:-(\d{1,2}))?-([a-z]+)(?:-|$)/

export function thinkingForm (model: string): 'adaptive' | 'budget' {
  // A provider prefix (`anthropic/`, `us.anthropic.`) does not change the model.
  const id = model.toLowerCase().replace(/^.*[/.](?=claude-)/, '')
  if (ADAPTIVE_FAMILIES.has(/^claude-([a-z]+)/.exec(id)?.[1] ?? '')) return 'adaptive' // claude-mythos-preview too
  // [major, minor] from either id order; no version read keeps the budget form.
  const m = NEW_ID.exec(id)
  const o = m === null ? OLD_ID.exec(id) : null
  const version = m !== null ? [m[2], m[3]] : o !== null ? [o[1], o[2]] : undefined
  if (version === undefined) return 'budget'
  const major = Number(version[0])
  const minor = Number(version[1] ?? 0)
  return major > 4 || (major === 4 && minor >= 6) ? 'adaptive' : 'budget'
}

type ThinkingParams = Pick<Anthropic.Messages.MessageCreateParamsNonStreaming, 'thinking' | 'output_config' | 'max_tokens'>

/** The thinking part of a request: what to send for this model, and max_tokens raised above a budget when one is sent. */
export function thinkingParams (model: string, maxTokens: number, s: ThinkingSettings): ThinkingParams {
  if (s.budgetTokens <= 0) return { max_tokens: maxTokens }
  if (thinkingForm(model) === 'adaptive') {
    return { max_tokens: maxTokens, thinking: { type: 'adaptive' }, ...(s.effort === undefined ? {} : { output_config: { effort: s.effort } }) }
  }
  // The budget must stay under max_tokens, and the API refuses one under 1024 (the
  // options forbid that too; this holds for any caller).
  const budget = Math.max(MIN_THINKING_BUDGET, Math.min(s.budgetTokens, maxTokens - 1))
  return { max_tokens: maxTokens <= budget ? budget + 1024 : maxTokens, thinking: { type: 'enabled', budget_tokens: budget } }
}
