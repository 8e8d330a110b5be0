// No memory write lost in an outage. A write the chat makes (a turn, a tool call) goes to
// its store at once when it can; when the store cannot be reached (StoreUnavailableError,
// or no answer within write_timeout_ms) it goes to a durable log on disk instead
// (durable-log.ts), and a drainer replays the log, in order, once the store is back.
//
// Order: writes of one key (a conversation) are chained, so one waits for the previous;
// while the log holds anything every new write joins it behind what is there, so nothing
// overtakes a queued write. Once: every write carries its id from the start and the stores
// keep the first write of an id, so a replay of a write whose first attempt did land (its
// reply lost, or a crash before the log entry was taken) is not stored twice.
//
// The outbox is held in the resource pool (one per data folder, kept across reloads); the
// serving generation attaches the function that applies an entry and drains while active.
import type { FastifyBaseLogger } from 'fastify'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import { TIMED_OUT, within } from '@agentd/sdk'
import { DurableLog, type DurableLogOptions, type LogEntry } from './durable-log.ts'

export type { LogEntry }

export type Apply = (entry: LogEntry) => Promise<void>

export type WriteOutcome<T> =
  | { status: 'stored', value: T }
  | { status: 'queued' }
  | { status: 'failed', error: Error }

export interface OutboxStatus {
  status: 'empty' | 'draining' | 'waiting' | 'full'
  pending: number
  bytes: number
  oldest_at: string | null
  max_entries: number
  max_bytes: number
  replayed: number
  last_error?: string
}

export interface OutboxOptions extends DurableLogOptions {
  dir: string
  /** A direct write with no answer within this long is queued (and kept idempotent by its id). */
  writeTimeoutMs: number
  /** Wait between replay attempts while the store is down: from 200 ms doubling up to this. */
  maxRetryMs: number
  /** A replay that fails this many times for another reason than an outage is set aside. */
  maxAttempts: number
}

/** Is this failure the store being away (queue and retry) rather than a bad write? */
export const isOutage = (err: unknown): boolean => err instanceof StoreUnavailableError

export class Outbox {
  readonly #log: DurableLog
  #opts: OutboxOptions
  #logger: FastifyBaseLogger
  readonly #chains = new Map<string, Promise<unknown>>()
  #apply: Apply | undefined
  #draining: Promise<void> | undefined
  #timer: NodeJS.Timeout | undefined
  #wake: (() => void) | undefined
  #closed = false
  #replayed = 0
  #lastError: string | undefined
  #fullLogged = false

  constructor (opts: OutboxOptions, logger: FastifyBaseLogger) {
    this.#opts = opts
    this.#logger = logger
    this.#log = new DurableLog(opts.dir, opts)
    if (this.#log.skipped > 0) logger.warn({ dir: opts.dir, skipped: this.#log.skipped }, 'memory outbox: lines that could not be read were skipped (a write cut short by a crash)')
    if (this.#log.size > 0) logger.info({ pending: this.#log.size }, 'memory outbox: writes from before the restart are waiting to be stored')
  }

  get pending (): number { return this.#log.size }

  /** New bounds and timings (a reload with other options keeps the same outbox and its file). */
  configure (opts: Omit<OutboxOptions, 'dir'>): void {
    this.#opts = { ...opts, dir: this.#opts.dir }
    this.#log.limits = { maxEntries: opts.maxEntries, maxBytes: opts.maxBytes }
  }

  status (): OutboxStatus {
    const oldest = this.#log.oldest
    const s: OutboxStatus = {
      status: this.#log.full ? 'full' : this.#log.size === 0 ? 'empty' : this.#lastError === undefined ? 'draining' : 'waiting',
      pending: this.#log.size,
      bytes: this.#log.bytes,
      oldest_at: oldest?.at ?? null,
      max_entries: this.#opts.maxEntries,
      max_bytes: this.#opts.maxBytes,
      replayed: this.#replayed,
    }
    if (this.#lastError !== undefined && this.#log.size > 0) s.last_error = this.#lastError
    return s
  }

  /**
   * The serving generation's way of storing an entry; the outbox drains while one is attached.
   * `logger` is that generation's.
   */
  attach (apply: Apply, logger: FastifyBaseLogger): void {
    this.#apply = apply
    this.#logger = logger
    this.#kick()
  }

  detach (apply: Apply): void { if (this.#apply === apply) this.#apply = undefined }

  /**
   * Writes through `direct` in order with the other writes of `entry.key`, or queues the entry
   * when the store cannot take it. `direct` and a replay of `entry` must store the same item.
   */
  async write<T> (entry: LogEntry, direct: () => Promise<T>): Promise<WriteOutcome<T>> {
    const prev = this.#chains.get(entry.key) ?? Promise.resolve()
    const next = prev.then(async () => await this.#writeOne(entry, direct))
    this.#chains.set(entry.key, next)
    try {
      return await next
    } finally {
      if (this.#chains.get(entry.key) === next) this.#chains.delete(entry.key)
    }
  }

  async #writeOne<T> (entry: LogEntry, direct: () => Promise<T>): Promise<WriteOutcome<T>> {
    if (this.#log.size > 0) return this.#queue(entry)
    let err: unknown
    try {
      const out = await within(direct(), this.#opts.writeTimeoutMs)
      if (out !== TIMED_OUT) return { status: 'stored', value: out }
      err = new Error(`no answer within ${this.#opts.writeTimeoutMs} ms`)
    } catch (e) {
      if (!isOutage(e)) return { status: 'failed', error: e as Error }
      err = e
    }
    this.#lastError = (err as Error).message
    return this.#queue(entry)
  }

  #queue<T> (entry: LogEntry): WriteOutcome<T> {
    if (!this.#log.append(entry)) {
      if (!this.#fullLogged) {
        this.#fullLogged = true
        this.#logger.error({ pending: this.#log.size, bytes: this.#log.bytes, limits: this.#log.limits }, 'memory outbox: full; memory writes are refused until the store is back and the outbox drains (raise outbox_max_entries / outbox_max_bytes to keep more)')
      }
      return { status: 'failed', error: new Error(`the memory store is unavailable and the outbox is full (${this.#log.size} writes waiting)`) }
    }
    this.#kick()
    return { status: 'queued' }
  }

  /** Starts the drainer, or wakes it from its wait. */
  #kick (): void {
    if (this.#wake !== undefined) { const w = this.#wake; this.#wake = undefined; clearTimeout(this.#timer); w() }
    if (this.#draining !== undefined || this.#closed || this.#apply === undefined || this.#log.size === 0) return
    this.#draining = this.#drain().finally(() => { this.#draining = undefined; if (this.#log.size > 0 && this.#apply !== undefined && !this.#closed) this.#kick() })
  }

  async #drain (): Promise<void> {
    let wait = 200
    let attempts = 0
    const startedWith = this.#log.size
    while (!this.#closed) {
      const apply = this.#apply
      const entry = this.#log.peek()
      if (apply === undefined || entry === undefined) break
      try {
        await apply(entry)
        this.#log.ack()
        this.#replayed++
        this.#lastError = undefined
        this.#fullLogged = false
        wait = 200
        attempts = 0
        if (this.#log.size === 0) this.#logger.info({ replayed: startedWith }, 'memory outbox: drained; every queued write is stored')
        continue
      } catch (err) {
        this.#lastError = (err as Error).message
        if (!isOutage(err) && ++attempts >= this.#opts.maxAttempts) {
          this.#logger.error({ err, kind: entry.kind, key: entry.key }, `memory outbox: a queued write failed ${attempts} times for a reason other than an outage; set aside in outbox.failed.jsonl`)
          this.#log.reject((err as Error).message)
          attempts = 0
          continue
        }
      }
      await this.#sleep(wait)
      wait = Math.min(wait * 2, this.#opts.maxRetryMs)
    }
  }

  async #sleep (ms: number): Promise<void> {
    await new Promise<void>(resolve => {
      this.#wake = resolve
      this.#timer = setTimeout(() => { this.#wake = undefined; resolve() }, ms)
      this.#timer.unref()
    })
  }

  /** Replays what is pending now (tests, and a caller that knows the store is back). */
  async flush (): Promise<void> {
    this.#kick()
    while (this.#draining !== undefined) await this.#draining
  }

  async close (): Promise<void> {
    this.#closed = true
    this.#kick()
    await this.#draining
    await Promise.allSettled([...this.#chains.values()])
    this.#log.close()
  }
}
