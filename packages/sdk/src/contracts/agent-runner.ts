// Full agent runs (plan, strategy, tools) as a service, so a protocol other than
// POST /api/agent/run (A2A's agent-run skill) can start one without the agent plugin's
// files. The agent plugin registers one runner; `check` throws the same 4xx errors the
// route answers (empty or too long a task, an unknown strategy) before any work starts.
import type { PlanStep } from './strategy.ts'

export interface AgentRunRequest {
  task: string
  /** `auto` or a registered strategy; undefined: the configured default. */
  strategy?: string
  /** provider/model for the run; undefined: the configured default. */
  model?: string
  /** Aborting it stops the run (the model call and tool calls in flight). */
  signal: AbortSignal
}

export interface AgentRunOutcome {
  task_id: string
  /** `complete`, `failed` or `cancelled`. */
  status: string
  answer: string
  /** The strategy that ran (what `auto` chose). */
  strategy: string
  plan: PlanStep[]
  /** Why a run failed, as the API's error body. */
  error?: { error: string, code: string, statusCode: number }
}

export interface AgentRunner {
  readonly id: string
  /** Throws the route's 4xx error for a request it would refuse. */
  check: (req: Omit<AgentRunRequest, 'signal'>) => void
  run: (req: AgentRunRequest) => Promise<AgentRunOutcome>
}

declare module '../kernel/registry.ts' {
  interface Capabilities { agentRunners: AgentRunner }
}
