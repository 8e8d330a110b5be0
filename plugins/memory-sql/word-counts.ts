// How many turns of a set of channels hold a word, as the last search there counted them.
// The planner statistics give a word's share of the whole table, which misses a word
// common in one channel only: a speaker's name is in a third of their channel's turns and
// in 5% of the table's, so it passed for rare and selected the whole third as candidates
// (190 of ~200 in bench/chat-recall.bench.ts's searches). A search counts each of its
// selecting words exactly (the candidates hold every turn with one), so the next search of
// the same channels knows better. A count is scaled by the channels' growth since and
// forgotten after ten minutes.
import type { Kysely } from 'kysely'
import { PerDatabase } from '@agentd/sdk/kits/sql'

const FRESH_MS = 10 * 60_000
/** Counts remembered per database, by channels and word. */
const counts = new PerDatabase<{ df: number, n: number, at: number }>(20_000)

const key = (channels: string, word: string): string => `${channels}\u0001${word}`

/** The turns of `channels` (a channels key) holding `word` (its tsquery) when `n` turns are there, if a search counted it lately. */
export function countedTurns (db: Kysely<unknown>, channels: string, word: string, n: number, now = Date.now()): number | undefined {
  const c = counts.get(db, key(channels, word))
  if (c === undefined || now - c.at >= FRESH_MS) return undefined
  return c.n > 0 && n > c.n ? c.df * n / c.n : c.df
}

/** What a search counted: each word's turns when the channels held `n`. */
export function countTurns (db: Kysely<unknown>, channels: string, words: string[], dfs: number[], n: number, now = Date.now()): void {
  counts.set(db, words.map((w, i) => [key(channels, w), { df: dfs[i], n, at: now }]))
}
