// Runs memory jobs now, for POST /api/memory/consolidate (no scheduler needed): one after
// another in the order asked, each serialized with itself (a scheduled run of the same job
// is waited for, never overlapped), each failure reported under its name.
import type { Job, JobContext } from '@agentd/sdk/contracts/job'

/** Wraps a job so that two runs never overlap: a run asked while one is going waits for it. */
export function serialized (job: Job): Job {
  let last: Promise<unknown> = Promise.resolve()
  return {
    name: job.name,
    description: job.description,
    // Read through: a job's schedule may follow a live setting.
    get schedule () { return job.schedule },
    enabledByDefault: job.enabledByDefault,
    timeoutSeconds: job.timeoutSeconds,
    run: async (ctx: JobContext) => {
      const mine = last.catch(() => {}).then(async () => await job.run(ctx))
      last = mine
      return await mine
    },
  }
}

/** `errors`: one line per failed job (`name: message`), [] when none (the original client reads it). */
export interface RunReport { success: boolean, duration_ms: number, results: Record<string, Record<string, unknown>>, errors: string[] }

export async function runJobs (jobs: Job[], ctx: JobContext): Promise<RunReport> {
  const started = performance.now()
  const results: Record<string, Record<string, unknown>> = {}
  const errors: string[] = []
  for (const job of jobs) {
    const t0 = performance.now()
    try {
      results[job.name] = { ...await job.run(ctx), duration_ms: Math.round(performance.now() - t0) }
    } catch (err) {
      errors.push(`${job.name}: ${(err as Error).message}`)
      results[job.name] = { error: (err as Error).message, duration_ms: Math.round(performance.now() - t0) }
    }
  }
  return { success: errors.length === 0, duration_ms: Math.round(performance.now() - started), results, errors }
}
