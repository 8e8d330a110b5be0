// Background jobs (decay, cleanup, consolidation and the like). A job is a named piece of
// work with a default schedule; the jobs plugin queues it (pg-boss), runs it on one
// process of the cluster at a time, records its history and serves /api/jobs. A job only
// does its work, honours `ctx.signal` and reports metrics.
//
// Registering one, from the plugin that owns the data it works on:
//
//   app.registry.jobs.add('decay', {
//     name: 'decay',
//     description: 'Lowers the salience of memories nobody recalled lately.',
//     schedule: { every_seconds: 3600 },
//     run: async ({ signal }) => { ...; return { entities: 12, facts: 40 } },
//   })
//
// The registry key and `name` must be equal: letters, digits and underscores, starting
// with a letter (it names the pg-boss queue and the URL /api/jobs/{name}).

/**
 * When a job runs by itself:
 * - `{ every_seconds }`: once per slot of that many seconds (slots aligned to the epoch,
 *   on the database's clock), across every process sharing the database;
 * - `{ cron, tz? }`: a 5-field cron expression (minute resolution, pg-boss's cron), in
 *   `tz` (IANA zone, default UTC);
 * - `null`: only when asked (`POST /api/jobs/{name}/run`).
 * A user can override it per job (the jobs plugin's `schedules` option).
 */
import type { TraceContext } from '../kernel/telemetry.ts'

export type JobSchedule = { every_seconds: number } | { cron: string, tz?: string } | null

/** What a run reports: counts and the like (JSON values), shown in the run's history entry and in the `run` answer. */
export type JobMetrics = Record<string, unknown>

export interface JobContext {
  /**
   * Aborted when the run must stop: it outlived `timeoutSeconds`, the server is shutting
   * down or reloading, or the queue lost the run's claim. Stop promptly (check it between
   * batches; pass it to calls that take one); what was done so far may stay done.
   */
  signal: AbortSignal
  /** Why this run happens. */
  trigger: 'schedule' | 'manual'
  log: (msg: string, data?: Record<string, unknown>) => void
  /** The run's trace context (its `job` span) while tracing: give it to model calls (`CompletionRequest.trace`) so their spans are the run's children. */
  trace?: TraceContext
}

export interface Job {
  readonly name: string
  /** One sentence for GET /api/jobs. */
  readonly description: string
  /** Default schedule (see JobSchedule). */
  readonly schedule: JobSchedule
  /** Whether a job nobody toggled yet is enabled; default true. A user's toggle is kept across restarts. */
  readonly enabledByDefault?: boolean
  /**
   * Jobs an endpoint runs together: `memory` = POST /api/memory/consolidate's list (its
   * default runs every loaded one, in the order their plugins load). Unset: none.
   */
  readonly group?: string
  /** How long a run may take before its signal is aborted and it counts as failed; default 900. */
  readonly timeoutSeconds?: number
  /**
   * Does the work; resolves with metrics, rejects (or throws) to record a failure with the
   * error's message. Two runs of one job never overlap, across the whole cluster.
   */
  run: (ctx: JobContext) => Promise<JobMetrics>
}

/**
 * A schedule a plugin sets for jobs by name, from a user's setting (the memory settings
 * job_*_interval of consolidate, promote and entity_linking, each declared by its job's plugin). Read each time the
 * scheduler asks, so a change is live. undefined: no opinion (the job's own schedule).
 * The jobs plugin's `schedules` option still wins.
 */
export interface JobScheduleSource {
  scheduleOf: (jobName: string) => JobSchedule | undefined
}

declare module '../kernel/registry.ts' {
  interface Capabilities { jobs: Job, jobSchedules: JobScheduleSource }
}
