// Reasoning strategies for full agent mode (cot, tot, react, reflection, third parties').
// The agent plugin owns planning, models, tools and tracing; a strategy decides the
// pattern of calls. Refined by the agent-mode work; keep it small.
import type { CompletionRequest, CompletionResult, Message, ToolCall } from './provider.ts'
import type { ToolResult, ToolInfo } from './tool-source.ts'

export interface TraceStep {
  type: string
  content: string
  model?: string
  tokens?: number
  time_ms?: number
  [key: string]: unknown
}

export interface StrategyContext {
  task: string
  /** Plan steps from the planner, in order. */
  plan: Array<{ type: string, description: string }>
  /** Calls the model chosen for a role; counts tokens, models and iterations. */
  complete: (role: 'reasoning' | 'drafting' | 'default', req: Omit<CompletionRequest, 'model'> & { model?: string }) => Promise<CompletionResult>
  tools: ToolInfo[]
  callTool: (call: ToolCall) => Promise<ToolResult>
  trace: (step: TraceStep) => void
  signal: AbortSignal
  /** The conversation so far (system prompt + task), for strategies that chat. */
  messages: Message[]
  options: Record<string, unknown>
}

export interface StrategyResult {
  answer: string
  thinking?: string
  reasoning_steps: number
}

export interface Strategy {
  readonly id: string
  readonly description: string
  run: (ctx: StrategyContext) => Promise<StrategyResult>
}
