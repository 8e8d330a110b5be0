// Runs memory jobs now, for POST /api/memory/consolidate (no scheduler needed): one after
// another in the order asked, each failure reported under its name. Each job plugin wraps
// its job so that a run asked here waits for a scheduled run of the same job (the memory
// kit's `serialized`).
import type { Job, JobContext } from '@agentd/sdk/contracts/job'

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
