// Active-task tracker behind GET /api/agent/status. One tracker per process, held in the
// resource pool, so a chat stream that started on an old generation is still listed
// after a reload, and every plugin that runs tasks (chat, agent) shares it. Plugins get
// it through status-route.ts, which also registers the route:
//
//   import { useTaskTracker } from '@agentd/sdk/kits/tasks'
//   const tasks = await useTaskTracker(app)                // in the plugin body
//   const task = tasks.start('agent', 'planning')          // per request
//   task.set('executing'); ...; task.end()                 // end() in a finally
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'

/** SPEC.md agent / task statuses. */
export const AGENT_STATUSES = ['idle', 'planning', 'reasoning', 'executing', 'complete', 'failed', 'cancelled'] as const
export type AgentStatus = typeof AGENT_STATUSES[number]

export interface ActiveTask {
  task_id: string
  /** What runs: `chat`, `chat_stream`, `agent`. */
  kind: string
  status: AgentStatus
  started_at: string
  /** The chat session the task serves (agent runs have none). */
  session_id?: string
}

export interface TaskHandle {
  readonly task_id: string
  set: (status: AgentStatus) => void
  /** Removes the task; safe to call more than once. */
  end: () => void
}

/** A short id (SPEC.md: task_id is a short UUID). */
export const shortId = (): string => randomUUID().slice(0, 8)

export class TaskTracker {
  readonly #active = new Map<string, ActiveTask>()

  start (kind: string, status: AgentStatus = 'reasoning', taskId: string = shortId(), sessionId?: string): TaskHandle {
    const task: ActiveTask = { task_id: taskId, kind, status, started_at: new Date().toISOString(), ...(sessionId === undefined ? {} : { session_id: sessionId }) }
    this.#active.set(taskId, task)
    return {
      task_id: taskId,
      set: (s) => { if (this.#active.get(taskId) === task) task.status = s },
      end: () => { if (this.#active.get(taskId) === task) this.#active.delete(taskId) },
    }
  }

  list (): ActiveTask[] { return [...this.#active.values()].map(t => ({ ...t })) }

  /** Sessions with a request in flight: distinct session ids; a task without one (an agent run) is a session of its own. */
  activeSessions (): number {
    const seen = new Set<string>()
    for (const t of this.#active.values()) seen.add(t.session_id === undefined ? `task:${t.task_id}` : `session:${t.session_id}`)
    return seen.size
  }

  /** `idle` when nothing runs, else the status of the most recently started task. */
  status (): AgentStatus {
    let last: ActiveTask | undefined
    for (const t of this.#active.values()) last = t
    return last?.status ?? 'idle'
  }
}

/** The process-wide tracker (shared by every generation and by the chat and agent plugins). */
export async function acquireTaskTracker (app: FastifyInstance): Promise<TaskTracker> {
  return await app.resources.acquire({ kind: 'agent-task-tracker', options: {}, create: () => new TaskTracker() })
}
