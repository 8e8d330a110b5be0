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

/** What a session list shows of each session. */
export interface SessionSummary {
  id: string
  /** The first user message, cut to TITLE_LENGTH characters ('' when there is none yet). */
  title: string
  created_at: string
  updated_at: string
  message_count: number
}

export interface SessionStore {
  readonly backend: string
  get: (id: string) => Promise<Session | undefined>
  save: (session: Session) => Promise<void>
  /** Every live session's summary, in no particular order. */
  list: () => Promise<SessionSummary[]>
  /** Forgets a session; false when there was none. */
  remove: (id: string) => Promise<boolean>
}

export const TITLE_LENGTH = 80

export function summarize (session: Session): SessionSummary {
  const first = session.messages.find(m => m.role === 'user')?.content ?? ''
  const line = first.replace(/\s+/g, ' ').trim()
  const title = line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line
  return { id: session.id, title, created_at: session.created_at, updated_at: session.updated_at, message_count: session.messages.length }
}

/** Newest first by `updated_at`, then by id so that pages are stable. */
export function byNewest (a: SessionSummary, b: SessionSummary): number {
  return (Date.parse(b.updated_at) || 0) - (Date.parse(a.updated_at) || 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** A key-value store without `entries` cannot enumerate its keys, so it cannot list sessions. */
export class ListingUnsupportedError extends Error {
  constructor (backend: string) {
    super(`The key-value store "${backend}" cannot list its keys, so chat sessions cannot be listed; each session can still be read by its id.`)
    this.name = 'ListingUnsupportedError'
  }
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

  async remove (id: string): Promise<boolean> {
    const item = this.#items.get(id)
    this.#items.delete(id)
    return item !== undefined && item.expires > Date.now()
  }

  /** Live sessions only; reading the list neither slides a TTL nor changes the LRU order. */
  async list (): Promise<SessionSummary[]> {
    const now = Date.now()
    const out: SessionSummary[] = []
    for (const item of this.#items.values()) if (item.expires > now) out.push(summarize(item.session))
    return out
  }

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
/**
 * Beside each session, its summary under this prefix (same TTL): the list reads these
 * small values, not every session's whole history. Not under SESSION_KEY_PREFIX, so a
 * prefix scan of either finds only its own kind.
 */
export const SUMMARY_KEY_PREFIX = 'chat:summary:'

/** Sessions in the registered key-value store, TTL sliding on read. */
export class KvSessionStore implements SessionStore {
  readonly #kv: KvStore
  readonly #ttlSeconds: number
  constructor (kv: KvStore, ttlSeconds: number) { this.#kv = kv; this.#ttlSeconds = ttlSeconds }
  get backend (): string { return this.#kv.backend }
  async get (id: string): Promise<Session | undefined> {
    // The summary slides with its session, so the list shows every session still kept.
    const [session] = await Promise.all([
      this.#kv.get<Session>(SESSION_KEY_PREFIX + id, { slide: true }),
      this.#kv.get(SUMMARY_KEY_PREFIX + id, { slide: true }),
    ])
    return session
  }

  async save (session: Session): Promise<void> {
    await Promise.all([
      this.#kv.set(SESSION_KEY_PREFIX + session.id, session, { ttlSeconds: this.#ttlSeconds }),
      this.#kv.set(SUMMARY_KEY_PREFIX + session.id, summarize(session), { ttlSeconds: this.#ttlSeconds }),
    ])
  }

  async list (): Promise<SessionSummary[]> {
    if (this.#kv.entries === undefined) throw new ListingUnsupportedError(this.#kv.backend)
    const found = await this.#kv.entries<SessionSummary>(SUMMARY_KEY_PREFIX)
    return found.map(e => e.value).filter(isSummary)
  }

  async remove (id: string): Promise<boolean> {
    const [had] = await Promise.all([this.#kv.delete(SESSION_KEY_PREFIX + id), this.#kv.delete(SUMMARY_KEY_PREFIX + id)])
    return had
  }
}

function isSummary (v: unknown): v is SessionSummary {
  if (v === null || typeof v !== 'object') return false
  const o = v as Record<string, unknown>
  return typeof o.id === 'string' && typeof o.title === 'string' && typeof o.updated_at === 'string' && typeof o.created_at === 'string' && typeof o.message_count === 'number'
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

  /**
   * The primary's list with the in-process sessions merged in (a session saved there
   * during an outage is newer, so its summary wins); only the in-process ones while the
   * primary is down. A primary that cannot list at all is said, not hidden.
   */
  async list (): Promise<SessionSummary[]> {
    const local = await this.#fallback.list()
    let primary: SessionSummary[]
    try {
      primary = await this.#primary.list()
    } catch (err) {
      if (err instanceof ListingUnsupportedError) throw err
      this.#log.warn({ err, backend: this.#primary.backend }, 'session store list failed; listing the in-process sessions only')
      return local
    }
    const byId = new Map(primary.map(s => [s.id, s]))
    for (const s of local) {
      const p = byId.get(s.id)
      if (p === undefined || (Date.parse(s.updated_at) || 0) > (Date.parse(p.updated_at) || 0)) byId.set(s.id, s)
    }
    return [...byId.values()]
  }

  async remove (id: string): Promise<boolean> {
    const local = await this.#fallback.remove(id)
    return (await this.#primary.remove(id)) || local
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
