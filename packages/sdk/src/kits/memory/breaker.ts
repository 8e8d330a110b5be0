// A circuit breaker per database server (PostgreSQL in the SQL kit, Neo4j in
// memory-graph-neo4j). A server that does not answer (packets dropped, not refused) costs
// connect_timeout_ms per call; without a breaker every chat would wait that long for
// memory. After a connection failure the store is skipped for a cool-down (calls fail at
// once, health reports unhealthy); the first call after it tries again.
export class Breaker {
  readonly cooldownMs: number
  readonly #now: () => number
  #openUntil = 0
  #last = ''

  constructor (cooldownMs: number, now: () => number = Date.now) { this.cooldownMs = cooldownMs; this.#now = now }

  /** Undefined when calls may go through; otherwise why they may not. */
  blocked (): Error | undefined {
    const left = this.#openUntil - this.#now()
    if (left <= 0) return undefined
    return new Error(`not tried for another ${Math.ceil(left / 100) / 10} s after a connection failure (${this.#last}); the next call after that tries again`)
  }

  failed (err: unknown): void {
    if (this.cooldownMs <= 0) return
    this.#openUntil = this.#now() + this.cooldownMs
    this.#last = (err as Error | undefined)?.message ?? String(err)
  }

  succeeded (): void { this.#openUntil = 0 }
}
