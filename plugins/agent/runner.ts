// The agent run as a registry service (contracts/agent-runner.ts): what POST /api/agent/run
// does, for another protocol (A2A's agent-run skill). The same checks, configuration and
// run; the caller's signal stops it as a client disconnect does.
import type { FastifyInstance } from 'fastify'
import { envInt } from '@agentd/sdk'
import type { AgentRunner } from '@agentd/sdk/contracts/agent-runner'
import type { AgentOptions, AutoRuleT } from './options.ts'
import { checkRun, runConfig } from './routes.ts'
import { runAgent } from './run.ts'
import type { TaskTracker } from './tracker.ts'

export function agentRunner (app: FastifyInstance, opts: AgentOptions, autoRules: readonly AutoRuleT[], tracker: TaskTracker): AgentRunner {
  const maxChatLength = envInt(app.agentConfig.env, 'AGENT_MAX_CHAT_LENGTH', 10_000)
  return {
    id: 'agent',
    check: (req) => { checkRun(app, opts, maxChatLength, req.task, req.strategy) },
    run: async (req) => {
      const { task, strategy } = checkRun(app, opts, maxChatLength, req.task, req.strategy)
      const result = await runAgent(app, {
        task,
        strategy,
        cfg: runConfig(app, opts, req.model === undefined ? {} : { default_model: req.model }),
        autoRules,
        autoFallback: opts.auto_fallback,
        clientSignal: req.signal,
        tracker,
      })
      const outcome: Awaited<ReturnType<AgentRunner['run']>> = { task_id: result.task_id, status: result.status, answer: result.answer, strategy: result.strategy, plan: result.plan }
      if (result.error !== undefined) outcome.error = { error: result.error.error, code: result.error.code, statusCode: result.error.statusCode }
      return outcome
    },
  }
}
