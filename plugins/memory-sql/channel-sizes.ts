// How many turns each channel holds, as keyword search needs it: BM25's N, and the size
// against which a word's share says whether it is common (keyword-search.ts). Read from the
// database (the turn counts of the conversations started in it) the first time a channel
// is searched, then kept by this process's own writes (the relational store reports each
// turn it adds and every delete). Writers in other processes: the counts are read again
// after a minute, and at once when the turns table has grown by a quarter since they were
// (the search's statement compares its size on disk, a cheap stat on PostgreSQL; on PGlite,
// where the process owns the database, no other writer exists and no stat is made): a bulk load behind the
// store's back left N at a tenth of the table and the searches after it fetching thousands
// of candidates (bench/memory.bench.ts). Summing the conversations each search cost
// 0.2-0.35 ms of its statement at 300 conversations a channel on PGlite
// (bench/chat-recall.bench.ts), where every statement of a recall queues on one
// connection. A count read while a turn is being written may be off by that turn until it
// is read again: N a turn off moves no ranking.
import type { Kysely } from 'kysely'
import { PerDatabase } from '@agentd/sdk/kits/sql'

const FRESH_MS = 60_000
/** Read again when the turns table is this many times the size it was when a count was read. */
const GROWTH = 1.25
/** Channels remembered per database. */
const counts = new PerDatabase<{ n: number, at: number, bytes: number }>(10_000)

/** How a search learns its channels' sizes: reads them (`always`), or only if the turns table has grown past `past` bytes. */
export interface SizeCheck { channels: string[], always: boolean, past: number }

export function sizeCheck (db: Kysely<unknown>, channels: string[], now = Date.now()): SizeCheck {
  const unique = [...new Set(channels)]
  if (unique.length === 0) return { channels: unique, always: true, past: 0 }
  let past = Infinity
  for (const c of unique) {
    const k = counts.get(db, c)
    if (k === undefined || now - k.at >= FRESH_MS) return { channels: unique, always: true, past: 0 }
    past = Math.min(past, k.bytes * GROWTH)
  }
  return { channels: unique, always: false, past }
}

/** The turns in `channels` when every one's count is known, fresh or not. */
export function knownSize (db: Kysely<unknown>, channels: string[]): number | undefined {
  let n = 0
  for (const c of new Set(channels)) {
    const k = counts.get(db, c)
    if (k === undefined) return undefined
    n += k.n
  }
  return n
}

/** Counts just read for `channels` (a channel missing from `read` holds none), when the turns table took `bytes`. */
export function setSizes (db: Kysely<unknown>, channels: string[], read: Record<string, number>, bytes: number, now = Date.now()): void {
  counts.set(db, channels.map(c => [c, { n: read[c] ?? 0, at: now, bytes }]))
}

/** A turn this process stored. */
export function turnAdded (db: Kysely<unknown>, channel: string): void {
  const k = counts.get(db, channel)
  if (k !== undefined) k.n++
}

/** Turns this process deleted: every count is read again. */
export function turnsRemoved (db: Kysely<unknown>): void {
  counts.forget(db)
}
