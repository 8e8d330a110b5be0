// The SDK's AgentExecutor over agentd: every message becomes a task (A2A's task id is the
// agentd task's, listed by GET /api/agent/status while it runs) that goes submitted ->
// working -> completed, its answer streamed as chunks of one artifact as the model writes
// it and then set whole, or failed with the error's sentence. tasks/cancel aborts the
// task's controller: the model call and tool calls in flight stop, and the task ends
// `canceled`.
import { randomUUID } from 'node:crypto'
import { TaskState } from '@a2a-js/sdk'
import { AgentEvent, STATE_HEADERS_KEY, type AgentExecutor, type ExecutionEventBus, type RequestContext, type RequestHeaders } from '@a2a-js/sdk/server'
import type { TaskTracker } from '@agentd/sdk/kits/tasks'
import { agentMessage, answerArtifact, readInput, status } from './parts.ts'
import { SKILL_RUNS, type SkillDeps } from './skills.ts'
import type { A2AState } from './state.ts'

const CREDENTIAL_HEADERS = ['x-api-key', 'authorization'] as const

function credentialsOf (ctx: RequestContext): Record<string, string> {
  const headers = ctx.context.state.get(STATE_HEADERS_KEY) as RequestHeaders | undefined
  const out: Record<string, string> = {}
  for (const name of CREDENTIAL_HEADERS) {
    const v = headers?.[name]
    if (typeof v === 'string') out[name] = v
  }
  return out
}

export class AgentdExecutor implements AgentExecutor {
  constructor (readonly deps: SkillDeps, readonly state: A2AState, readonly tracker: TaskTracker) {}

  async execute (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = ctx
    const message = ctx.userMessage
    const input = readInput(message)
    const controller = new AbortController()
    this.state.running.set(taskId, controller)
    const handle = this.tracker.start('a2a', 'reasoning', taskId, contextId)
    const artifactId = randomUUID()
    let sent = false
    const update = (state: TaskState, text?: string): void => {
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(state, text === undefined ? undefined : agentMessage(taskId, contextId, text)), metadata: undefined }))
    }
    try {
      bus.publish(AgentEvent.task({
        id: taskId,
        contextId,
        status: status(TaskState.TASK_STATE_SUBMITTED),
        artifacts: [],
        history: [...(ctx.task?.history ?? []), message],
        metadata: { skill: input.skill },
      }))
      update(TaskState.TASK_STATE_WORKING)
      const answer = await SKILL_RUNS[input.skill](this.deps, input, {
        contextId,
        signal: controller.signal,
        credentials: credentialsOf(ctx),
        onText: (text) => {
          if (text === '' || controller.signal.aborted) return
          bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact: answerArtifact(artifactId, text), append: sent, lastChunk: false, metadata: undefined }))
          sent = true
        },
      })
      // Cancelled: cancelTask has already ended the task; nothing more is published.
      if (controller.signal.aborted) return
      // The streamed pieces replaced by the whole answer: one text part in the stored task.
      bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact: answerArtifact(artifactId, answer), append: false, lastChunk: true, metadata: undefined }))
      handle.set('complete')
      update(TaskState.TASK_STATE_COMPLETED)
    } catch (err) {
      if (controller.signal.aborted) return
      handle.set('failed')
      update(TaskState.TASK_STATE_FAILED, err instanceof Error ? err.message : String(err))
    } finally {
      this.state.running.delete(taskId)
      handle.end()
    }
  }

  async cancelTask (taskId: string, bus: ExecutionEventBus): Promise<void> {
    const controller = this.state.running.get(taskId)
    const task = await this.state.tasks.load(taskId)
    controller?.abort(new Error('the task was cancelled (tasks/cancel)'))
    const contextId = task?.contextId ?? ''
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_CANCELED, agentMessage(taskId, contextId, 'Cancelled by the client (tasks/cancel).')), metadata: undefined }))
  }
}
