// The in-process key-value store: a Map with per-key TTLs (sliding on read when asked)
// and a bound on the number of keys, evicting the least recently used. The reference
// implementation of the KvStore contract (like @fastify/rate-limit's LocalStore).
import type { KvStore, StoreHealth } from '@agentd/sdk/contracts/memory-stores'

export interface Entry { value: unknown, ttlMs: number | undefined, expiresAt: number | undefined }

export interface LocalKvOptions {
  maxKeys: number
  maxListLength: number
  now?: () => number
  /** Called with every key whose value, TTL or presence changed (persistence writes it behind). */
  onChange?: (key: string) => void
}

const clone = <T>(v: T): T => v === undefined ? v : structuredClone(v)

export class LocalKvStore implements KvStore {
  readonly backend = 'memory'
  readonly #map = new Map<string, Entry>()
  readonly #opts: LocalKvOptions
  readonly #now: () => number
  readonly #changed: (key: string) => void

  constructor (opts: Partial<LocalKvOptions> = {}) {
    this.#opts = { maxKeys: opts.maxKeys ?? 10_000, maxListLength: opts.maxListLength ?? 1000 }
    this.#now = opts.now ?? Date.now
    this.#changed = opts.onChange ?? (() => {})
  }

  /** A key's entry as it is, without touching its LRU place or TTL (undefined: absent or expired). */
  peek (key: string): Entry | undefined {
    const e = this.#map.get(key)
    return e === undefined || (e.expiresAt !== undefined && e.expiresAt <= this.#now()) ? undefined : e
  }

  /** Puts entries back as they were (loading persisted state; least recently used first). */
  restore (entries: Iterable<[string, Entry]>): void {
    for (const [key, e] of entries) {
      if (e.expiresAt !== undefined && e.expiresAt <= this.#now()) continue
      this.#map.delete(key)
      this.#map.set(key, e)
    }
    this.#evict()
  }

  #evict (): void {
    while (this.#map.size > this.#opts.maxKeys) {
      const oldest = this.#map.keys().next().value
      if (oldest === undefined) break
      this.#map.delete(oldest)
      this.#changed(oldest)
    }
  }

  get size (): number { return this.#map.size }

  #live (key: string, slide: boolean): Entry | undefined {
    const e = this.#map.get(key)
    if (e === undefined) return undefined
    const now = this.#now()
    if (e.expiresAt !== undefined && e.expiresAt <= now) { this.#map.delete(key); this.#changed(key); return undefined }
    // Re-insert: Map order is the LRU order.
    this.#map.delete(key)
    this.#map.set(key, e)
    if (slide && e.ttlMs !== undefined) { e.expiresAt = now + e.ttlMs; this.#changed(key) }
    return e
  }

  #put (key: string, value: unknown, ttlSeconds: number | undefined): void {
    const ttlMs = ttlSeconds === undefined ? undefined : ttlSeconds * 1000
    this.#map.delete(key)
    this.#map.set(key, { value, ttlMs, expiresAt: ttlMs === undefined ? undefined : this.#now() + ttlMs })
    this.#changed(key)
    this.#evict()
  }

  async get<T = unknown> (key: string, opts: { slide?: boolean } = {}): Promise<T | undefined> {
    return clone(this.#live(key, opts.slide === true)?.value as T | undefined)
  }

  async set (key: string, value: unknown, opts: { ttlSeconds?: number } = {}): Promise<void> {
    this.#put(key, clone(value), opts.ttlSeconds)
  }

  async sweep (): Promise<number> {
    const now = this.#now()
    let n = 0
    for (const [key, e] of this.#map) if (e.expiresAt !== undefined && e.expiresAt <= now) { this.#map.delete(key); n++ }
    return n
  }

  async delete (key: string): Promise<boolean> {
    const had = this.#live(key, false) !== undefined
    if (this.#map.delete(key)) this.#changed(key)
    return had
  }

  async deletePrefix (prefix: string): Promise<number> {
    let n = 0
    for (const key of [...this.#map.keys()]) {
      if (!key.startsWith(prefix)) continue
      if (this.#live(key, false) !== undefined) n++
      if (this.#map.delete(key)) this.#changed(key)
    }
    return n
  }

  async pushList (key: string, value: unknown, opts: { max?: number, ttlSeconds?: number } = {}): Promise<void> {
    const e = this.#live(key, false)
    const list = Array.isArray(e?.value) ? e.value as unknown[] : []
    list.push(clone(value))
    const max = Math.min(opts.max ?? this.#opts.maxListLength, this.#opts.maxListLength)
    if (list.length > max) list.splice(0, list.length - max)
    this.#put(key, list, opts.ttlSeconds ?? (e?.ttlMs === undefined ? undefined : e.ttlMs / 1000))
  }

  async getList<T = unknown> (key: string, opts: { slide?: boolean } = {}): Promise<T[]> {
    const v = this.#live(key, opts.slide === true)?.value
    return Array.isArray(v) ? clone(v) as T[] : []
  }

  async entries<T = unknown> (prefix: string): Promise<Array<{ key: string, value: T }>> {
    const out: Array<{ key: string, value: T }> = []
    for (const key of this.#map.keys()) {
      if (!key.startsWith(prefix)) continue
      const e = this.peek(key)
      if (e !== undefined && !Array.isArray(e.value)) out.push({ key, value: clone(e.value as T) })
    }
    return out
  }

  async health (): Promise<StoreHealth> { return { status: 'healthy', backend: this.backend } }
  async close (): Promise<void> { this.#map.clear() }
}
