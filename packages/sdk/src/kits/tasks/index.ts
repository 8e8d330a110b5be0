// The tasks kit: the process-wide active-task tracker behind GET /api/agent/status, shared
// by every plugin that runs tasks (chat, agent) through the resource pool, and the route
// itself, registered once per generation by whichever of them loads first.
export { AGENT_STATUSES, TaskTracker, acquireTaskTracker, shortId, type ActiveTask, type AgentStatus, type TaskHandle } from './tracker.ts'
export { useTaskTracker, StatusResponseSchema } from './status-route.ts'
