// What the memory job plugins share (consolidate, patterns, promote, entity linking, decay,
// cleanup, audit partitions): finding the memory plugin's support, one run of a job at a
// time, a job's own settings read from the memory settings in force, and a schedule that
// follows a `job_*_interval` setting.
import { Type, type TObject, type Static, type TInteger, type TNumber } from '@agentd/sdk/typebox'
import type { Job, JobContext, JobScheduleSource } from '../../contracts/job.ts'
import type { MemoryJobSupport } from '../../contracts/memory-jobs.ts'
import type { GraphStore } from '../../contracts/memory-stores.ts'
import type { Registry } from '../../kernel/registry.ts'
import { createError } from '../../kernel/errors.ts'
import { defaultsOf, settingsOf } from '../recall/settings.ts'

/** The channel every recall and every list reads beside the active one. */
export const GLOBAL_CHANNEL = '_global'

const NoMemory = createError<[string]>('AGENT_ERR_MEMORY_NOT_CONFIGURED', '%s', 503)

/** The memory plugin's support for jobs, or a 503 that says to enable it. Looked up per run. */
export function memoryJobSupport (registry: Registry, job: string): MemoryJobSupport {
  const found = registry.memoryJobSupport.first()
  if (found === undefined) throw new NoMemory(`The ${job} job needs the memory plugin: enable memory in plugins.json.`)
  return found
}

/** Schema helpers for a job's settings section, so every job words them alike. */
export const JobSetting = {
  /** `job_<name>_interval`: minutes between scheduled runs. */
  interval: (dflt: number, job: string): TInteger => Type.Integer({ minimum: 1, maximum: 1440, default: dflt, description: `minutes between scheduled runs of the ${job} job (the jobs plugin's \`schedules\` option, when it names the job, wins)` }),
  /** A threshold or weight between 0 and 1. */
  fraction: (dflt: number, description: string): TNumber => Type.Number({ minimum: 0, maximum: 1, default: dflt, description }),
}

/** The graph store (the first registered, as the memory plugin and recall use), or a 503 that says to enable one. */
export function graphStoreFor (registry: Registry, job: string): GraphStore {
  const found = registry.graphStores.first()
  if (found === undefined) throw new NoMemory(`The ${job} job needs a graph memory store: enable memory-graph-sql (or memory-graph-neo4j) in plugins.json.`)
  return found
}

/** A job's own keys from the memory settings in force: typed, with its defaults where a value is missing or invalid. */
export function sectionValues<T extends TObject> (schema: T, all: Readonly<Record<string, unknown>>): Static<T> {
  return settingsOf(schema, all)
}

/**
 * A schedule from a `job_<name>_interval` setting (minutes), read each time the scheduler
 * asks. At its default it gives no opinion, so the job's own schedule (its plugin's
 * options) stands; the jobs plugin's `schedules` option wins over both.
 */
export function intervalSetting (jobName: string, schema: TObject, key: string, settings: () => Readonly<Record<string, unknown>> | undefined): JobScheduleSource {
  const dflt = defaultsOf(schema)[key]
  return {
    scheduleOf: (name) => {
      if (name !== jobName) return undefined
      const minutes = settings()?.[key]
      return typeof minutes !== 'number' || minutes === dflt ? undefined : { every_seconds: minutes * 60 }
    },
  }
}

/**
 * Wraps a job so that two runs never overlap in this process: a run asked while one is
 * going (POST /api/memory/consolidate beside a scheduled run) waits for it.
 */
export function serialized (job: Job): Job {
  let last: Promise<unknown> = Promise.resolve()
  return {
    name: job.name,
    description: job.description,
    // Read through: a job's schedule may follow a live setting.
    get schedule () { return job.schedule },
    enabledByDefault: job.enabledByDefault,
    timeoutSeconds: job.timeoutSeconds,
    group: job.group,
    run: async (ctx: JobContext) => {
      const mine = last.catch(() => {}).then(async () => await job.run(ctx))
      last = mine
      return await mine
    },
  }
}
