// Agent runs show in GET /api/agent/status through the process-wide active-task tracker
// shared with the chat plugin (the tasks kit: whichever loads first registers the route).
// This adapter is the only place that knows it.
import type { FastifyInstance } from 'fastify'
import { useTaskTracker, type AgentStatus, type TaskTracker } from '@agentd/sdk/kits/tasks'

export type { AgentStatus, TaskTracker }

export interface TaskHandle {
  set: (status: AgentStatus) => void
  /** The run ended with this status; the task leaves the active list. */
  end: (status: AgentStatus) => void
}

export async function acquireTracker (app: FastifyInstance): Promise<TaskTracker> {
  return await useTaskTracker(app)
}

export function trackTask (tracker: TaskTracker, taskId: string): TaskHandle {
  const handle = tracker.start('agent', 'idle', taskId)
  return { set: (s) => { handle.set(s) }, end: (s) => { handle.set(s); handle.end() } }
}
