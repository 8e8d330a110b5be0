// Stores a finished run in memory (the task as a user turn, the result as an assistant
// turn) when a memory service is registered. Never fails the run: errors and a slow
// store are reported in the trace and the log, and the run's answer stands. The run waits
// for the store only within its own time limit.
import type { FastifyInstance } from 'fastify'
import type { AgentResult } from './result.ts'
import type { MemoryService } from '@agentd/sdk/contracts/memory-service'
import { TIMED_OUT, within } from '@agentd/sdk'

const STORE_TIMEOUT_MS = 5000

/** `background`: still storing when the caller stopped waiting; a failure then reaches only the log. */
export type StoreOutcome = 'stored' | 'no_memory' | 'background' | { error: string }

/** Stores the run; waits at most `waitMs` (the run's remaining time) for the outcome. */
export async function storeRun (app: FastifyInstance, input: { conversationId: string, task: string, result: AgentResult, user_id: string | null }, waitMs: number): Promise<StoreOutcome> {
  const memory = app.registry.memoryServices.first()
  if (memory === undefined) return 'no_memory'
  const work = store(app, memory, input)
  if (waitMs <= 0) return 'background'
  const outcome = await within(work, waitMs)
  return outcome === TIMED_OUT ? 'background' : outcome
}

async function store (app: FastifyInstance, memory: MemoryService, input: { conversationId: string, task: string, result: AgentResult, user_id: string | null }): Promise<Exclude<StoreOutcome, 'no_memory' | 'background'>> {
  const { result } = input
  const base = { kind: 'agent_task', task_id: result.task_id, strategy: result.strategy, ...(input.user_id === null ? {} : { user_id: input.user_id }) }
  try {
    const outcome = await within((async () => {
      const user = await memory.storeTurn({ conversation_id: input.conversationId, role: 'user', content: input.task, metadata: base })
      if (!user.stored && user.queued !== true) throw new Error(user.error ?? 'the memory service did not store the task')
      const assistant = await memory.storeTurn({
        conversation_id: input.conversationId,
        role: 'assistant',
        content: result.answer,
        metadata: { ...base, status: result.status, models_used: result.models_used, tools_used: result.tools_used, total_tokens: result.total_tokens, plan_steps: result.plan_steps },
      })
      if (!assistant.stored && assistant.queued !== true) throw new Error(assistant.error ?? 'the memory service did not store the result')
    })(), STORE_TIMEOUT_MS)
    if (outcome === TIMED_OUT) throw new Error(`no answer within ${STORE_TIMEOUT_MS} ms`)
    return 'stored'
  } catch (err) {
    app.log.warn({ err, task_id: result.task_id }, 'agent: storing the run in memory failed')
    return { error: (err as Error).message }
  }
}
