// The key-value store on Redis (ioredis). Every key carries the namespace prefix; values
// are JSON. A sliding TTL needs the original TTL, so it rides along: in the value
// envelope for plain keys, in a side key for lists. Commands fail fast while Redis is
// down (no offline queue) and ioredis reconnects by itself when it is back.
import { Redis } from 'ioredis'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { KvStore, StoreHealth } from '@agentd/sdk/contracts/memory-stores'

interface Envelope { v: unknown, t?: number }

export interface RedisKvOptions {
  uri: string
  namespace: string
  maxListLength: number
  connectTimeoutMs: number
  /** Where a corrupt value (not our JSON) is reported. */
  log?: { warn: (obj: object, msg: string) => void }
}

/** Glob characters taken literally by SCAN MATCH. */
const globEscape = (s: string): string => s.replace(/[*?[\]\\]/g, m => `\\${m}`)

export class RedisKvStore implements KvStore {
  readonly backend = 'redis'
  readonly client: Redis
  readonly #ns: string
  readonly #maxList: number
  readonly #log: RedisKvOptions['log']
  /** Settles once the first connection attempt ends (ready, error or timeout). */
  readonly #firstAttempt: Promise<void>

  constructor (opts: RedisKvOptions) {
    this.#ns = opts.namespace
    this.#maxList = opts.maxListLength
    this.#log = opts.log
    this.client = new Redis(opts.uri, {
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: opts.connectTimeoutMs,
      // Keep trying forever, backing off to 2 s: the store comes back on its own.
      retryStrategy: times => Math.min(times * 100, 2000),
    })
    // Without a listener an unreachable server would be an unhandled 'error' event.
    this.client.on('error', () => {})
    // Commands issued while the very first connection is still being made would fail
    // (no offline queue), which right after start is a race, not an outage: they wait
    // for that first attempt, bounded by the connect timeout. Later outages fail fast.
    this.#firstAttempt = new Promise(resolve => {
      const done = (): void => { clearTimeout(timer); this.client.off('ready', done); this.client.off('error', done); resolve() }
      const timer = setTimeout(done, opts.connectTimeoutMs)
      timer.unref()
      this.client.once('ready', done)
      this.client.once('error', done)
    })
  }

  #k (key: string): string { return this.#ns + key }

  /**
   * A value someone else wrote under our namespace (or a torn write) is not an outage:
   * it reads as missing and is reported, instead of failing the call as "store unavailable".
   */
  #parse (key: string, raw: string): { ok: true, value: unknown } | { ok: false } {
    try {
      return { ok: true, value: JSON.parse(raw) }
    } catch (err) {
      this.#log?.warn({ key: this.#k(key), err: (err as Error).message }, 'memory-redis: a stored value is not valid JSON; treated as missing')
      return { ok: false }
    }
  }

  async #do<T> (fn: () => Promise<T>): Promise<T> {
    try {
      await this.#firstAttempt
      return await fn()
    } catch (err) {
      throw new StoreUnavailableError('kv', this.backend, err)
    }
  }

  async get<T = unknown> (key: string, opts: { slide?: boolean } = {}): Promise<T | undefined> {
    const raw = await this.#do(async () => await this.client.get(this.#k(key)))
    if (raw === null) return undefined
    const parsed = this.#parse(key, raw)
    if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || !('v' in parsed.value)) {
      if (parsed.ok) this.#log?.warn({ key: this.#k(key) }, 'memory-redis: a stored value is not in agentd\'s format; treated as missing')
      return undefined
    }
    const env = parsed.value as Envelope
    if (opts.slide === true && typeof env.t === 'number') await this.#do(async () => await this.client.expire(this.#k(key), env.t as number))
    return env.v as T
  }

  async set (key: string, value: unknown, opts: { ttlSeconds?: number } = {}): Promise<void> {
    await this.#do(async () => {
      const env: Envelope = { v: value, ...(opts.ttlSeconds === undefined ? {} : { t: Math.ceil(opts.ttlSeconds) }) }
      if (env.t === undefined) await this.client.set(this.#k(key), JSON.stringify(env))
      else await this.client.set(this.#k(key), JSON.stringify(env), 'EX', env.t)
    })
  }

  async delete (key: string): Promise<boolean> {
    return await this.#do(async () => (await this.client.del(this.#k(key), `${this.#k(key)}\u0000ttl`)) > 0)
  }

  async deletePrefix (prefix: string): Promise<number> {
    return await this.#do(async () => {
      let cursor = '0'
      let n = 0
      const match = `${globEscape(this.#k(prefix))}*`
      do {
        const [next, keys] = await this.client.scan(cursor, 'MATCH', match, 'COUNT', 500)
        cursor = next
        const data = keys.filter(k => !k.endsWith('\u0000ttl'))
        if (keys.length > 0) await this.client.unlink(...keys)
        n += data.length
      } while (cursor !== '0')
      return n
    })
  }

  async pushList (key: string, value: unknown, opts: { max?: number, ttlSeconds?: number } = {}): Promise<void> {
    await this.#do(async () => {
      const k = this.#k(key)
      const max = Math.min(opts.max ?? this.#maxList, this.#maxList)
      const m = this.client.multi().rpush(k, JSON.stringify(value)).ltrim(k, -max, -1)
      if (opts.ttlSeconds !== undefined) {
        const ttl = Math.ceil(opts.ttlSeconds)
        m.expire(k, ttl).set(`${k}\u0000ttl`, String(ttl), 'EX', ttl)
      }
      const res = await m.exec()
      const failed = res?.find(([err]) => err !== null)
      if (failed !== undefined) throw failed[0] as Error
    })
  }

  async getList<T = unknown> (key: string, opts: { slide?: boolean } = {}): Promise<T[]> {
    const items = await this.#do(async () => {
      const k = this.#k(key)
      const items = await this.client.lrange(k, 0, -1)
      if (opts.slide === true && items.length > 0) {
        const ttl = await this.client.get(`${k}\u0000ttl`)
        if (ttl !== null) await this.client.multi().expire(k, Number(ttl)).expire(`${k}\u0000ttl`, Number(ttl)).exec()
      }
      return items
    })
    const out: T[] = []
    for (const i of items) {
      const p = this.#parse(key, i)
      if (p.ok) out.push(p.value as T)
    }
    return out
  }

  async entries<T = unknown> (prefix: string): Promise<Array<{ key: string, value: T }>> {
    const found = await this.#do(async () => {
      // SCAN may return a key more than once: the map keeps one.
      const pairs = new Map<string, string | null>()
      let cursor = '0'
      const match = `${globEscape(this.#k(prefix))}*`
      do {
        const [next, keys] = await this.client.scan(cursor, 'MATCH', match, 'COUNT', 500)
        cursor = next
        const data = keys.filter(k => !k.endsWith('\u0000ttl'))
        if (data.length === 0) continue
        // A list key under the prefix makes MGET answer nil for it (not an error).
        const values = await this.client.mget(...data)
        data.forEach((k, i) => { pairs.set(k, values[i]) })
      } while (cursor !== '0')
      return pairs
    })
    const out: Array<{ key: string, value: T }> = []
    for (const [k, raw] of found) {
      if (raw === null) continue
      const key = k.slice(this.#ns.length)
      const parsed = this.#parse(key, raw)
      if (parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && 'v' in parsed.value) out.push({ key, value: (parsed.value as Envelope).v as T })
    }
    return out
  }

  async health (): Promise<StoreHealth> {
    try {
      await this.#do(async () => await this.client.ping())
      return { status: 'healthy', backend: this.backend }
    } catch (err) {
      return { status: 'unhealthy', backend: this.backend, error: (err as Error).message }
    }
  }

  async close (): Promise<void> { this.client.disconnect() }
}
