// Rate-limit counters that outlive a generation. @fastify/rate-limit is registered in
// every generation, and its default store is created with it: each reload would hand
// every client a fresh allowance. The kernel holds one RateLimitCounters for the process
// and each generation's plugin gets a store class that writes into it.
// With Redis configured, @fastify/rate-limit's own Redis store instead (RateLimitBackend).
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitPluginOptions } from '@fastify/rate-limit'
import type { Redis } from 'ioredis'
import { createRequire } from 'node:module'

// ioredis only when Redis is configured: most servers never load it.
const requireLazily = createRequire(import.meta.url)

interface Window { count: number, startedMs: number }

/** Fixed-window counters by key (client address, plus the route for per-route limits). */
export class RateLimitCounters {
  readonly #windows = new Map<string, Window>()
  readonly #maxKeys: number

  /** Past `maxKeys` clients, the oldest window is forgotten first (as the default store's LRU does). */
  constructor (maxKeys = 5000) { this.#maxKeys = maxKeys }

  get size (): number { return this.#windows.size }

  /** Counts one request; returns the count so far in the key's window and the ms left in it. */
  hit (key: string, windowMs: number, now = Date.now()): { current: number, ttl: number } {
    let w = this.#windows.get(key)
    if (w === undefined || w.startedMs + windowMs <= now) {
      this.#windows.delete(key)
      w = { count: 0, startedMs: now }
      if (this.#windows.size >= this.#maxKeys) this.#windows.delete(this.#windows.keys().next().value as string)
    }
    w.count++
    // Re-insert so Map order stays "least recently started window first".
    this.#windows.set(key, w)
    return { current: w.count, ttl: w.startedMs + windowMs - now }
  }

  /** The store class to pass as @fastify/rate-limit's `store` option. */
  storeClass (): FastifyRateLimitStoreCtor {
    const counters = this
    return class SharedStore implements FastifyRateLimitStore {
      readonly #prefix: string
      constructor (_options?: unknown, prefix = '') { this.#prefix = prefix }
      incr (key: string, cb: (err: Error | null, res?: { current: number, ttl: number }) => void, timeWindow: number): void {
        cb(null, counters.hit(this.#prefix + key, timeWindow))
      }

      // A route with its own limit counts apart from the global one.
      child (routeOptions: { method?: string | string[], url?: string, routeInfo?: { method?: string | string[], url?: string } }): FastifyRateLimitStore {
        const info = routeOptions.routeInfo ?? routeOptions
        return new SharedStore(undefined, `${this.#prefix}${String(info.method ?? '')} ${info.url ?? ''}|`)
      }
    }
  }
}

/** The process's rate-limit counts, and the store part of @fastify/rate-limit's options: in memory, or in Redis (one allowance for a cluster; while it is away requests pass: skipOnError). */
export class RateLimitBackend {
  readonly counters = new RateLimitCounters()
  readonly redis: Redis | undefined
  readonly options: () => Pick<RateLimitPluginOptions, 'store' | 'redis' | 'nameSpace' | 'skipOnError'>

  constructor (redisUri: string | undefined, namespace: string, log: { warn: (obj: object, msg: string) => void }) {
    // A request never waits on a Redis that is away: no offline queue, one try.
    this.redis = redisUri === undefined ? undefined : new (requireLazily('ioredis') as typeof import('ioredis')).Redis(redisUri, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 })
    let warned = false // ioredis reconnects by itself: one warning per process
    this.redis?.on('error', (err: Error) => { if (!warned) log.warn({ err: err.message }, 'rate limit: Redis is not reachable; requests are not limited until it is back'); warned = true })
    this.options = () => this.redis === undefined ? { store: this.counters.storeClass() } : { redis: this.redis, nameSpace: namespace, skipOnError: true }
  }
  async close (): Promise<void> { await this.redis?.quit().catch(() => { this.redis?.disconnect() }) }
}
