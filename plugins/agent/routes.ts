// POST /api/agent/run: validates the request, merges the run's configuration, runs the
// agent, and cancels it when the client disconnects.
import type { FastifyInstance } from 'fastify'
import { concurrencyCap, envInt, ignoreUnknownFields, requestTrace } from '@agentd/sdk'
import { Type, type Static } from '@agentd/sdk/typebox'
import { AgentErrors } from './errors.ts'
import { RunOverrides, type AgentOptions, type AutoRuleT, type RunConfig, type RunOverridesT } from './options.ts'
import { runAgent } from './run.ts'
import type { TaskTracker } from './tracker.ts'
import { registerStreamRoute } from './stream.ts'

export const RunBody = Type.Object({
  task: Type.String({ description: 'What the agent must do.' }),
  reasoning_strategy: Type.Optional(Type.String({ minLength: 1, description: '`auto` or a registered strategy: cot, tot, react, reflection, or a plugin\'s.' })),
  config: Type.Optional(RunOverrides),
  // The original client's shorthands: `config.default_model` and `config.allowed_tools` win when both are sent.
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'provider/model for the run (shorthand of config.default_model).' })),
  tools: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 500, description: 'tools the run may use (shorthand of config.allowed_tools).' })),
  include_trace: Type.Optional(Type.Boolean({ description: 'Return the step trace (default true).' })),
}, { additionalProperties: false })
export type RunBodyT = Static<typeof RunBody>

const ErrorBodySchema = Type.Object({
  error: Type.String(), code: Type.String(), statusCode: Type.Integer(),
  details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
})

const PlanStepSchema = Type.Object({ index: Type.Integer(), type: Type.String(), description: Type.String(), role: Type.String() })

export const AgentResultSchema = Type.Object({
  task_id: Type.String(),
  status: Type.String({ description: 'idle, planning, reasoning, executing, complete, failed, cancelled' }),
  answer: Type.String(),
  result: Type.String({ description: 'the answer again, under the original system\'s name' }),
  thinking: Type.String(),
  has_thinking: Type.Boolean(),
  plan_steps: Type.Integer(),
  reasoning_steps: Type.Integer(),
  tools_used: Type.Array(Type.String()),
  models_used: Type.Array(Type.String()),
  total_tokens: Type.Integer(),
  total_time_ms: Type.Number(),
  strategy: Type.String({ description: 'The strategy that ran (what `auto` chose).' }),
  plan: Type.Array(PlanStepSchema),
  iterations: Type.Integer({ description: 'Model calls made, planning included.' }),
  error: Type.Optional(ErrorBodySchema),
  trace: Type.Optional(Type.Array(Type.Object({ type: Type.String(), content: Type.String() }, { additionalProperties: true }))),
})

type StrategyOptions = Record<string, Record<string, unknown>>

/** Per strategy, the request's keys win over the plugin's. */
function mergeStrategyOptions (base: StrategyOptions, patch: StrategyOptions = {}): StrategyOptions {
  const out: StrategyOptions = { ...base }
  for (const [name, o] of Object.entries(patch)) out[name] = { ...base[name], ...o }
  return out
}

/** Options, then data/config.json `preferences`, then the environment, then SPEC's defaults; then the request's overrides. */
export function runConfig (app: FastifyInstance, opts: AgentOptions, o: RunOverridesT = {}): RunConfig {
  return {
    name: opts.name,
    user_id: opts.user_id ?? null,
    default_model: o.default_model ?? opts.default_model ?? app.agentConfig.lookup('preferences.default_model', 'DEFAULT_MODEL', 'llama3.2') ?? 'llama3.2',
    reasoning_model: o.reasoning_model !== undefined ? o.reasoning_model : (opts.reasoning_model ?? app.agentConfig.lookup('models.defaults.reasoning') ?? null),
    drafting_model: o.drafting_model !== undefined ? o.drafting_model : (opts.drafting_model ?? null),
    max_iterations: o.max_iterations ?? opts.max_iterations,
    timeout_seconds: o.timeout_seconds ?? opts.timeout_seconds,
    enable_planning: o.enable_planning ?? opts.enable_planning,
    enable_reasoning: o.enable_reasoning ?? opts.enable_reasoning,
    enable_drafting: o.enable_drafting ?? opts.enable_drafting,
    enable_memory: o.enable_memory ?? opts.enable_memory,
    enable_tools: o.enable_tools ?? opts.enable_tools,
    allowed_tools: o.allowed_tools !== undefined ? o.allowed_tools : (opts.allowed_tools ?? null),
    blocked_tools: o.blocked_tools !== undefined ? o.blocked_tools : (opts.blocked_tools ?? null),
    max_tool_rounds: o.max_tool_rounds ?? opts.max_tool_rounds,
    max_plan_steps: opts.max_plan_steps,
    tool_timeout_seconds: opts.tool_timeout_seconds,
    strategy_options: mergeStrategyOptions(opts.strategy_options, o.strategy_options),
  }
}

/** The task trimmed and the strategy that will run; throws the 4xx the caller's mistake deserves. */
export function checkRun (app: FastifyInstance, opts: AgentOptions, maxChatLength: number, rawTask: string, strategy: string | undefined): { task: string, strategy: string } {
  const task = rawTask.trim()
  if (task === '') throw new AgentErrors.EMPTY_TASK()
  if (task.length > maxChatLength) throw new AgentErrors.TASK_TOO_LONG(task.length, maxChatLength)
  const registered = app.registry.strategies.names()
  if (registered.length === 0) throw new AgentErrors.NO_STRATEGIES()
  const requested = strategy ?? opts.default_reasoning_strategy ?? app.agentConfig.lookup('preferences.default_reasoning_strategy', undefined, 'auto') ?? 'auto'
  if (requested !== 'auto' && !registered.includes(requested)) {
    throw new AgentErrors.UNKNOWN_STRATEGY(requested, ['auto', ...registered].join(', '))
  }
  return { task, strategy: requested }
}

/** The run a request asks for, every caller's mistake refused before it starts (4xx). */
export function prepareRun (app: FastifyInstance, opts: AgentOptions, body: RunBodyT, maxChatLength: number): { task: string, strategy: string, cfg: RunConfig } {
  const { task, strategy } = checkRun(app, opts, maxChatLength, body.task, body.reasoning_strategy)
  const cfg = runConfig(app, opts, {
    ...(body.model === undefined ? {} : { default_model: body.model }),
    ...(body.tools === undefined ? {} : { allowed_tools: body.tools }),
    ...body.config,
  })
  return { task, strategy, cfg }
}

export function registerRoutes (app: FastifyInstance, opts: AgentOptions, autoRules: readonly AutoRuleT[], tracker: TaskTracker): void {
  // The chat's limit (AGENT_MAX_CHAT_LENGTH) applies to a task as well.
  const maxChatLength = envInt(app.agentConfig.env, 'AGENT_MAX_CHAT_LENGTH', 10_000)
  const runs = concurrencyCap('agent_runs', app.agentConfig.env)
  app.post('/api/agent/run', {
    // A newer client's extra fields (top level and in `config`) are dropped and logged at debug.
    preValidation: ignoreUnknownFields(RunBody),
    preHandler: runs.hook,
    schema: {
      tags: ['agent'],
      summary: 'Full agent mode: plan the task, reason with a strategy, use tools, return the result',
      body: RunBody,
      // No 5xx schema: the error handler's bodies go through the same serializer.
      response: { 200: AgentResultSchema },
    },
  }, async (request, reply) => {
    const body = request.body as RunBodyT
    const prep = prepareRun(app, opts, body, maxChatLength)

    // The client going away cancels the run (and with it the provider call in flight).
    const client = new AbortController()
    const onClose = (): void => { if (!reply.raw.writableFinished) client.abort() }
    reply.raw.once('close', onClose)
    try {
      const result = await runAgent(app, { ...prep, autoRules, autoFallback: opts.auto_fallback, clientSignal: client.signal, tracker, traceContext: requestTrace(request) })
      if (body.include_trace === false) delete result.trace
      result.result = result.answer
      // A provider failure (502/503/504) is the caller's signal to fix a key or a server, and
      // a model the provider does not know (404) to fix the model id: it keeps its HTTP status
      // (DECISIONS.md), and the body is the error body with the partial result beside it, so
      // what was done is not lost.
      const err = result.error
      // The run's own time limit (AGENT_ERR_AGENT_TIMEOUT) is not a provider failure: it stays a 200 `failed`.
      if (result.status === 'failed' && err !== undefined && err.code.startsWith('AGENT_ERR_PROVIDER_') && (err.statusCode === 404 || (err.statusCode >= 502 && err.statusCode <= 504))) {
        const { error: _error, ...partial } = result
        // Typed routes only know their 200 schema; this reply is deliberately outside it.
        const raw = reply as unknown as { code: (n: number) => { send: (b: unknown) => unknown } }
        return raw.code(err.statusCode).send({ ...partial, result: partial.answer, error: err.error, code: err.code, statusCode: err.statusCode })
      }
      return result
    } finally {
      reply.raw.removeListener('close', onClose)
    }
  })
  registerStreamRoute(app, { RunBody, prepare: (body) => prepareRun(app, opts, body, maxChatLength), preHandler: runs.hook, autoRules, autoFallback: opts.auto_fallback, tracker })
}
