// What a store learns about a database and keeps beside its handle (a vector search's
// "few rows" verdict, keyword search's channel sizes and word counts): keyed per database,
// dropped with the handle, bounded. Past `kept` entries the memory starts over: forgetting
// only means reading again.
import type { Kysely } from 'kysely'

export class PerDatabase<V> {
  readonly #maps = new WeakMap<Kysely<unknown>, Map<string, V>>()
  readonly #kept: number

  constructor (kept: number) { this.#kept = kept }

  get (db: Kysely<unknown>, key: string): V | undefined { return this.#maps.get(db)?.get(key) }

  /** Keeps `entries`, starting over first if they would not fit. */
  set (db: Kysely<unknown>, entries: Iterable<[string, V]>): void {
    let m = this.#maps.get(db)
    if (m === undefined) { m = new Map(); this.#maps.set(db, m) }
    const add = [...entries]
    if (m.size + add.length > this.#kept) m.clear()
    for (const [k, v] of add) m.set(k, v)
  }

  /** Forgets everything kept for `db`. */
  forget (db: Kysely<unknown>): void { this.#maps.delete(db) }
}
