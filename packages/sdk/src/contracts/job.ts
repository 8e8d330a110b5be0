// Background jobs (consolidation and the like). The jobs plugin schedules them; a job
// only does its work and reports metrics.

export interface JobContext {
  signal: AbortSignal
  log: (msg: string, data?: Record<string, unknown>) => void
}

export interface Job {
  readonly name: string
  readonly description: string
  /** Default schedule; 0 means manual only. */
  readonly intervalMinutes: number
  run: (ctx: JobContext) => Promise<Record<string, unknown>>
}

declare module '../kernel/registry.ts' {
  interface Capabilities { jobs: Job }
}
