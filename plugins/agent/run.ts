// One agent run: plan, pick the strategy, run it over each plan step, and account for
// everything (iterations, tokens, models, tools, trace, status). The limits live here so
// no strategy can escape them: every model call passes through `complete`, which counts
// the iteration and races the run's abort signal (timeout or client disconnect).
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { ToolCall } from '@agentd/sdk/contracts/provider'
import type { ToolResult } from '@agentd/sdk/contracts/tool-source'
import type {
  ModelRole, PlanStep, StepOutcome, Strategy, StrategyCompleteOptions, StrategyCompletion,
  StrategyCompletionRequest, StrategyContext, TraceStep,
} from '@agentd/sdk/contracts/strategy'
import type { AgentResult } from './result.ts'
import { toErrorBody } from '@agentd/sdk'
import { AgentErrors, isRunStop } from './errors.ts'
import type { AutoRuleT, RunConfig } from './options.ts'
import { resolveRoles, type ConcreteRole, type RoleModels } from './models.ts'
import { gatherTools, type RunTools } from './tools.ts'
import { toolLoopFor } from './tool-loop.ts'
import { makePlan } from './planner.ts'
import { chooseStrategy } from './auto.ts'
import { stepMessages } from './messages.ts'
import { splitThinking } from '@agentd/sdk/kits/output'
import { trackTask, type AgentStatus, type TaskTracker } from './tracker.ts'
import { storeRun } from './memory.ts'
import { raceAbort, type TraceContext } from '@agentd/sdk'

export interface RunInput {
  task: string
  /** `auto` or a registered strategy name (checked by the route). */
  strategy: string
  cfg: RunConfig
  autoRules: readonly AutoRuleT[]
  autoFallback: string
  /** Aborted when the client disconnects. */
  clientSignal: AbortSignal
  /** The process-wide active-task tracker shared with chat (GET /api/agent/status). */
  tracker: TaskTracker
  /** Every trace entry as it is added (the streamed run, POST /api/agent/run/stream). */
  onTrace?: (step: TraceStep) => void
  /** The caller's trace context (its HTTP request's, `requestTrace`): the parent of the run's model and tool call spans. */
  traceContext?: TraceContext
}

export type { AgentResult }

const roleFor = (role: ModelRole | undefined, step: PlanStep | undefined): ConcreteRole =>
  role === undefined || role === 'step' ? (step?.role ?? 'default') : role

const msSince = (t0: number): number => Math.round((performance.now() - t0) * 100) / 100

/** One run's state and accounting; `runAgent` drives it. */
class AgentRun {
  readonly started = performance.now()
  readonly uuid = randomUUID()
  readonly taskId = this.uuid.slice(0, 8)
  readonly controller = new AbortController()
  readonly signal = this.controller.signal
  readonly log
  readonly tracker
  status: AgentStatus = 'idle'
  // Listed inside the run (below), so a slow tool source counts against the time limit.
  tools: RunTools = { definitions: [], call: async (call) => ({ content: `Tool "${call.name}" is not available.`, isError: true }) }
  iterations = 0
  tokens = 0
  readonly modelsUsed = new Set<string>()
  readonly toolsUsed = new Set<string>()
  readonly trace: TraceStep[] = []
  currentStep = 0
  partial = ''
  strategyName: string
  plan: PlanStep[] = []
  readonly outcomes: StepOutcome[] = []
  reasoningSteps = 0
  readonly thinkings: string[] = []
  #runningTools = 0

  constructor (readonly app: FastifyInstance, readonly input: RunInput, readonly roles: RoleModels) {
    this.log = app.log.child({ task_id: this.taskId })
    this.tracker = trackTask(input.tracker, this.taskId)
    this.strategyName = input.strategy
  }

  get cfg (): RunConfig { return this.input.cfg }
  remainingMs (): number { return this.cfg.timeout_seconds * 1000 - (performance.now() - this.started) }
  setStatus (s: AgentStatus): void { this.status = s; this.tracker.set(s) }

  addTrace (entry: TraceStep): void {
    const full: TraceStep = { ...entry, step: entry.step ?? this.currentStep, at_ms: Math.round(performance.now() - this.started) }
    this.trace.push(full)
    this.input.onTrace?.(full)
    if (this.app.hooks.has('agent:step')) void this.app.hooks.run('agent:step', { task_id: this.taskId, step: full }).catch((err: unknown) => { this.log.warn({ err }, 'agent:step hook failed') })
  }

  /** Every model call of the run: counted against max_iterations, raced against the run's signal, traced. */
  completeFor (step: PlanStep | undefined) {
    return async (req: StrategyCompletionRequest, opts: StrategyCompleteOptions = {}): Promise<StrategyCompletion> => {
      if (this.signal.aborted) throw this.signal.reason
      if (this.iterations >= this.cfg.max_iterations) throw new AgentErrors.ITERATIONS(this.cfg.max_iterations)
      this.iterations++
      const rm = this.roles[roleFor(opts.role, step)]
      const t0 = performance.now()
      let result
      try {
        // The resolver's provider runs the provider hooks and honours the signal (middleware).
        result = await rm.provider.complete({ ...req, model: rm.model, trace: this.input.traceContext }, this.signal)
      } catch (err) {
        if (this.signal.aborted) throw this.signal.reason
        throw err
      }
      const timeMs = msSince(t0)
      this.tokens += result.usage.total_tokens
      this.modelsUsed.add(rm.id)
      if (opts.trace !== false) {
        const { type, ...extra } = opts.trace ?? { type: 'model_call' }
        this.addTrace({ ...extra, type, content: result.content, model: rm.id, tokens: result.usage.total_tokens, time_ms: timeMs })
      }
      return { ...result, model_id: rm.id, time_ms: timeMs }
    }
  }

  readonly callTool = async (call: ToolCall): Promise<ToolResult> => {
    if (this.signal.aborted) throw this.signal.reason
    // A call to a tool the run does not offer (blocked, disabled, made up) is refused to the model, not used.
    if (this.tools.definitions.some(d => d.name === call.name)) this.toolsUsed.add(call.name)
    this.addTrace({ type: 'action', content: `${call.name}(${JSON.stringify(call.arguments)})`, tool: call.name, arguments: call.arguments })
    this.#runningTools++
    this.setStatus('executing')
    const t0 = performance.now()
    try {
      const result = await raceAbort(this.tools.call(call, this.signal, this.input.traceContext), this.signal)
      this.addTrace({ type: 'observation', content: result.content, tool: call.name, is_error: result.isError, time_ms: msSince(t0) })
      return result
    } finally {
      // Parallel calls of one round: still `executing` until the last of them ends.
      if (--this.#runningTools === 0 && !this.signal.aborted) this.setStatus('reasoning')
    }
  }

  async makePlan (): Promise<void> {
    const planned = await makePlan(this.input.task, this.cfg.enable_planning, {
      complete: this.completeFor(undefined),
      jsonMode: this.roles.reasoning.capabilities.supports_json_mode,
      maxSteps: this.cfg.max_plan_steps,
      toolNames: this.tools.definitions.map(t => t.name),
      // A provider that cannot be reached or is not configured (503), or a model it does not
      // know (404), will fail the steps too: stop now.
      isFatal: (err) => isRunStop(err) || [503, 404].includes((err as { statusCode?: number }).statusCode ?? 0),
    })
    this.plan = planned.steps
    this.addTrace({
      type: 'plan', content: this.plan.map(s => `${s.index}. [${s.type}] ${s.description}`).join('\n'), source: planned.source, steps: this.plan,
      ...(planned.error === undefined ? {} : { error: planned.error }),
      ...(planned.reply === undefined ? {} : { model: planned.reply.model_id, tokens: planned.reply.usage.total_tokens, time_ms: planned.reply.time_ms }),
    })
  }

  pickStrategy (): Strategy {
    const { app } = this
    if (this.strategyName !== 'auto') {
      this.addTrace({ type: 'strategy', content: `${this.strategyName} (requested)`, strategy: this.strategyName, auto: false })
      return app.registry.strategies.get(this.strategyName)
    }
    // Strategies that need tools are no candidates when the run has none, unless nothing
    // else is loaded (a tool-using strategy still answers without tools).
    const usable = app.registry.strategies.entries().filter(([, st]) => st.usesTools !== true || this.tools.definitions.length > 0).map(([name]) => name)
    const choice = chooseStrategy({
      task: `${this.input.task}\n${this.plan.map(s => s.description).join('\n')}`,
      toolNames: this.tools.definitions.map(t => t.name),
      registered: usable.length > 0 ? usable : app.registry.strategies.names(),
      rules: this.input.autoRules,
      fallback: this.input.autoFallback,
      planNeedsTools: this.plan.some(s => s.type === 'action'),
    })
    this.strategyName = choice.strategy
    this.addTrace({ type: 'strategy', content: `auto chose ${choice.strategy}: ${choice.reason}${choice.matched === undefined ? '' : ` ("${choice.matched}")`}`, strategy: choice.strategy, auto: true })
    return app.registry.strategies.get(choice.strategy)
  }

  contextFor (step: PlanStep): StrategyContext {
    const { cfg } = this
    const limits = { max_iterations: cfg.max_iterations, remaining: () => cfg.max_iterations - this.iterations, max_tool_rounds: cfg.max_tool_rounds, deadline: Date.now() + this.remainingMs() }
    const complete = this.completeFor(step)
    return {
      task_id: this.taskId,
      task: this.input.task,
      plan: this.plan,
      step,
      previous: [...this.outcomes],
      messages: Object.freeze(stepMessages({ name: cfg.name, task: this.input.task, plan: this.plan, step, previous: this.outcomes })),
      complete,
      capabilities: (role) => {
        const c = this.roles[roleFor(role, step)].capabilities
        return { supports_json_mode: c.supports_json_mode, supports_tools: c.supports_tools }
      },
      tools: this.tools.definitions,
      callTool: this.callTool,
      toolLoop: toolLoopFor({ complete, callTool: this.callTool, tools: this.tools.definitions, limits, signal: this.signal }),
      trace: (e) => { this.addTrace(e) },
      progress: (text) => { this.partial = text },
      signal: this.signal,
      limits,
      options: Object.freeze({ ...(cfg.strategy_options[this.strategyName] ?? {}) }),
      log: { debug: (o, m) => { this.log.debug(o, m) }, warn: (o, m) => { this.log.warn(o, m) } },
    }
  }

  async runStep (strategy: Strategy, step: PlanStep): Promise<void> {
    this.currentStep = step.index
    const r = await raceAbort(strategy.run(this.contextFor(step)), this.signal)
    if (r === null || typeof r !== 'object' || typeof r.answer !== 'string') throw new AgentErrors.BAD_STRATEGY_RESULT(this.strategyName)
    const split = splitThinking(r.answer)
    this.outcomes.push({ step, answer: split.answer })
    this.partial = split.answer
    if (r.thinking !== undefined && r.thinking !== '') this.thinkings.push(r.thinking)
    if (split.thinking !== '') this.thinkings.push(split.thinking)
    this.reasoningSteps += Number.isFinite(r.reasoning_steps) ? r.reasoning_steps : 0
  }

  result (error: unknown): AgentResult {
    const answer = this.status === 'complete' ? (this.outcomes.at(-1)?.answer ?? '') : this.partial
    const thinking = this.thinkings.join('\n\n')
    return {
      task_id: this.taskId,
      status: this.status,
      answer,
      thinking,
      has_thinking: thinking !== '',
      plan_steps: this.plan.length,
      reasoning_steps: this.reasoningSteps,
      tools_used: [...this.toolsUsed],
      models_used: [...this.modelsUsed],
      total_tokens: this.tokens,
      total_time_ms: 0,
      strategy: this.strategyName,
      plan: this.plan,
      iterations: this.iterations,
      ...(error === undefined ? {} : { error: toErrorBody(error) }),
    }
  }

  /** Stores the task and its result, waited for only within the run's time limit (past it, in the background). */
  async remember (result: AgentResult): Promise<void> {
    if (!this.cfg.enable_memory || this.status === 'cancelled') return
    const stored = await storeRun(this.app, { conversationId: this.uuid, task: this.input.task, result, user_id: this.cfg.user_id }, this.remainingMs())
    if (stored === 'no_memory') return
    this.addTrace({
      type: 'memory',
      content: stored === 'stored'
        ? 'stored the task and its result in memory'
        : stored === 'background'
          ? 'storing the task and its result in memory in the background (the time limit leaves no time to wait for it)'
          : `memory storage failed (the run is unaffected): ${stored.error}`,
    })
  }
}

export async function runAgent (app: FastifyInstance, input: RunInput): Promise<AgentResult> {
  const { cfg } = input
  // Everything that can be the caller's mistake is checked before the run starts.
  const roles = resolveRoles(app, cfg)
  if (app.registry.strategies.size === 0) throw new AgentErrors.NO_STRATEGIES()
  const run = new AgentRun(app, input, roles)
  // timeout_seconds covers everything from here, tool listing included.
  const timer = setTimeout(() => { run.controller.abort(new AgentErrors.TIMEOUT(cfg.timeout_seconds)) }, cfg.timeout_seconds * 1000)
  const onClientAbort = (): void => { run.controller.abort(new AgentErrors.CANCELLED()) }
  if (input.clientSignal.aborted) onClientAbort()
  else input.clientSignal.addEventListener('abort', onClientAbort, { once: true })
  let error: unknown
  try {
    run.setStatus('planning')
    run.tools = await raceAbort(gatherTools(app, cfg, run.uuid), run.signal)
    await run.makePlan()
    const strategy = run.pickStrategy()
    run.setStatus('reasoning')
    for (const step of run.plan) await run.runStep(strategy, step)
    run.setStatus('complete')
  } catch (err) {
    error = run.signal.aborted ? run.signal.reason : err
    const cancelled = (error as { code?: string }).code === 'AGENT_ERR_AGENT_CANCELLED'
    run.setStatus(cancelled ? 'cancelled' : 'failed')
    run.addTrace({ type: 'error', content: (error as Error).message ?? String(error) })
    if (!isRunStop(error)) run.log.warn({ err: error }, 'agent run failed')
  } finally {
    clearTimeout(timer)
    input.clientSignal.removeEventListener('abort', onClientAbort)
  }
  const result = run.result(error)
  await run.remember(result)
  run.tracker.end(run.status)
  result.total_time_ms = msSince(run.started)
  result.trace = run.trace
  return result
}
