// The five /api/jobs endpoints (SPEC.md, shapes in DECISIONS.md). `run` and `clear-stuck`
// take no body and ignore one; an empty body with `Content-Type: application/json` is no
// body (the kernel's parsers, DECISIONS.md).
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { Errors } from '@agentd/sdk'
import type { Job } from '@agentd/sdk/contracts/job'
import type { JobEngine } from './engine.ts'
import type { JobCounters, JobState } from './state.ts'
import { JobDetailSchema, JobListSchema, JobRunSchema, ToggleSchema } from './schemas.ts'

const HISTORY = 10

const Name = Type.Object({ job_name: Type.String() })

export interface JobsApi { engine: JobEngine, state: JobState, jobs: () => Job[] }

const ms = (v: number | null | undefined): number | null => v === null || v === undefined ? null : Math.round(v)

/** What a run processed: its own `items_processed` count when it reports one, else 0. */
export function itemsProcessed (metrics: Record<string, unknown>): number {
  const n = metrics.items_processed
  return typeof n === 'number' && Number.isFinite(n) ? n : 0
}

function view (job: Job, engine: JobEngine, c: JobCounters | undefined, running: boolean): Record<string, unknown> {
  const schedule = engine.scheduleOf(job)
  const enabled = c?.enabled ?? job.enabledByDefault ?? true
  const runs = c?.run_count ?? 0
  return {
    name: job.name,
    description: job.description,
    // The original client decides its enable/disable button from `disabled`.
    status: running ? 'running' : enabled ? 'idle' : 'disabled',
    enabled,
    interval_minutes: schedule !== null && 'every_seconds' in schedule ? schedule.every_seconds / 60 : null,
    schedule,
    last_run: c?.last_run ?? null,
    last_success: c?.last_success ?? null,
    last_duration_ms: ms(c?.last_duration_ms),
    last_error: c?.last_error ?? null,
    run_count: runs,
    success_count: c?.success_count ?? 0,
    failure_count: c?.failure_count ?? 0,
    avg_duration_ms: runs === 0 ? 0 : Math.round((c?.total_duration_ms ?? 0) / runs),
    success_rate: runs === 0 ? 0 : Math.round((c?.success_count ?? 0) / runs * 1000) / 1000,
  }
}

/** A database error is the server's state, not the caller's mistake: 503 saying so, never a 500. */
async function db<T> (p: Promise<T>): Promise<T> {
  try { return await p } catch (err) {
    if (typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err
    throw new Errors.UNAVAILABLE(`The jobs database is not reachable (${(err as Error).message}); try again once it is back.`)
  }
}

export async function jobRoutes (app: FastifyInstance, api: JobsApi): Promise<void> {
  await app.register(async scope => {
    const find = (name: string): Job => {
      const job = api.jobs().find(j => j.name === name)
      if (job === undefined) throw new Errors.NOT_FOUND(`No job named "${name}"; jobs: ${api.jobs().map(j => j.name).join(', ') || 'none'}.`)
      return job
    }

    scope.get('/api/jobs', { schema: { tags: ['jobs'], summary: 'Every job, and the workers running them', response: { 200: JobListSchema } } }, async () => {
      const [counters, running, runs] = await db(Promise.all([api.state.counters(), api.state.running(), api.state.workerRuns()]))
      const workers = (api.engine.running ? await db(api.engine.workers()) : []).map(w => ({ ...w, jobs_run: runs.get(w.id) ?? 0 }))
      const me = workers.find(w => w.this_process)
      return {
        jobs: api.jobs().map(j => view(j, api.engine, counters.get(j.name), running.has(j.name))),
        worker: {
          id: api.engine.workerName,
          status: api.engine.running ? 'running' : 'stopped',
          uptime_seconds: api.engine.uptimeSeconds,
          jobs_run: runs.get(api.engine.workerName) ?? 0,
          last_heartbeat: me?.last_heartbeat ?? null,
        },
        workers,
      }
    })

    scope.get('/api/jobs/:job_name', { schema: { tags: ['jobs'], summary: 'A job and its last 10 runs', params: Name, response: { 200: JobDetailSchema } } }, async (request) => {
      const job = find((request.params as { job_name: string }).job_name)
      const [c, history] = await db(Promise.all([api.state.counter(job.name), api.state.history(job.name, HISTORY)]))
      return {
        job: view(job, api.engine, c, history.some(r => r.finished_at === null)),
        history: history.map(r => ({
          id: r.id, timestamp: r.timestamp, duration_ms: ms(r.duration_ms), success: r.success, items_processed: itemsProcessed(r.metrics),
          status: r.finished_at === null ? 'running' : 'finished', trigger: r.trigger, slot: r.slot, worker: r.worker, metrics: r.metrics, error: r.error,
        })),
      }
    })

    // The body, if any, is ignored: a run takes no parameters.
    scope.post('/api/jobs/:job_name/run', { schema: { tags: ['jobs'], summary: 'Run a job now and wait for its result', params: Name, response: { 200: JobRunSchema } } }, async (request) => {
      const job = find((request.params as { job_name: string }).job_name)
      const out = await db(api.engine.runNow(job))
      // `result`: the metrics again, under the original system's name.
      return { success: out.success, job: job.name, duration_ms: Math.round(out.duration_ms), metrics: out.metrics, result: out.metrics, ...(out.error === undefined ? {} : { error: out.error }) }
    })

    scope.post('/api/jobs/:job_name/toggle', {
      schema: { tags: ['jobs'], summary: 'Enable or disable a job (kept across restarts)', params: Name, response: { 200: ToggleSchema } },
    }, async (request) => {
      const job = find((request.params as { job_name: string }).job_name)
      const body = request.body as { enabled?: unknown } | undefined
      if (body === undefined || body === null || typeof body !== 'object' || typeof body.enabled !== 'boolean') {
        throw Object.assign(new Errors.VALIDATION('Send {"enabled": true} or {"enabled": false}.'), { details: [{ path: '/enabled', message: 'must be a boolean' }] })
      }
      await db(api.engine.setEnabled(job, body.enabled))
      return { job: job.name, enabled: body.enabled }
    })

    scope.post('/api/jobs/clear-stuck', {
      schema: {
        tags: ['jobs'],
        summary: 'End runs whose worker died',
        response: { 200: Type.Object({ success: Type.Literal(true), cleared_jobs: Type.Array(Type.String()), cleared_runs: Type.Array(Type.String()), message: Type.String() }) },
      },
    }, async () => {
      const cleared = await db(api.engine.clearStuck())
      const names = [...new Set(cleared.map(r => r.name))]
      return {
        success: true,
        cleared_jobs: names,
        cleared_runs: cleared.map(r => r.id),
        message: cleared.length === 0 ? 'No stuck runs.' : `Cleared ${cleared.length} stuck run(s) of ${names.join(', ')}.`,
      }
    })
  })
}
