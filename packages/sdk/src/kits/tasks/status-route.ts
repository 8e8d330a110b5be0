// GET /api/agent/status (DECISIONS.md): the process-wide active-task tracker and its route,
// shared by the chat and agent plugins. Whichever of them loads first registers the route
// (once per generation), so an agent-only or a chat-only setup has it too:
//
//   const tasks = await useTaskTracker(app)   // in the plugin body, instead of acquireTaskTracker
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { acquireTaskTracker, type TaskTracker } from './tracker.ts'

export const StatusResponseSchema = Type.Object({
  status: Type.String(),
  active_tasks: Type.Array(Type.Object({ task_id: Type.String(), kind: Type.String(), status: Type.String(), started_at: Type.String(), session_id: Type.Optional(Type.String()) })),
  active_sessions: Type.Integer({ description: 'sessions with a request in flight (an agent run, which has no session, counts as one)' }),
})

/** Set on the generation's root instance by the plugin that registered the route. */
const ROUTE_FLAG = 'agentStatusRoute'

export async function useTaskTracker (app: FastifyInstance): Promise<TaskTracker> {
  const tasks = await acquireTaskTracker(app)
  if (!app.hasDecorator(ROUTE_FLAG)) {
    app.decorate(ROUTE_FLAG, true)
    app.get('/api/agent/status', {
      schema: { tags: ['agent'], summary: 'Agent status and the tasks running now (chat and agent runs)', response: { 200: StatusResponseSchema } },
    }, async () => ({ status: tasks.status(), active_tasks: tasks.list(), active_sessions: tasks.activeSessions() }))
  }
  return tasks
}
