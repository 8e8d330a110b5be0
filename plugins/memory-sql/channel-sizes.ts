// How many turns each channel holds, as keyword search needs it: BM25's N, and the size
// against which a word's share says whether it is common (keyword-search.ts). Read from the
// database (the turn counts of the conversations started in it) the first time a channel is searched,
// then kept by this process's own writes (the relational store reports each turn it adds
// and every delete) and read again after a minute, for writers in other processes. Summing
// the conversations each search cost 0.2-0.35 ms of its statement at 300 conversations
// a channel on PGlite (bench/chat-recall.bench.ts), where every statement of a recall
// queues on one connection. A count read while a turn is being written may be off by that
// turn until it is read again: N a turn off moves no ranking.
import type { Kysely } from 'kysely'

const FRESH_MS = 60_000
/** Channels remembered per database; past this the memory starts over. */
const KEPT = 10_000

interface Count { n: number, at: number }
const counts = new WeakMap<Kysely<unknown>, Map<string, Count>>()

function of (db: Kysely<unknown>): Map<string, Count> {
  let m = counts.get(db)
  if (m === undefined) { m = new Map(); counts.set(db, m) }
  return m
}

/** The channels whose count must be read (never read, or read over a minute ago). */
export function unknownSizes (db: Kysely<unknown>, channels: string[], now = Date.now()): string[] {
  const m = counts.get(db)
  return [...new Set(channels)].filter(c => { const k = m?.get(c); return k === undefined || now - k.at >= FRESH_MS })
}

/** The turns in `channels` when every one's count is known, fresh or not. */
export function knownSize (db: Kysely<unknown>, channels: string[]): number | undefined {
  const m = counts.get(db)
  let n = 0
  for (const c of new Set(channels)) {
    const k = m?.get(c)
    if (k === undefined) return undefined
    n += k.n
  }
  return n
}

/** Counts just read for `channels` (a channel missing from `read` holds none). */
export function setSizes (db: Kysely<unknown>, channels: string[], read: Record<string, number>, now = Date.now()): void {
  const m = of(db)
  if (m.size + channels.length > KEPT) m.clear()
  for (const c of channels) m.set(c, { n: read[c] ?? 0, at: now })
}

/** A turn this process stored. */
export function turnAdded (db: Kysely<unknown>, channel: string): void {
  const k = counts.get(db)?.get(channel)
  if (k !== undefined) k.n++
}

/** Turns this process deleted: every count is read again. */
export function turnsRemoved (db: Kysely<unknown>): void {
  counts.delete(db)
}
