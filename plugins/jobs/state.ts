// What the jobs API reports and what must survive a restart: per job the user's toggle and
// the counters, per run one row (running until it finishes or clear-stuck ends it). In the
// database the memory stores use, beside pg-boss's own schema, so every process of a
// cluster sees the same state. pg-boss keeps the queue; this keeps the story.
import { sql, type Kysely } from 'kysely'
import { ensureSchema, iso, isoOrNull, migrate, num, obj, jsonb, type Migration, type SqlHandle } from '@agentd/sdk/kits/sql'
import type { JobMetrics } from '@agentd/sdk/contracts/job'

const migrations: Migration[] = [
  {
    version: 1,
    name: 'job state (toggle, counters) and runs',
    up: async (db) => {
      // enabled is null until a user toggles the job: the job's own default applies.
      await sql`CREATE TABLE IF NOT EXISTS agentd_jobs (
        name text PRIMARY KEY, enabled boolean,
        run_count integer NOT NULL DEFAULT 0, success_count integer NOT NULL DEFAULT 0,
        failure_count integer NOT NULL DEFAULT 0, last_run timestamptz, last_duration_ms real, last_error text)`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS agentd_job_runs (
        id text PRIMARY KEY, name text NOT NULL, trigger text NOT NULL, worker text NOT NULL,
        slot timestamptz, started_at timestamptz NOT NULL DEFAULT now(), finished_at timestamptz,
        duration_ms real, success boolean, metrics jsonb, error text)`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS agentd_job_runs_name ON agentd_job_runs (name, started_at DESC)`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS agentd_job_runs_open ON agentd_job_runs (name) WHERE finished_at IS NULL`.execute(db)
    },
  },
  {
    version: 2,
    name: 'last success, total duration, runs per worker',
    up: async (db) => {
      await sql`ALTER TABLE agentd_jobs ADD COLUMN IF NOT EXISTS last_success timestamptz`.execute(db)
      await sql`ALTER TABLE agentd_jobs ADD COLUMN IF NOT EXISTS total_duration_ms double precision NOT NULL DEFAULT 0`.execute(db)
      // Counters from before this version: the kept history is all there is to go on.
      await sql`UPDATE agentd_jobs j SET
          last_success = (SELECT max(started_at) FROM agentd_job_runs r WHERE r.name = j.name AND r.success),
          total_duration_ms = j.run_count * COALESCE((SELECT avg(duration_ms) FROM agentd_job_runs r WHERE r.name = j.name AND r.finished_at IS NOT NULL), j.last_duration_ms, 0)`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS agentd_job_workers (worker text PRIMARY KEY, jobs_run integer NOT NULL DEFAULT 0)`.execute(db)
    },
  },
]

export interface JobCounters {
  enabled: boolean | null
  run_count: number
  success_count: number
  failure_count: number
  last_run: string | null
  last_duration_ms: number | null
  last_error: string | null
  /** When the last successful run started. */
  last_success: string | null
  /** Sum of every counted run's duration (for the average). */
  total_duration_ms: number
}

/** One worker (a process running the engine) as GET /api/jobs lists it. */
export interface WorkerInfo {
  id: string
  host: string
  pid: number
  status: 'running' | 'stopped'
  this_process: boolean
  started_at: string
  uptime_seconds: number
  last_heartbeat: string
}

export interface RunRecord {
  id: string
  name: string
  trigger: string
  worker: string
  /** The schedule slot a scheduled run belongs to (pg-boss's throttle slot); null for a manual run. */
  slot: string | null
  timestamp: string
  finished_at: string | null
  duration_ms: number | null
  success: boolean | null
  metrics: JobMetrics
  error: string | null
}

export interface RunOutcome { success: boolean, duration_ms: number, metrics: JobMetrics, error?: string }

type Row = Record<string, unknown>

const EMPTY: JobCounters = { enabled: null, run_count: 0, success_count: 0, failure_count: 0, last_run: null, last_duration_ms: null, last_error: null, last_success: null, total_duration_ms: 0 }

function toRun (r: Row): RunRecord {
  return {
    id: String(r.id), name: String(r.name), trigger: String(r.trigger), worker: String(r.worker), slot: isoOrNull(r.slot),
    timestamp: iso(r.started_at), finished_at: isoOrNull(r.finished_at),
    duration_ms: r.duration_ms === null ? null : num(r.duration_ms),
    success: r.success === null ? null : Boolean(r.success),
    metrics: obj(r.metrics) as JobMetrics, error: r.error === null ? null : String(r.error),
  }
}

export class JobState {
  readonly #db: Kysely<unknown>
  readonly #h: SqlHandle
  readonly #keep: number
  #ready: Promise<void> | undefined

  constructor (h: SqlHandle, keepRuns: number) { this.#h = h; this.#db = h.db; this.#keep = keepRuns }

  /** Creates the tables (again after a failure: a database down at start is set up once it answers). */
  async ready (): Promise<void> {
    this.#ready ??= (async () => {
      await ensureSchema(this.#h)
      await migrate(this.#db, 'jobs', migrations, { vectorType: 'real[]' })
    })()
    this.#ready.catch(() => { this.#ready = undefined })
    await this.#ready
  }

  async counters (): Promise<Map<string, JobCounters>> {
    await this.ready()
    const r = await sql<Row>`SELECT * FROM agentd_jobs`.execute(this.#db)
    return new Map(r.rows.map(row => [String(row.name), {
      enabled: row.enabled === null ? null : Boolean(row.enabled),
      run_count: num(row.run_count), success_count: num(row.success_count), failure_count: num(row.failure_count),
      last_run: isoOrNull(row.last_run), last_duration_ms: row.last_duration_ms === null ? null : num(row.last_duration_ms),
      last_error: row.last_error === null ? null : String(row.last_error),
      last_success: isoOrNull(row.last_success), total_duration_ms: num(row.total_duration_ms),
    }]))
  }

  /** Runs each worker finished (a run cleared by clear-stuck counts for the worker that died). */
  async workerRuns (): Promise<Map<string, number>> {
    await this.ready()
    const r = await sql<Row>`SELECT worker, jobs_run FROM agentd_job_workers`.execute(this.#db)
    return new Map(r.rows.map(row => [String(row.worker), num(row.jobs_run)]))
  }

  async counter (name: string): Promise<JobCounters> { return (await this.counters()).get(name) ?? { ...EMPTY } }

  /** The user's toggle, or null when the job was never toggled. */
  async enabled (name: string): Promise<boolean | null> {
    await this.ready()
    const r = await sql<Row>`SELECT enabled FROM agentd_jobs WHERE name = ${name}`.execute(this.#db)
    const v = r.rows[0]?.enabled
    return v === null || v === undefined ? null : Boolean(v)
  }

  async setEnabled (name: string, enabled: boolean): Promise<void> {
    await this.ready()
    await sql`INSERT INTO agentd_jobs (name, enabled) VALUES (${name}, ${enabled})
      ON CONFLICT (name) DO UPDATE SET enabled = EXCLUDED.enabled`.execute(this.#db)
  }

  /** Names of the jobs with a run in progress (or stuck: its worker died). */
  async running (): Promise<Set<string>> {
    await this.ready()
    const r = await sql<Row>`SELECT DISTINCT name FROM agentd_job_runs WHERE finished_at IS NULL`.execute(this.#db)
    return new Set(r.rows.map(row => String(row.name)))
  }

  async openRuns (): Promise<RunRecord[]> {
    await this.ready()
    const r = await sql<Row>`SELECT * FROM agentd_job_runs WHERE finished_at IS NULL ORDER BY started_at`.execute(this.#db)
    return r.rows.map(toRun)
  }

  async start (run: { id: string, name: string, trigger: string, worker: string, slot: Date | null }): Promise<void> {
    await this.ready()
    await sql`INSERT INTO agentd_job_runs (id, name, trigger, worker, slot) VALUES (${run.id}, ${run.name}, ${run.trigger}, ${run.worker}, ${run.slot})
      ON CONFLICT (id) DO NOTHING`.execute(this.#db)
  }

  /**
   * Closes a run and counts it, in one statement (so atomically). A run already closed
   * (clear-stuck got there first) is left alone and counted once: returns false.
   */
  async finish (id: string, out: RunOutcome): Promise<boolean> {
    await this.ready()
    const ok = out.success ? 1 : 0
    const r = await sql<Row>`WITH closed AS (
        UPDATE agentd_job_runs SET finished_at = now(), duration_ms = ${out.duration_ms},
          success = ${out.success}, metrics = ${jsonb(out.metrics)}::jsonb, error = ${out.error ?? null}
        WHERE id = ${id} AND finished_at IS NULL RETURNING name, started_at, worker),
      by_worker AS (INSERT INTO agentd_job_workers (worker, jobs_run) SELECT worker, 1 FROM closed
        ON CONFLICT (worker) DO UPDATE SET jobs_run = agentd_job_workers.jobs_run + 1)
      INSERT INTO agentd_jobs (name, run_count, success_count, failure_count, last_run, last_duration_ms, last_error, last_success, total_duration_ms)
        SELECT name, 1, ${ok}, ${1 - ok}, started_at, ${out.duration_ms}, ${out.error ?? null}, CASE WHEN ${out.success} THEN started_at END, ${out.duration_ms} FROM closed
      ON CONFLICT (name) DO UPDATE SET run_count = agentd_jobs.run_count + 1,
        success_count = agentd_jobs.success_count + ${ok}, failure_count = agentd_jobs.failure_count + ${1 - ok},
        last_run = EXCLUDED.last_run, last_duration_ms = EXCLUDED.last_duration_ms, last_error = EXCLUDED.last_error,
        last_success = COALESCE(EXCLUDED.last_success, agentd_jobs.last_success),
        total_duration_ms = agentd_jobs.total_duration_ms + EXCLUDED.total_duration_ms
      RETURNING name, run_count`.execute(this.#db)
    const row = r.rows[0]
    if (row === undefined) return false
    // History is for looking back, not an archive: the newest `keep` finished runs per job,
    // trimmed every tenth run (so between `keep` and `keep + 9`).
    if (num(row.run_count) % 10 === 0) {
      await sql`DELETE FROM agentd_job_runs WHERE name = ${row.name} AND finished_at IS NOT NULL AND id NOT IN (
        SELECT id FROM agentd_job_runs WHERE name = ${row.name} AND finished_at IS NOT NULL ORDER BY started_at DESC LIMIT ${this.#keep})`.execute(this.#db)
    }
    return true
  }

  async run (id: string): Promise<RunRecord | undefined> {
    await this.ready()
    const r = await sql<Row>`SELECT * FROM agentd_job_runs WHERE id = ${id}`.execute(this.#db)
    return r.rows[0] === undefined ? undefined : toRun(r.rows[0])
  }

  /** The newest `limit` runs of a job, newest first (a run in progress included). */
  async history (name: string, limit: number): Promise<RunRecord[]> {
    await this.ready()
    const r = await sql<Row>`SELECT * FROM agentd_job_runs WHERE name = ${name} ORDER BY started_at DESC, id DESC LIMIT ${limit}`.execute(this.#db)
    return r.rows.map(toRun)
  }
}
