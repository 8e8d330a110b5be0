// One warning per outage, not an error per request. While a store is down every memory
// endpoint answers 503 and every chat write goes to the outbox: that is expected, and a
// log with a stack trace per request would bury what matters. The first failure of a
// store logs a warning saying what still works; its first success afterwards logs that it
// is back and for how long it was away. The stores the service hands out are observed
// (observe()), so every call through them reports success or failure here.
import type { FastifyBaseLogger } from 'fastify'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { StoreHealth } from '@agentd/sdk/contracts/memory-stores'

type Role = StoreUnavailableError['role']

export class OutageLog {
  readonly #log: () => FastifyBaseLogger
  readonly #down = new Map<Role, { since: number, failures: number, backend: string }>()
  readonly #observed = new WeakMap<object, object>()

  constructor (log: () => FastifyBaseLogger) { this.#log = log }

  isDown (role: Role): boolean { return this.#down.has(role) }

  down (role: Role, backend: string, reason: string): void {
    const d = this.#down.get(role)
    if (d !== undefined) { d.failures++; return }
    this.#down.set(role, { since: Date.now(), failures: 1, backend })
    this.#log().warn({ role, backend, reason }, `memory: the ${role} store (${backend}) is unavailable; memory endpoints that need it answer 503 and the chat's memory writes wait in the outbox until it is back (logged once per outage)`)
  }

  up (role: Role): void {
    const d = this.#down.get(role)
    if (d === undefined) return
    this.#down.delete(role)
    this.#log().info({ role, backend: d.backend, down_ms: Date.now() - d.since, failed_calls: d.failures }, `memory: the ${role} store (${d.backend}) is back`)
  }

  /** Reports a StoreUnavailableError; returns whether it was one. */
  failed (err: unknown): boolean {
    if (!(err instanceof StoreUnavailableError)) return false
    this.down(err.role, err.backend, err.message)
    return true
  }

  /** The store, with every call's outcome reported here (the same wrapper for the same store). */
  observe<S extends object> (role: Role, store: S): S {
    const had = this.#observed.get(store)
    if (had !== undefined) return had as S
    const wrapped = new Proxy(store, {
      get: (target, prop) => {
        const v: unknown = Reflect.get(target, prop, target)
        if (typeof v !== 'function') return v
        return (...args: unknown[]): unknown => {
          const out: unknown = (v as (...a: unknown[]) => unknown).apply(target, args)
          if (!(out instanceof Promise)) return out
          return out.then((value: unknown) => {
            // health() answers rather than throws: it says itself whether the store is there.
            if (prop === 'health') {
              const h = value as StoreHealth
              if (h.status === 'healthy') this.up(role)
              else if (h.status === 'unhealthy') this.down(role, h.backend, h.error ?? 'unhealthy')
            } else {
              this.up(role)
            }
            return value
          }, (err: unknown) => { this.failed(err); throw err })
        }
      },
    })
    this.#observed.set(store, wrapped)
    return wrapped
  }
}
