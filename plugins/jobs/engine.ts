// The scheduler (pg-boss itself: boss.ts): pg-boss on the memory stores' database (the one PGlite instance, or the
// PostgreSQL pool). One pg-boss queue per job, policy `exclusive` (at most one run queued
// or active, cluster-wide: two runs of a job never overlap), no retries. Schedules:
// - every N seconds: pg-boss's throttled send files at most one job per N-second slot of
//   the database clock (a unique index), so however many processes ask, a slot runs once.
//   Each process asks twice per slot, so a slot is not lost when one process stops;
// - cron: pg-boss's own schedule (its timekeeper claims each minute once per cluster).
// A generation's engine is started by its activate() and stopped by its deactivate(), so
// two generations never both poll the queues.
import { EventEmitter } from 'node:events'
import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { PgBoss } from 'pg-boss'
import { bossSchema, newBoss, EMBEDDED_BACKSTOP_POLL_SECONDS } from './boss.ts'
import type { FastifyBaseLogger } from 'fastify'
import { Errors, createError, raceAbort, inSpan } from '@agentd/sdk'
import type { SqlHandle } from '@agentd/sdk/kits/sql'
import type { Job, JobMetrics, JobSchedule, JobScheduleSource } from '@agentd/sdk/contracts/job'
import type { JobState, RunOutcome, RunRecord, WorkerInfo } from './state.ts'

export const JOB_NAME = /^[a-z][a-z0-9_]{0,62}$/
export const queueName = (job: string): string => `agentd.job.${job}`

const WAIT_TIMEOUT = createError<[string, number]>('AGENT_ERR_JOB_WAIT_TIMEOUT', 'Job "%s" is still running after %d s; its result will be in GET /api/jobs/{name} when it ends.', 504)

export interface EngineOptions {
  /** How often an idle worker asks for a run queued by another process. */
  pollSeconds: number
  /** Instance heartbeat: a worker not heard from for three of these is dead (clear-stuck). */
  heartbeatSeconds: number
  /** Per-job schedule overrides (the plugin's `schedules` option). */
  schedules: Record<string, JobSchedule>
  /** Schedules other plugins set from users' settings (registry.jobSchedules), below the option. */
  sources?: () => JobScheduleSource[]
  log: FastifyBaseLogger
}


/** A schedule's first ask waits at least this long after start (or a tenth of its slot, if less: see #askEachSlot). */
const FIRST_ASK_MS = 30_000

const sleep = async (ms: number): Promise<void> => { await new Promise(resolve => setTimeout(resolve, ms)) }
const message = (err: unknown): string => err instanceof Error ? err.message : String(err)

export class JobEngine {
  readonly #h: SqlHandle
  readonly #state: JobState
  readonly #jobs: () => Job[]
  readonly #opts: EngineOptions
  /** This process's name in pg-boss's instance registry, recorded on every run it takes. */
  readonly workerName = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`
  #boss: PgBoss | undefined
  #startedAt = 0
  readonly #workerIds = new Map<string, string>()
  readonly #timers = new Set<NodeJS.Timeout>()
  /** The toggles as last read, for the slot asks (the run itself reads the database). */
  readonly #enabled = new Map<string, { value: boolean, at: number }>()
  /** Runs in progress here: pg-boss job id -> how to stop it. */
  readonly #local = new Map<string, AbortController>()
  readonly #finished = new EventEmitter()

  constructor (h: SqlHandle, state: JobState, jobs: () => Job[], opts: EngineOptions) {
    this.#h = h; this.#state = state; this.#jobs = jobs; this.#opts = opts
    this.#finished.setMaxListeners(0)
  }

  get running (): boolean { return this.#boss !== undefined }
  get uptimeSeconds (): number { return this.#boss === undefined ? 0 : Math.round((Date.now() - this.#startedAt) / 1000) }

  scheduleOf (job: Job): JobSchedule {
    if (Object.hasOwn(this.#opts.schedules, job.name)) return this.#opts.schedules[job.name]
    for (const source of this.#opts.sources?.() ?? []) {
      const s = source.scheduleOf(job.name)
      if (s !== undefined) return s
    }
    return job.schedule
  }

  async isEnabled (job: Job): Promise<boolean> {
    return (await this.#state.enabled(job.name)) ?? job.enabledByDefault ?? true
  }

  /** isEnabled, read at most every 5 s: a toggle on another process reaches the asks within that (a run queued meanwhile is skipped). */
  async #enabledCached (job: Job): Promise<boolean> {
    const c = this.#enabled.get(job.name)
    if (c !== undefined && Date.now() - c.at < 5000) return c.value
    const value = await this.isEnabled(job)
    this.#enabled.set(job.name, { value, at: Date.now() })
    return value
  }

  #timeout (job: Job): number { return job.timeoutSeconds ?? 900 }

  async start (): Promise<void> {
    const h = this.#h
    const common = {
      schema: bossSchema(h.schema),
      instanceName: this.workerName,
      instanceHeartbeatSeconds: this.#opts.heartbeatSeconds,
      // Nobody reads pg-boss's spans here; its warnings go to our log below.
      openTelemetry: { enabled: false },
      // pg-boss's cron pass (a poller of its own) only where a cron job is configured.
      schedule: this.#jobs().some(j => { const s = this.scheduleOf(j); return s !== null && 'cron' in s }),
    }
    const boss = newBoss(h, common)
    boss.on('error', err => { this.#opts.log.warn({ err: message(err) }, 'jobs: pg-boss reported an error') })
    boss.on('warning', w => { this.#opts.log.warn({ warning: w }, 'jobs: pg-boss warning') })
    try {
      await this.#state.ready()
      await boss.start()
    } catch (err) {
      await boss.stop({ graceful: false, close: true }).catch(() => {})
      throw err
    }
    this.#boss = boss
    this.#startedAt = Date.now()
    for (const job of this.#jobs()) {
      try { await this.#startJob(boss, job) } catch (err) {
        this.#opts.log.warn({ job: job.name, err: message(err) }, 'jobs: could not set this job up; it does not run on this process')
      }
    }
  }

  async #startJob (boss: PgBoss, job: Job): Promise<void> {
    const q = queueName(job.name)
    const embedded = this.#h.backend === 'pglite'
    // On PGlite a queued run wakes its worker in-process (NOTIFY), so the poll is only a backstop.
    const queue = { retryLimit: 0, expireInSeconds: this.#timeout(job) + 60, notify: embedded }
    await boss.createQueue(q, { policy: 'exclusive', ...queue })
    await boss.updateQueue(q, queue)
    const poll = { pollingIntervalSeconds: this.#opts.pollSeconds, ...(embedded ? { notifyPollingIntervalSeconds: Math.max(this.#opts.pollSeconds, EMBEDDED_BACKSTOP_POLL_SECONDS) } : {}) }
    this.#workerIds.set(job.name, await boss.work(q, { ...poll, batchSize: 1, includeMetadata: true }, async ([pj]) => await this.#handle(job, pj)))
    await this.#applySchedule(boss, job)
    const sched = this.scheduleOf(job)
    if (sched !== null && 'every_seconds' in sched) this.#askEachSlot(boss, job, sched.every_seconds)
  }

  /**
   * Asks for a slot's run at 10% into the slot (local clock; pg-boss files it by the
   * database's) and, unless that ask queued it, again at 60%: the second ask catches a slot
   * whose first ask was refused because the previous run was still going. Every process
   * asks; the slot index lets one in.
   */
  #askEachSlot (boss: PgBoss, job: Job, first: number): void {
    let every = first
    let queued = false
    // The schedule is read again before each ask: a job's may follow a live setting (the
    // memory plugin's job intervals). A new length starts with the next slot.
    const current = (): number | undefined => {
      const sched = this.scheduleOf(job)
      if (sched === null || !('every_seconds' in sched)) return undefined
      if (sched.every_seconds !== every) { every = sched.every_seconds; queued = false }
      return every * 1000
    }
    const untilNextAsk = (slotMs: number): number => {
      const into = Date.now() % slotMs
      return into < slotMs * 0.1 ? slotMs * 0.1 - into : into < slotMs * 0.6 && !queued ? slotMs * 0.6 - into : slotMs * 1.1 - into
    }
    const after = (ms: number): void => {
      if (this.#boss !== boss) return
      // Long slots are asked about at least every 15 minutes, so a clock jump costs at most that.
      const timer = setTimeout(() => { this.#timers.delete(timer); void ask() }, Math.min(ms, 900_000))
      timer.unref()
      this.#timers.add(timer)
    }
    const ask = async (): Promise<void> => {
      queued = await this.#tick(boss, job, every)
      if (this.#boss !== boss) return
      const slotMs = current()
      if (slotMs !== undefined) after(untilNextAsk(slotMs))
    }
    // The first ask is at the slot's next ask time too, and not before a tenth of the slot
    // (at most FIRST_ASK_MS) has passed: a start runs no job (a run due is asked for at 60%
    // of this slot, or 10% of the next), so it does not compete with the start itself.
    const slotMs = current()
    if (slotMs !== undefined) after(Math.max(untilNextAsk(slotMs), Math.min(FIRST_ASK_MS, slotMs * 0.1)))
  }

  /** A cron job is scheduled in pg-boss while enabled and unscheduled while not. */
  async #applySchedule (boss: PgBoss, job: Job): Promise<void> {
    const q = queueName(job.name)
    const sched = this.scheduleOf(job)
    if (sched !== null && 'cron' in sched && await this.isEnabled(job)) {
      await boss.schedule(q, sched.cron, { trigger: 'schedule' }, { tz: sched.tz ?? 'UTC' })
    } else {
      await boss.unschedule(q)
    }
  }

  /** True when this ask queued the slot's run. */
  async #tick (boss: PgBoss, job: Job, every: number): Promise<boolean> {
    if (this.#boss !== boss) return false
    try {
      if (!await this.#enabledCached(job)) return false
      const id = await boss.sendThrottled(queueName(job.name), { trigger: 'schedule' }, null, every)
      // The run this process queued starts here at once; polling is for runs queued elsewhere.
      const wid = this.#workerIds.get(job.name)
      if (id !== null && wid !== undefined) boss.notifyWorker(wid)
      return id !== null
    } catch (err) {
      this.#opts.log.warn({ job: job.name, err: message(err) }, 'jobs: could not queue a scheduled run; the next ask tries again')
      return false
    }
  }

  async #handle (job: Job, pj: { id: string, data: unknown, signal: AbortSignal, singletonOn: Date | null }): Promise<JobMetrics> {
    const trigger = (pj.data as { trigger?: string } | null)?.trigger === 'manual' ? 'manual' : 'schedule'
    // A run queued before the user disabled the job does not happen.
    if (trigger === 'schedule' && !await this.#enabledCached(job)) return { skipped: 'disabled' }
    await this.#state.start({ id: pj.id, name: job.name, trigger, worker: this.workerName, slot: trigger === 'schedule' ? pj.singletonOn : null })
    const stop = new AbortController()
    this.#local.set(pj.id, stop)
    const signal = AbortSignal.any([stop.signal, pj.signal, AbortSignal.timeout(this.#timeout(job) * 1000)])
    const log = (msg: string, data?: Record<string, unknown>): void => { this.#opts.log.info({ job: job.name, ...data }, `job ${job.name}: ${msg}`) }
    const t0 = performance.now()
    let out: RunOutcome
    try {
      const metrics = await inSpan(`job ${job.name}`, { 'agentd.job.name': job.name, 'agentd.job.trigger': trigger }, async (_span, trace) => await raceAbort(Promise.resolve().then(async () => await job.run({ signal, trigger, log, trace })), signal))
      out = { success: true, duration_ms: performance.now() - t0, metrics: metrics ?? {} }
    } catch (err) {
      const reason = signal.aborted ? `aborted: ${message(signal.reason)}` : message(err)
      out = { success: false, duration_ms: performance.now() - t0, metrics: {}, error: reason }
    } finally {
      this.#local.delete(pj.id)
    }
    try { await this.#state.finish(pj.id, out) } catch (err) {
      this.#opts.log.warn({ job: job.name, err: message(err) }, 'jobs: could not record a finished run')
    }
    this.#finished.emit(pj.id)
    if (!out.success) throw new Error(out.error)
    return out.metrics
  }

  #boss0 (): PgBoss {
    if (this.#boss === undefined) throw new Errors.UNAVAILABLE('The job scheduler is not running on this server (it is starting, stopping, or its database is unreachable); try again shortly.')
    return this.#boss
  }

  /** Queues a run now and waits for its outcome, wherever in the cluster it runs. */
  async runNow (job: Job): Promise<RunOutcome> {
    const boss = this.#boss0()
    const q = queueName(job.name)
    const id = await boss.send(q, { trigger: 'manual' })
    if (id === null) throw new Errors.CONFLICT(`Job "${job.name}" is already running (or a scheduled run of it is about to start); wait for it to finish, see GET /api/jobs/${job.name}.`)
    const wid = this.#workerIds.get(job.name)
    if (wid !== undefined) boss.notifyWorker(wid)
    const deadline = Date.now() + (this.#timeout(job) + 30) * 1000
    for (let i = 0; ; i++) {
      const run = await this.#state.run(id)
      if (run?.finished_at != null) {
        await this.#settled(boss, q, id)
        return { success: run.success === true, duration_ms: run.duration_ms ?? 0, metrics: run.metrics, ...(run.error === null ? {} : { error: run.error }) }
      }
      if (Date.now() > deadline) throw new WAIT_TIMEOUT(job.name, Math.round(this.#timeout(job) + 30))
      if (run === undefined && i % 8 === 7) {
        // The run never started (it failed before it could be recorded, or was cancelled).
        const pjob = await boss.getJobById(q, id)
        if (pjob !== null && ['completed', 'failed', 'cancelled'].includes(pjob.state) && await this.#state.run(id) === undefined) {
          return { success: false, duration_ms: 0, metrics: {}, error: `the run did not start (${pjob.state}): ${JSON.stringify(pjob.output ?? {})}` }
        }
      }
      // Woken at once when it ran here; polled when another process took it.
      await Promise.race([new Promise<void>(resolve => { this.#finished.once(id, resolve) }), sleep(250)])
      this.#finished.removeAllListeners(id)
    }
  }

  /**
   * Waits (briefly) for pg-boss to mark the job done: the run is recorded just before the
   * handler returns, and until pg-boss completes it the exclusive queue would refuse the
   * next run, so a caller running a job twice in a row would get a 409.
   */
  async #settled (boss: PgBoss, q: string, id: string): Promise<void> {
    const deadline = Date.now() + 5000
    while (Date.now() < deadline) {
      const j = await boss.getJobById(q, id)
      if (j === null || !['created', 'retry', 'active'].includes(j.state)) return
      await sleep(20)
    }
  }

  async setEnabled (job: Job, enabled: boolean): Promise<void> {
    await this.#state.setEnabled(job.name, enabled)
    this.#enabled.delete(job.name)
    if (this.#boss !== undefined) await this.#applySchedule(this.#boss, job)
  }

  /** Every pg-boss instance on this database that is alive (heartbeat within three periods). */
  async workers (): Promise<WorkerInfo[]> {
    const boss = this.#boss0()
    const now = Date.now()
    if (this.#h.backend === 'pglite') return [this.#self(now)]
    return (await boss.getInstances()).filter(i => i.live).map(i => ({
      id: i.name ?? i.id,
      host: i.host,
      pid: i.pid,
      status: 'running' as const,
      this_process: i.name === this.workerName,
      started_at: new Date(i.startedOn).toISOString(),
      uptime_seconds: Math.round((now - new Date(i.startedOn).getTime()) / 1000),
      last_heartbeat: new Date(i.heartbeatOn).toISOString(),
    }))
  }

  /** This process as a worker, on PGlite, where it is the only one (answering, so alive). */
  #self (now: number): WorkerInfo {
    return {
      id: this.workerName,
      host: hostname(),
      pid: process.pid,
      status: 'running',
      this_process: true,
      started_at: new Date(this.#startedAt).toISOString(),
      uptime_seconds: Math.round((now - this.#startedAt) / 1000),
      last_heartbeat: new Date(now).toISOString(),
    }
  }

  /**
   * Ends the runs whose worker is gone (a process killed mid-run: its run stays `running`
   * until this), as failures, and fails their pg-boss jobs so the queue takes the next run.
   */
  async clearStuck (): Promise<RunRecord[]> {
    const boss = this.#boss0()
    // On PGlite every other worker is a previous process (or generation) on this folder: gone.
    const live = new Set(this.#h.backend === 'pglite' ? [] : (await boss.getInstances()).filter(i => i.live).map(i => i.name))
    const stuck = (await this.#state.openRuns()).filter(r => r.worker === this.workerName ? !this.#local.has(r.id) : !live.has(r.worker))
    const cleared: RunRecord[] = []
    for (const r of stuck) {
      const error = `cleared by clear-stuck: worker ${r.worker} stopped during the run`
      if (await this.#state.finish(r.id, { success: false, duration_ms: Date.now() - Date.parse(r.timestamp), metrics: {}, error })) cleared.push(r)
      await boss.fail(queueName(r.name), r.id, { error }).catch(() => {})
    }
    return cleared
  }

  /** Stops polling and ticking; runs in progress here are aborted and recorded as failed. */
  async stop (): Promise<void> {
    const boss = this.#boss
    if (boss === undefined) return
    this.#boss = undefined
    for (const t of this.#timers) clearTimeout(t)
    this.#timers.clear()
    for (const ac of this.#local.values()) ac.abort(new Error('the server is stopping or reloading'))
    // The handlers settle right after the abort (they race it); stop() then finds no work in hand.
    await boss.stop({ graceful: true, close: true, timeout: 8000 })
    this.#workerIds.clear()
  }
}

