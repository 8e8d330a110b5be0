// What one agent run returns (POST /api/agent/run), apart from the run itself so that
// what stores or reports a result (memory.ts, routes) does not import the runner.
import type { ErrorBody } from '@agentd/sdk'
import type { PlanStep, TraceStep } from '@agentd/sdk/contracts/strategy'
import type { AgentStatus } from '@agentd/sdk/kits/tasks'

export interface AgentResult {
  task_id: string
  status: AgentStatus
  answer: string
  /** The answer again (the original client reads `result`); set by the route. */
  result?: string
  thinking: string
  has_thinking: boolean
  plan_steps: number
  reasoning_steps: number
  tools_used: string[]
  models_used: string[]
  total_tokens: number
  total_time_ms: number
  /** Extensions: the strategy that ran, the plan, model calls made, and why a run failed. */
  strategy: string
  plan: PlanStep[]
  iterations: number
  error?: ErrorBody
  trace?: TraceStep[]
}
