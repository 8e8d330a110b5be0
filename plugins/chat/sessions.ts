// Chat sessions: the message history of a conversation (user, assistant with tool
// calls, tool results). Stored in the key-value capability when one is registered
// (Redis keeps them across restarts), else in an in-process store with a TTL and a
// size bound, held in the resource pool so a live reload keeps them. A key-value store
// that fails falls back to the in-process one: sessions never fail a chat.
import type { FastifyBaseLogger } from 'fastify'
import type { Message } from '@agentd/sdk/contracts/provider'
import type { KvStore } from '@agentd/sdk/contracts/memory-stores'

export interface Session {
  id: string
  messages: Message[]
  created_at: string
  updated_at: string
}

export interface SessionStore {
  readonly backend: string
  get: (id: string) => Promise<Session | undefined>
  save: (session: Session) => Promise<void>
}

export function newSession (id: string): Session {
  const now = new Date().toISOString()
  return { id, messages: [], created_at: now, updated_at: now }
}

/** In-process sessions: least recently used evicted past `maxSessions`, expired after `ttlSeconds` idle. */
export class LocalSessionStore implements SessionStore {
  readonly backend = 'memory'
  readonly #items = new Map<string, { session: Session, expires: number }>()
  readonly #ttlMs: number
  readonly #max: number

  constructor (opts: { ttlSeconds: number, maxSessions: number }) {
    this.#ttlMs = opts.ttlSeconds * 1000
    this.#max = opts.maxSessions
  }

  get size (): number { return this.#items.size }

  async get (id: string): Promise<Session | undefined> {
    const item = this.#items.get(id)
    if (item === undefined) return undefined
    this.#items.delete(id)
    if (item.expires <= Date.now()) return undefined
    item.expires = Date.now() + this.#ttlMs
    this.#items.set(id, item) // most recently used last
    return structuredClone(item.session)
  }

  /** Forgets a session (the fallback's copy, once the primary holds it again). */
  delete (id: string): void { this.#items.delete(id) }

  async save (session: Session): Promise<void> {
    this.#items.delete(session.id)
    this.#items.set(session.id, { session: structuredClone(session), expires: Date.now() + this.#ttlMs })
    const now = Date.now()
    for (const [id, item] of this.#items) {
      if (this.#items.size <= this.#max && item.expires > now) break
      this.#items.delete(id)
    }
  }
}

export const SESSION_KEY_PREFIX = 'chat:session:'

/** Sessions in the registered key-value store, TTL sliding on read. */
export class KvSessionStore implements SessionStore {
  readonly #kv: KvStore
  readonly #ttlSeconds: number
  constructor (kv: KvStore, ttlSeconds: number) { this.#kv = kv; this.#ttlSeconds = ttlSeconds }
  get backend (): string { return this.#kv.backend }
  async get (id: string): Promise<Session | undefined> {
    return await this.#kv.get<Session>(SESSION_KEY_PREFIX + id, { slide: true })
  }

  async save (session: Session): Promise<void> {
    await this.#kv.set(SESSION_KEY_PREFIX + session.id, session, { ttlSeconds: this.#ttlSeconds })
  }
}

/** The later of two copies of a session by `updated_at` (`a` on a tie or an unreadable date). */
function newer (a: Session, b: Session): Session {
  const ta = Date.parse(a.updated_at)
  const tb = Date.parse(b.updated_at)
  return Number.isFinite(tb) && (!Number.isFinite(ta) || tb > ta) ? b : a
}

/**
 * Uses `primary`; when it fails, logs and serves from `fallback` so the chat goes on.
 * Turns saved to the fallback during an outage are newer than the primary's copy once it
 * is back: a read keeps the newer copy (by `updated_at`) and writes it back to the primary.
 */
export class FallbackSessionStore implements SessionStore {
  readonly #primary: SessionStore
  readonly #fallback: LocalSessionStore
  readonly #log: FastifyBaseLogger
  constructor (primary: SessionStore, fallback: LocalSessionStore, log: FastifyBaseLogger) {
    this.#primary = primary; this.#fallback = fallback; this.#log = log
  }

  get backend (): string { return this.#primary.backend }

  async get (id: string): Promise<Session | undefined> {
    let primary: Session | undefined
    try {
      primary = await this.#primary.get(id)
    } catch (err) {
      this.#log.warn({ err, backend: this.#primary.backend }, 'session store read failed; using the in-process store')
      return await this.#fallback.get(id)
    }
    const local = await this.#fallback.get(id)
    if (local === undefined) return primary
    // The in-process copy is dropped once the primary has the newest one, so later reads
    // of this session are a map miss again, not a second copy of its history.
    if (primary !== undefined && newer(primary, local) === primary) { this.#fallback.delete(id); return primary }
    // Saved in process while the primary was down: bring the primary up to date.
    try {
      await this.#primary.save(local)
      this.#fallback.delete(id)
    } catch (err) {
      this.#log.warn({ err, backend: this.#primary.backend }, 'session store write-back failed; serving the in-process copy')
    }
    return local
  }

  async save (session: Session): Promise<void> {
    try {
      await this.#primary.save(session)
    } catch (err) {
      this.#log.warn({ err, backend: this.#primary.backend }, 'session store write failed; keeping the session in process')
      await this.#fallback.save(session)
    }
  }
}
