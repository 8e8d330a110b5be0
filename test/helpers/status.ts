// GET /api/agent/status read at a moment the test chose (a gate holds the model call or the
// tool), instead of sampling it in a loop and hoping each phase was long enough to be seen.
import type { Started } from './kernel.ts'

export interface ActiveTask { kind: string, status: string, [key: string]: unknown }
export interface StatusBody { status: string, active_tasks: ActiveTask[] }

/** The overall status and the first active task of `kind` (any kind when not given). */
export async function statusNow (s: Started, kind?: string): Promise<{ overall: string, task: ActiveTask | undefined }> {
  const { status, body } = await s.json<StatusBody>('/api/agent/status')
  if (status !== 200) throw new Error(`GET /api/agent/status answered ${status}`)
  return { overall: body.status, task: body.active_tasks.find(x => kind === undefined || x.kind === kind) }
}
