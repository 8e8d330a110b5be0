// Reasoning strategies for full agent mode (`cot`, `tot`, `react`, `reflection`, and any
// third party's). A strategy decides the *pattern* of model and tool calls for one plan
// step; the agent plugin owns everything around it: planning, which model serves which
// role, tool permissions, iteration and time limits, cancellation, tracing, token and
// model accounting, memory. A strategy therefore never talks to a provider or a tool
// source directly: it calls `ctx.complete` and `ctx.callTool`, which do the accounting
// and enforce the limits for it.
//
// A strategy plugin registers one object under its name:
//
//   export default fp(async (app, opts) => {
//     app.registry.strategies.add(opts.instance, {
//       id: opts.instance,
//       description: 'Samples three answers and keeps the most common one.',
//       run: async (ctx) => { ... return { answer, reasoning_steps } },
//     })
//   }, { name: 'strategy-vote', fastify: '5.x' })
//
// and is then usable as `reasoning_strategy: "<name>"` in POST /api/agent/run.
import type { CompletionRequest, CompletionResult, Message, ToolCall, ToolDefinition } from './provider.ts'
import type { ToolResult } from './tool-source.ts'

/**
 * Which configured model serves a call (AgentConfig):
 * - `reasoning`: `reasoning_model` when set and `enable_reasoning` is on, else `default_model`
 *   (planning, critiques, scoring, tool use);
 * - `drafting`: `drafting_model` when set and `enable_drafting` is on, else `default_model`
 *   (writing drafts and final prose);
 * - `default`: `default_model`;
 * - `step`: the role the current plan step's type calls for (see `PlanStep.role`).
 */
export type ModelRole = 'reasoning' | 'drafting' | 'default' | 'step'

/**
 * Plan step types the planner produces. `research`: gather facts (may use tools);
 * `analysis`: reason over what is known; `generation`: write the output; `action`: do
 * something with a tool; `verification`: check a result. Third-party planners may add
 * types; unknown ones are treated like `analysis`.
 */
export type PlanStepType = 'research' | 'analysis' | 'generation' | 'action' | 'verification'

export interface PlanStep {
  /** 1-based position in the plan. */
  index: number
  type: PlanStepType
  /** What this step must achieve, in the planner's words. */
  description: string
  /** The model role this step runs with by default (`generation` -> drafting, else reasoning). */
  role: Exclude<ModelRole, 'step'>
}

/** What an earlier plan step produced; later steps build on it. */
export interface StepOutcome {
  step: PlanStep
  answer: string
}

/**
 * One entry of the run's trace (AgentResult.trace). Well-known `type`s: `plan`, `strategy`,
 * `thought`, `action`, `observation`, `candidate`, `score`, `draft`, `critique`, `revision`,
 * `answer`, `error`. The agent adds `step` (plan step index), `at_ms` (since the run
 * started) and, for model calls, `model`, `tokens` and `time_ms`.
 */
export interface TraceStep {
  type: string
  content: string
  /** The `provider/model` that produced it, for entries that come from a model call. */
  model?: string
  /** Total tokens of that model call. */
  tokens?: number
  /** Duration of the call or tool run. */
  time_ms?: number
  /** Anything else worth keeping (scores, tool arguments, depth). JSON-serialisable. */
  [key: string]: unknown
}

/** A model call as a strategy asks for it: no model name, the role picks it. */
export type StrategyCompletionRequest = Omit<CompletionRequest, 'model'>

export interface StrategyCompleteOptions {
  /** Which model serves this call; default `step`. */
  role?: ModelRole
  /**
   * How the call appears in the trace: `{ type: 'draft' }` records the model's answer as a
   * `draft` entry with model, tokens and time. Omit to record it as `type: 'model_call'`;
   * `false` records nothing (the strategy traces it itself with `ctx.trace`).
   */
  trace?: { type: string, [key: string]: unknown } | false
}

/** A model call's result, with the `provider/model` that served it. */
export interface StrategyCompletion extends CompletionResult {
  /** `provider/model` id of the model that answered (what `models_used` lists). */
  model_id: string
  /** Wall time of the call. */
  time_ms: number
}

export interface StrategyLimits {
  /** AgentConfig.max_iterations: model calls allowed for the whole run, planning included. */
  readonly max_iterations: number
  /** Model calls still allowed; `ctx.complete` throws a limit error when it reaches 0. */
  remaining: () => number
  /** AgentConfig.max_tool_rounds: rounds of tool calls a tool-using loop may make. */
  readonly max_tool_rounds: number
  /** Epoch milliseconds at which the run times out (AgentConfig.timeout_seconds). */
  readonly deadline: number
}

export interface StrategyContext {
  /** The run's id (AgentResult.task_id). */
  readonly task_id: string
  /** The user's whole task, as sent (trimmed). */
  readonly task: string
  /** The whole plan, in order. */
  readonly plan: readonly PlanStep[]
  /** The plan step this run of the strategy must carry out. */
  readonly step: PlanStep
  /** What earlier steps produced, in order (empty for the first step). */
  readonly previous: readonly StepOutcome[]
  /**
   * Ready-made conversation for this step: the system prompt (agent persona, plan,
   * earlier results) and a user message with the step to do. Strategies may use it as
   * is, extend a copy, or build their own. Never mutated by the agent after creation.
   */
  readonly messages: readonly Message[]
  /**
   * Calls a model. Picks the model for `options.role`, records tokens, time and the model
   * in the result, counts one iteration, traces the call, and honours `signal`.
   * Throws when the run is out of iterations or time, or was cancelled: let that
   * propagate (the agent turns it into `failed`/`cancelled` with what was done).
   * Provider errors propagate too (HTTP-coded errors from core/errors.ts).
   */
  complete: (req: StrategyCompletionRequest, options?: StrategyCompleteOptions) => Promise<StrategyCompletion>
  /** Whether the model for a role supports JSON mode (`response_format`) and native tool calls. */
  capabilities: (role?: ModelRole) => { supports_json_mode: boolean, supports_tools: boolean }
  /**
   * The tools this run may use (allowed_tools/blocked_tools applied); empty when
   * `enable_tools` is off or no tool source is registered. Pass them as `req.tools`.
   */
  readonly tools: readonly ToolDefinition[]
  /**
   * Runs one tool call. Never throws for the tool's own failure (returns `isError`), so
   * the model can see it; throws only on cancel/timeout. Records the tool in
   * `tools_used`, traces `action` and `observation`, and shows `executing` in the status.
   */
  callTool: (call: ToolCall) => Promise<ToolResult>
  /**
   * The tool-use loop over this run's models and tools: calls the model with `messages`
   * and `ctx.tools`; while it asks for tool calls, runs them through `callTool` (one
   * round's calls at once), adds the results and calls again; after
   * `limits.max_tool_rounds` rounds it calls once more without tools, so the model must
   * answer. Every model call goes through `complete` (counted, limited; not traced: trace
   * what you want from `onRound`). Replies are read with the think parser.
   */
  toolLoop: (opts: StrategyToolLoopOptions) => Promise<StrategyToolLoopResult>
  /** Adds an entry to the trace (and runs the `agent:step` hook). */
  trace: (step: TraceStep) => void
  /**
   * Reports the best answer so far. When the run then times out or hits the iteration
   * cap, this is the `answer` the failed result carries ("what was done").
   */
  progress: (partialAnswer: string) => void
  /** Aborted on client disconnect, timeout or shutdown; pass it on to anything slow. */
  readonly signal: AbortSignal
  readonly limits: StrategyLimits
  /** This strategy's options: the agent plugin's `strategy_options.<name>`, merged with the request's `config.strategy_options.<name>` (may be empty). Validate what you read. */
  readonly options: Readonly<Record<string, unknown>>
  /** A logger scoped to the run. */
  readonly log: { debug: (obj: object, msg?: string) => void, warn: (obj: object, msg?: string) => void }
}

/** One model reply inside `ctx.toolLoop`, reported before its tool calls run. */
export interface StrategyToolLoopRound {
  /** 0-based. */
  round: number
  /** The reply's text without reasoning blocks. */
  answer: string
  /** The reply's reasoning (native or from `<think>`-style blocks). */
  thinking: string
  /** How many tool calls the reply asked for; 0 for the final reply. */
  tool_calls: number
  /** The model call behind the reply: `model_id`, `usage`, `time_ms`. */
  call: StrategyCompletion
}

export interface StrategyToolLoopOptions {
  /** The conversation to start from (e.g. `ctx.messages` with an instruction added). Not mutated. */
  messages: readonly Message[]
  /** Which model serves the calls; default `step`. */
  role?: ModelRole
  /** Called after each model reply. */
  onRound?: (round: StrategyToolLoopRound) => void
}

export interface StrategyToolLoopResult {
  /** The final reply's answer text (reasoning removed). */
  answer: string
  /** Reasoning of every reply, blocks separated by a blank line. */
  thinking: string
  /** Messages the loop added: assistant replies (with their tool calls) and tool results. */
  messages: Message[]
  /** Model calls made. */
  calls: number
  /** Rounds in which tools ran. */
  tool_rounds: number
  /** True when the loop stopped offering tools because of `max_tool_rounds`. */
  hit_round_cap: boolean
}

export interface StrategyResult {
  /** The step's answer: final text for the user, without `<think>` blocks. */
  answer: string
  /** Reasoning worth returning as AgentResult.thinking (e.g. the chain of thought). */
  thinking?: string
  /** How many reasoning steps the strategy took (thoughts, levels, rounds); summed over steps. */
  reasoning_steps: number
}

export interface Strategy {
  /** Name users pass as `reasoning_strategy`; equal to the registry key. */
  readonly id: string
  /** One sentence shown in listings and error messages. */
  readonly description: string
  /** Whether the strategy needs tools to be useful (`auto` only picks it when tools are available). */
  readonly usesTools?: boolean
  /** Carries out `ctx.step`. Anything slow it does besides `ctx.complete`/`ctx.callTool` must honour `ctx.signal`. */
  run: (ctx: StrategyContext) => Promise<StrategyResult>
}

declare module '../kernel/registry.ts' {
  interface Capabilities { strategies: Strategy }
}

declare module '../kernel/hooks.ts' {
  interface HookPayloads {
    /** After a full-agent step was recorded. */
    'agent:step': { task_id: string, step: TraceStep & { timestamp?: string } }
  }
}
