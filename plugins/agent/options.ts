// The agent plugin's options: SPEC.md's AgentConfig plus the planner, the `auto` rule and
// per-strategy options. `default_model` and `default_reasoning_strategy` fall back to
// data/config.json `preferences.*`, then DEFAULT_MODEL, then SPEC's defaults.
import { Type, type Static } from '@agentd/sdk/typebox'

export const AutoRule = Type.Object({
  /** The strategy this rule picks (must be registered for the rule to apply). */
  strategy: Type.String({ minLength: 1 }),
  /** `tools_needed` matches when tools are available and the task needs one; otherwise `pattern` must match. */
  when: Type.Optional(Type.Union([Type.Literal('tools_needed'), Type.Literal('pattern')], { default: 'pattern' })),
  /** Case-insensitive regular expression tested against the task. */
  pattern: Type.Optional(Type.String({ minLength: 1 })),
  /** Shown in the trace when the rule fires. */
  reason: Type.Optional(Type.String()),
}, { additionalProperties: false })
export type AutoRuleT = Static<typeof AutoRule>

const ModelName = Type.String({ minLength: 1, description: '`provider/model` or a bare name resolved by the model catalogue' })

export const options = Type.Object({
  name: Type.String({ default: 'agent' }),
  user_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  default_model: Type.Optional(ModelName),
  reasoning_model: Type.Optional(Type.Union([ModelName, Type.Null()])),
  drafting_model: Type.Optional(Type.Union([ModelName, Type.Null()])),
  max_iterations: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
  timeout_seconds: Type.Number({ exclusiveMinimum: 0, maximum: 86400, default: 300 }),
  enable_planning: Type.Boolean({ default: true }),
  enable_reasoning: Type.Boolean({ default: true }),
  enable_drafting: Type.Boolean({ default: false }),
  enable_memory: Type.Boolean({ default: true }),
  enable_tools: Type.Boolean({ default: true }),
  default_reasoning_strategy: Type.Optional(Type.String({ minLength: 1 })),
  allowed_tools: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  blocked_tools: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  max_tool_rounds: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  /** Most plan steps the planner may return; longer plans are cut. */
  max_plan_steps: Type.Integer({ minimum: 1, maximum: 20, default: 5 }),
  /** Per-tool-call time limit, seconds. */
  tool_timeout_seconds: Type.Number({ exclusiveMinimum: 0, maximum: 3600, default: 60 }),
  /** The `auto` rule, first match wins; replaces the built-in rule when given. */
  auto_rules: Type.Optional(Type.Array(AutoRule)),
  /** Strategy used by `auto` when no rule matches. */
  auto_fallback: Type.String({ minLength: 1, default: 'cot' }),
  /** Options handed to a strategy as ctx.options, by strategy name: `{ "tot": { "k": 2 } }`. */
  strategy_options: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), { default: {} }),
}, { additionalProperties: false })

export type AgentOptions = Static<typeof options>

/** The per-request overrides POST /api/agent/run accepts in `config`. */
export const RunOverrides = Type.Object({
  default_model: Type.Optional(ModelName),
  reasoning_model: Type.Optional(Type.Union([ModelName, Type.Null()])),
  drafting_model: Type.Optional(Type.Union([ModelName, Type.Null()])),
  max_iterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  timeout_seconds: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 86400 })),
  enable_planning: Type.Optional(Type.Boolean()),
  enable_reasoning: Type.Optional(Type.Boolean()),
  enable_drafting: Type.Optional(Type.Boolean()),
  enable_memory: Type.Optional(Type.Boolean()),
  enable_tools: Type.Optional(Type.Boolean()),
  allowed_tools: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  blocked_tools: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  max_tool_rounds: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  strategy_options: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()))),
}, { additionalProperties: false })
export type RunOverridesT = Static<typeof RunOverrides>

/** Everything one run uses, after options, config file and request overrides are merged. */
export interface RunConfig {
  name: string
  user_id: string | null
  default_model: string
  reasoning_model: string | null
  drafting_model: string | null
  max_iterations: number
  timeout_seconds: number
  enable_planning: boolean
  enable_reasoning: boolean
  enable_drafting: boolean
  enable_memory: boolean
  enable_tools: boolean
  allowed_tools: string[] | null
  blocked_tools: string[] | null
  max_tool_rounds: number
  max_plan_steps: number
  tool_timeout_seconds: number
  strategy_options: Record<string, Record<string, unknown>>
}
