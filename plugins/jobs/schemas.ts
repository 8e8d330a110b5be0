// Response shapes of the /api/jobs endpoints, for the OpenAPI document (and checked on the
// way out). Objects stay open: a job's metrics are its own.
import { Type } from '@agentd/sdk/typebox'

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer> | ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()])
const Metrics = Type.Record(Type.String(), Type.Unknown(), { description: 'what the run reported (the job\'s own counts)' })

export const JobSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  status: Type.Union([Type.Literal('idle'), Type.Literal('running'), Type.Literal('disabled')], { description: '`disabled`: disabled and not running' }),
  enabled: Type.Boolean(),
  interval_minutes: Nullable(Type.Number()),
  schedule: Type.Unknown({ description: '{ every_seconds }, { cron, tz? } or null (manual only)' }),
  last_run: Nullable(Type.String()),
  last_success: Nullable(Type.String({ description: 'when the last successful run started' })),
  last_duration_ms: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  run_count: Type.Integer(),
  success_count: Type.Integer(),
  failure_count: Type.Integer(),
  avg_duration_ms: Type.Integer(),
  success_rate: Type.Number({ minimum: 0, maximum: 1, description: 'success_count / run_count; 0 before the first run' }),
}, { additionalProperties: true })

const Worker = {
  id: Type.String(),
  status: Type.String(),
  uptime_seconds: Type.Integer(),
  jobs_run: Type.Integer({ description: 'runs this worker finished' }),
  last_heartbeat: Nullable(Type.String()),
}

export const JobListSchema = Type.Object({
  jobs: Type.Array(JobSchema),
  worker: Type.Object(Worker, { additionalProperties: true, description: 'the process that answered' }),
  workers: Type.Array(Type.Object({ ...Worker, host: Type.String(), pid: Type.Integer(), this_process: Type.Boolean(), started_at: Type.String() }, { additionalProperties: true })),
})

export const JobDetailSchema = Type.Object({
  job: JobSchema,
  history: Type.Array(Type.Object({
    id: Type.String(),
    timestamp: Type.String(),
    duration_ms: Nullable(Type.Integer()),
    success: Type.Union([Type.Boolean(), Type.Null()]),
    items_processed: Type.Number({ description: 'the run\'s own items_processed metric, else 0' }),
    status: Type.Union([Type.Literal('running'), Type.Literal('finished')]),
    trigger: Type.String(),
    slot: Nullable(Type.String()),
    worker: Type.String(),
    metrics: Metrics,
    error: Nullable(Type.String()),
  }, { additionalProperties: true })),
})

export const JobRunSchema = Type.Object({
  success: Type.Boolean(),
  job: Type.String(),
  duration_ms: Type.Integer(),
  metrics: Metrics,
  result: Type.Record(Type.String(), Type.Unknown(), { description: 'the metrics again (the original client\'s name)' }),
  error: Type.Optional(Type.String()),
})

export const ToggleSchema = Type.Object({ job: Type.String(), enabled: Type.Boolean() })
