// Stores a finished run in memory (the task as a user turn, the result as an assistant
// turn) when a memory service is registered. Never fails the run: errors and a slow
// store are reported in the trace and the log, and the run's answer stands.
import type { FastifyInstance } from 'fastify'
import type { AgentResult } from './run.ts'

const STORE_TIMEOUT_MS = 5000

export type StoreOutcome = 'stored' | 'no_memory' | { error: string }

export async function storeRun (app: FastifyInstance, input: { conversationId: string, task: string, result: AgentResult, user_id: string | null }): Promise<StoreOutcome> {
  const memory = app.registry.memory.service.first()
  if (memory === undefined) return 'no_memory'
  const { result } = input
  const base = { kind: 'agent_task', task_id: result.task_id, strategy: result.strategy, ...(input.user_id === null ? {} : { user_id: input.user_id }) }
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      (async () => {
        const user = await memory.storeTurn({ conversation_id: input.conversationId, role: 'user', content: input.task, metadata: base })
        if (!user.stored) throw new Error(user.error ?? 'the memory service did not store the task')
        const assistant = await memory.storeTurn({
          conversation_id: input.conversationId,
          role: 'assistant',
          content: result.answer,
          metadata: { ...base, status: result.status, models_used: result.models_used, tools_used: result.tools_used, total_tokens: result.total_tokens, plan_steps: result.plan_steps },
        })
        if (!assistant.stored) throw new Error(assistant.error ?? 'the memory service did not store the result')
      })(),
      new Promise((_resolve, reject) => { timer = setTimeout(() => { reject(new Error(`no answer within ${STORE_TIMEOUT_MS} ms`)) }, STORE_TIMEOUT_MS) }),
    ])
    return 'stored'
  } catch (err) {
    app.log.warn({ err, task_id: result.task_id }, 'agent: storing the run in memory failed')
    return { error: (err as Error).message }
  } finally {
    clearTimeout(timer)
  }
}
