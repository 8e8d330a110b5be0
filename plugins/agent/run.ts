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
import { raceAbort } from '@agentd/sdk'

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
}

export type { AgentResult }

export async function runAgent (app: FastifyInstance, input: RunInput): Promise<AgentResult> {
  const { task, cfg } = input
  const started = performance.now()
  const uuid = randomUUID()
  const taskId = uuid.slice(0, 8)
  const log = app.log.child({ task_id: taskId })

  // timeout_seconds covers everything from here, tool listing included.
  const controller = new AbortController()
  const signal = controller.signal
  const timer = setTimeout(() => { controller.abort(new AgentErrors.TIMEOUT(cfg.timeout_seconds)) }, cfg.timeout_seconds * 1000)
  const remainingMs = (): number => cfg.timeout_seconds * 1000 - (performance.now() - started)

  // Everything that can be the caller's mistake is checked before the run starts.
  let roles: RoleModels
  try {
    roles = resolveRoles(app, cfg)
    if (app.registry.strategies.size === 0) throw new AgentErrors.NO_STRATEGIES()
  } catch (err) {
    clearTimeout(timer)
    throw err
  }

  const tracker = trackTask(input.tracker, taskId)
  const state: { status: AgentStatus } = { status: 'idle' }
  const setStatus = (s: AgentStatus): void => { state.status = s; tracker.set(s) }

  const onClientAbort = (): void => { controller.abort(new AgentErrors.CANCELLED()) }
  if (input.clientSignal.aborted) onClientAbort()
  else input.clientSignal.addEventListener('abort', onClientAbort, { once: true })

  // Listed inside the run (below), so a slow tool source counts against the time limit.
  let tools: RunTools = { definitions: [], call: async (call) => ({ content: `Tool "${call.name}" is not available.`, isError: true }) }

  let iterations = 0
  let tokens = 0
  const modelsUsed = new Set<string>()
  const toolsUsed = new Set<string>()
  const trace: TraceStep[] = []
  let currentStep = 0
  let partial = ''

  const addTrace = (entry: TraceStep): void => {
    const full: TraceStep = { ...entry, step: entry.step ?? currentStep, at_ms: Math.round(performance.now() - started) }
    trace.push(full)
    if (app.hooks.has('agent:step')) void app.hooks.run('agent:step', { task_id: taskId, step: full }).catch((err: unknown) => { log.warn({ err }, 'agent:step hook failed') })
  }

  const roleFor = (role: ModelRole | undefined, step: PlanStep | undefined): ConcreteRole =>
    role === undefined || role === 'step' ? (step?.role ?? 'default') : role

  const completeFor = (step: PlanStep | undefined) => async (req: StrategyCompletionRequest, opts: StrategyCompleteOptions = {}): Promise<StrategyCompletion> => {
    if (signal.aborted) throw signal.reason
    if (iterations >= cfg.max_iterations) throw new AgentErrors.ITERATIONS(cfg.max_iterations)
    iterations++
    const rm = roles[roleFor(opts.role, step)]
    const t0 = performance.now()
    let result
    try {
      // The resolver's provider runs the provider hooks and honours the signal (middleware).
      result = await rm.provider.complete({ ...req, model: rm.model }, signal)
    } catch (err) {
      if (signal.aborted) throw signal.reason
      throw err
    }
    const timeMs = Math.round((performance.now() - t0) * 100) / 100
    tokens += result.usage.total_tokens
    modelsUsed.add(rm.id)
    if (opts.trace !== false) {
      const { type, ...extra } = opts.trace ?? { type: 'model_call' }
      addTrace({ ...extra, type, content: result.content, model: rm.id, tokens: result.usage.total_tokens, time_ms: timeMs })
    }
    return { ...result, model_id: rm.id, time_ms: timeMs }
  }

  let runningTools = 0
  const callTool = async (call: ToolCall): Promise<ToolResult> => {
    if (signal.aborted) throw signal.reason
    // A call to a tool the run does not offer (blocked, disabled, made up) is refused to the model, not used.
    if (tools.definitions.some(d => d.name === call.name)) toolsUsed.add(call.name)
    addTrace({ type: 'action', content: `${call.name}(${JSON.stringify(call.arguments)})`, tool: call.name, arguments: call.arguments })
    runningTools++
    setStatus('executing')
    const t0 = performance.now()
    try {
      const result = await raceAbort(tools.call(call, signal), signal)
      addTrace({ type: 'observation', content: result.content, tool: call.name, is_error: result.isError, time_ms: Math.round((performance.now() - t0) * 100) / 100 })
      return result
    } finally {
      // Parallel calls of one round: still `executing` until the last of them ends.
      if (--runningTools === 0 && !signal.aborted) setStatus('reasoning')
    }
  }

  let strategyName = input.strategy
  let plan: PlanStep[] = []
  const outcomes: StepOutcome[] = []
  let reasoningSteps = 0
  const thinkings: string[] = []
  let error: unknown

  try {
    setStatus('planning')
    tools = await raceAbort(gatherTools(app, cfg, uuid), signal)
    const planned = await makePlan(task, cfg.enable_planning, {
      complete: completeFor(undefined),
      jsonMode: roles.reasoning.capabilities.supports_json_mode,
      maxSteps: cfg.max_plan_steps,
      toolNames: tools.definitions.map(t => t.name),
      // A provider that cannot be reached or is not configured (503), or a model it does not
      // know (404), will fail the steps too: stop now.
      isFatal: (err) => isRunStop(err) || [503, 404].includes((err as { statusCode?: number }).statusCode ?? 0),
    })
    plan = planned.steps
    addTrace({
      type: 'plan', content: plan.map(s => `${s.index}. [${s.type}] ${s.description}`).join('\n'), source: planned.source, steps: plan,
      ...(planned.error === undefined ? {} : { error: planned.error }),
      ...(planned.reply === undefined ? {} : { model: planned.reply.model_id, tokens: planned.reply.usage.total_tokens, time_ms: planned.reply.time_ms }),
    })

    if (strategyName === 'auto') {
      // Strategies that need tools are no candidates when the run has none, unless nothing
      // else is loaded (a tool-using strategy still answers without tools).
      const usable = app.registry.strategies.entries().filter(([, st]) => st.usesTools !== true || tools.definitions.length > 0).map(([name]) => name)
      const choice = chooseStrategy({
        task: `${task}\n${plan.map(s => s.description).join('\n')}`,
        toolNames: tools.definitions.map(t => t.name),
        registered: usable.length > 0 ? usable : app.registry.strategies.names(),
        rules: input.autoRules,
        fallback: input.autoFallback,
        planNeedsTools: plan.some(s => s.type === 'action'),
      })
      strategyName = choice.strategy
      addTrace({ type: 'strategy', content: `auto chose ${choice.strategy}: ${choice.reason}${choice.matched === undefined ? '' : ` ("${choice.matched}")`}`, strategy: choice.strategy, auto: true })
    } else {
      addTrace({ type: 'strategy', content: `${strategyName} (requested)`, strategy: strategyName, auto: false })
    }
    const strategy: Strategy = app.registry.strategies.get(strategyName)

    setStatus('reasoning')
    for (const step of plan) {
      currentStep = step.index
      const limits = { max_iterations: cfg.max_iterations, remaining: () => cfg.max_iterations - iterations, max_tool_rounds: cfg.max_tool_rounds, deadline: Date.now() + (cfg.timeout_seconds * 1000 - (performance.now() - started)) }
      const ctx: StrategyContext = {
        task_id: taskId,
        task,
        plan,
        step,
        previous: [...outcomes],
        messages: Object.freeze(stepMessages({ name: cfg.name, task, plan, step, previous: outcomes })),
        complete: completeFor(step),
        capabilities: (role) => {
          const c = roles[roleFor(role, step)].capabilities
          return { supports_json_mode: c.supports_json_mode, supports_tools: c.supports_tools }
        },
        tools: tools.definitions,
        callTool,
        toolLoop: toolLoopFor({ complete: completeFor(step), callTool, tools: tools.definitions, limits, signal }),
        trace: addTrace,
        progress: (text) => { partial = text },
        signal,
        limits,
        options: Object.freeze({ ...(cfg.strategy_options[strategyName] ?? {}) }),
        log: { debug: (o, m) => { log.debug(o, m) }, warn: (o, m) => { log.warn(o, m) } },
      }
      const r = await raceAbort(strategy.run(ctx), signal)
      if (r === null || typeof r !== 'object' || typeof r.answer !== 'string') throw new AgentErrors.BAD_STRATEGY_RESULT(strategyName)
      const split = splitThinking(r.answer)
      outcomes.push({ step, answer: split.answer })
      partial = split.answer
      if (r.thinking !== undefined && r.thinking !== '') thinkings.push(r.thinking)
      if (split.thinking !== '') thinkings.push(split.thinking)
      reasoningSteps += Number.isFinite(r.reasoning_steps) ? r.reasoning_steps : 0
    }
    setStatus('complete')
  } catch (err) {
    error = signal.aborted ? signal.reason : err
    const cancelled = (error as { code?: string }).code === 'AGENT_ERR_AGENT_CANCELLED'
    setStatus(cancelled ? 'cancelled' : 'failed')
    addTrace({ type: 'error', content: (error as Error).message ?? String(error) })
    if (!isRunStop(error)) log.warn({ err: error }, 'agent run failed')
  } finally {
    clearTimeout(timer)
    input.clientSignal.removeEventListener('abort', onClientAbort)
  }

  const status = state.status
  const answer = status === 'complete' ? (outcomes.at(-1)?.answer ?? '') : partial
  const thinking = thinkings.join('\n\n')
  const result: AgentResult = {
    task_id: taskId,
    status,
    answer,
    thinking,
    has_thinking: thinking !== '',
    plan_steps: plan.length,
    reasoning_steps: reasoningSteps,
    tools_used: [...toolsUsed],
    models_used: [...modelsUsed],
    total_tokens: tokens,
    total_time_ms: 0,
    strategy: strategyName,
    plan,
    iterations,
    ...(error === undefined ? {} : { error: toErrorBody(error) }),
  }
  if (cfg.enable_memory && status !== 'cancelled') {
    // Waited for only within the run's time limit; past it the store finishes in the background.
    const stored = await storeRun(app, { conversationId: uuid, task, result, user_id: cfg.user_id }, remainingMs())
    if (stored !== 'no_memory') {
      addTrace({
        type: 'memory',
        content: stored === 'stored'
          ? 'stored the task and its result in memory'
          : stored === 'background'
            ? 'storing the task and its result in memory in the background (the time limit leaves no time to wait for it)'
            : `memory storage failed (the run is unaffected): ${stored.error}`,
      })
    }
  }
  tracker.end(status)
  result.total_time_ms = Math.round((performance.now() - started) * 100) / 100
  result.trace = trace
  return result
}
