// Error codes of the agent plugin. Request errors are answered as HTTP errors; errors
// during a run end the run as `failed` (or `cancelled`) and are reported in its result.
import { createError } from '@agentd/sdk'

export const AgentErrors = {
  EMPTY_TASK: createError('AGENT_ERR_AGENT_EMPTY_TASK', 'The "task" field is empty; send the task to carry out as a non-empty string.', 400),
  TASK_TOO_LONG: createError<[number, number]>('AGENT_ERR_AGENT_TASK_TOO_LONG', 'The task is %d characters long; the limit is %d (AGENT_MAX_CHAT_LENGTH).', 413),
  UNKNOWN_STRATEGY: createError<[string, string]>('AGENT_ERR_AGENT_UNKNOWN_STRATEGY', 'Unknown reasoning_strategy "%s"; registered: %s.', 400),
  NO_STRATEGIES: createError('AGENT_ERR_AGENT_NO_STRATEGIES', 'No reasoning strategy is loaded; enable strategy-cot (or another strategy plugin) in plugins.json.', 503),
  NO_PROVIDER: createError<[string]>('AGENT_ERR_AGENT_NO_PROVIDER', '%s', 503),
  /** The run used every model call max_iterations allows. */
  ITERATIONS: createError<[number]>('AGENT_ERR_AGENT_MAX_ITERATIONS', 'The run reached max_iterations (%d model calls) before finishing; raise max_iterations or simplify the task.', 422),
  /** The run did not finish within timeout_seconds. */
  TIMEOUT: createError<[number]>('AGENT_ERR_AGENT_TIMEOUT', 'The run did not finish within timeout_seconds (%d s); raise timeout_seconds or simplify the task.', 504),
  /** The client went away; the run stopped. */
  CANCELLED: createError('AGENT_ERR_AGENT_CANCELLED', 'The run was cancelled because the client disconnected.', 499),
  /** A strategy returned something that is not a StrategyResult. */
  BAD_STRATEGY_RESULT: createError<[string]>('AGENT_ERR_AGENT_BAD_STRATEGY_RESULT', 'Strategy "%s" returned no answer string; fix the strategy plugin.', 502),
} as const

/** Errors that end the whole run instead of being recovered from (planner fallback, tool error). */
export function isRunStop (err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code
  return code === 'AGENT_ERR_AGENT_MAX_ITERATIONS' || code === 'AGENT_ERR_AGENT_TIMEOUT' || code === 'AGENT_ERR_AGENT_CANCELLED'
}
