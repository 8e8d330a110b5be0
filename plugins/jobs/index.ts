// Plugin: runs every job in the registry (registry.jobs) on its schedule and on demand, on
// pg-boss in the database the memory stores use (PGlite by default, PostgreSQL with
// POSTGRES_URI: same options as memory-sql, so left at their defaults both reach the same
// pooled handle), and serves /api/jobs. The scheduler runs only in the serving generation:
// started by activate(), stopped by deactivate(). State and history are in the database,
// so a restart, a reload or another process of the cluster sees the same jobs.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { SqlOptionsSchema, acquireSql, resolveTarget } from '@agentd/sdk/kits/sql'
import type { Job } from '@agentd/sdk/contracts/job'
import { JOB_NAME, JobEngine } from './engine.ts'
import { JobState } from './state.ts'
import { jobRoutes } from './routes.ts'

const Schedule = Type.Union([
  Type.Object({ every_seconds: Type.Integer({ minimum: 1, maximum: 31 * 86_400 }) }, { additionalProperties: false }),
  Type.Object({ cron: Type.String({ minLength: 9, description: '5-field cron, minute resolution' }), tz: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false }),
  Type.Null({ description: 'manual only' }),
])

export const options = Type.Object({
  ...SqlOptionsSchema.properties,
  poll_seconds: Type.Number({ minimum: 0.5, maximum: 300, default: 10, description: 'on PostgreSQL, how often an idle worker looks for a run queued by another process (a run this process queues, scheduled or asked for, starts at once); on PGlite, where no other process can queue, a queued run wakes its worker in-process and workers look every 5 minutes at most as a safety net' }),
  worker_heartbeat_seconds: Type.Integer({ minimum: 1, maximum: 3600, default: 10, description: 'on PostgreSQL, a worker silent for three of these is dead: clear-stuck may end its runs (on PGlite, any worker but this process is dead: a PGlite folder is open in one process only)' }),
  history_keep: Type.Integer({ minimum: 10, maximum: 100_000, default: 100, description: 'finished runs kept per job' }),
  schedules: Type.Record(Type.String({ pattern: JOB_NAME.source }), Schedule, { default: {}, description: 'per job: a schedule replacing its default ({every_seconds}, {cron, tz}, or null for manual only)' }),
}, { additionalProperties: false })
type Options = Static<typeof options>

async function jobs (app: FastifyInstance, opts: PluginOptions<Options>): Promise<void> {
  const handle = await acquireSql(app, resolveTarget(app, opts))
  const state = new JobState(handle, opts.history_keep)
  await state.ready().catch((err: unknown) => {
    app.log.warn({ backend: handle.label, err: (err as Error).message }, 'jobs: the database is not reachable yet; the scheduler starts when it is (reload) and /api/jobs answers 503 until then')
  })

  // The registry is complete once the generation is ready; read it then, not now.
  let list: Job[] | undefined
  const all = (): Job[] => {
    list ??= app.registry.jobs.entries().flatMap(([key, job]) => {
      if (key === job.name && JOB_NAME.test(job.name)) return [job]
      app.log.warn({ job: key }, `jobs: job "${key}" is skipped: its registry key must equal its name, made of lowercase letters, digits and underscores`)
      return []
    })
    return list
  }
  const engine = new JobEngine(handle, state, all, {
    pollSeconds: opts.poll_seconds,
    heartbeatSeconds: opts.worker_heartbeat_seconds,
    schedules: opts.schedules,
    sources: () => app.registry.jobSchedules.values(),
    log: app.log,
  })
  await jobRoutes(app, { engine, state, jobs: all })

  // Started on activation; when that fails (database unreachable, or another process
  // installing pg-boss's schema at the same moment), tried again after 1, 2, 4... 30 s
  // while this generation serves.
  let active = false
  let retry: NodeJS.Timeout | undefined
  let attempt: Promise<void> = Promise.resolve()
  const start = async (delayMs: number): Promise<void> => {
    try {
      await engine.start()
      app.log.info({ jobs: all().map(j => j.name), worker: engine.workerName }, 'jobs: scheduler running')
    } catch (err) {
      await engine.stop().catch(() => {})
      if (!active) return
      app.log.warn({ err: (err as Error).message, retry_in_ms: delayMs }, 'jobs: the scheduler could not start (database unreachable?); trying again')
      retry = setTimeout(() => { attempt = start(Math.min(delayMs * 2, 30_000)) }, delayMs)
      retry.unref()
    }
  }
  app.lifecycle.add({
    name: `${opts.instance}:scheduler`,
    activate: async () => {
      for (const name of Object.keys(opts.schedules)) {
        if (!all().some(j => j.name === name)) app.log.warn({ job: name }, `jobs: option schedules names "${name}", which no plugin registers`)
      }
      active = true
      attempt = start(1000)
      await attempt
    },
    deactivate: async () => {
      active = false
      clearTimeout(retry)
      await attempt
      await engine.stop()
    },
  })
}

export default fp(jobs, { name: 'jobs', fastify: '5.x' })
