// How common a word is among the turns, from the statistics ANALYZE keeps for the
// tsvector column (pg_stats.most_common_elems: the lexemes in the most rows and the share
// of rows holding each). Keyword search asks it before counting a word's rows: counting
// reads the word's whole posting list from the GIN index (a GIN bitmap cannot stop at a
// LIMIT), about 12 ms for a word in 10,000 of 50,000 turns in PGlite, so a query of ten
// such words spent over 100 ms only learning that they are common. A word the statistics
// already call common is not counted. PostgreSQL's autovacuum and, on PGlite, the SQL
// kit's statistics timer (keepStatistics) keep these statistics; a table never analyzed
// has none, and then every word is counted as before.
import { sql, type Kysely } from 'kysely'

/** Statistics change only when ANALYZE runs (at most once a minute on PGlite): read them that often. */
const TTL_MS = 60_000

/** Each listed lexeme's share of the turns, and the turns the statistics were taken over (0: never analyzed). */
export interface LexemeStats { shares: Map<string, number>, turns: number }

const NONE = (): LexemeStats => ({ shares: new Map(), turns: 0 })

interface Cached { at: number, pending?: Promise<LexemeStats>, stats: LexemeStats }
const cache = new WeakMap<Kysely<unknown>, Cached>()

async function read (db: Kysely<unknown>): Promise<LexemeStats> {
  const r = await sql<{ e: string[] | null, f: number[] | null, n: number | null }>`SELECT s.most_common_elems::text::text[] AS e, s.most_common_elem_freqs AS f,
      (SELECT greatest(c.reltuples, 0)::float8 FROM pg_class c WHERE c.oid = to_regclass('turns')) AS n
    FROM (SELECT 1) one LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'turns' AND s.attname = 'content_tsv'`.execute(db)
  const row = r.rows[0]
  const stats: LexemeStats = { shares: new Map(), turns: Number(row?.n ?? 0) }
  if (row?.e == null || row.f == null) return stats
  row.e.forEach((lexeme, i) => { stats.shares.set(lexeme, Number(row.f?.[i] ?? 0)) })
  return stats
}

/**
 * The share of turns (0..1) holding each lexeme the statistics list (a lexeme not listed
 * is rarer than every listed one, or the table was never analyzed), and the table's size
 * when they were taken. Cached per database
 * handle: the first search waits for the read, later ones take the cached answer while a
 * stale one (a minute old) is read again behind them. A failed read counts as "no
 * statistics" (every word is counted).
 */
export async function lexemeFrequencies (db: Kysely<unknown>, now = Date.now()): Promise<LexemeStats> {
  const c = cache.get(db)
  if (c !== undefined) {
    if (now - c.at >= TTL_MS && c.pending === undefined) void refresh(db, c)
    return c.pending !== undefined && c.at === 0 ? await c.pending : c.stats
  }
  const entry: Cached = { at: 0, stats: NONE() }
  cache.set(db, entry)
  return await refresh(db, entry)
}

async function refresh (db: Kysely<unknown>, entry: Cached): Promise<LexemeStats> {
  entry.pending = read(db).catch(NONE).then(stats => {
    entry.stats = stats; entry.at = Date.now(); entry.pending = undefined
    return stats
  })
  return await entry.pending
}

/**
 * A word's share of turns by the statistics: the whole lexeme's, or for a prefix query
 * ("adopt:*") the largest share of a listed lexeme it matches (a lower bound: a turn may
 * hold several). 0 when nothing listed matches.
 */
export function shareOf (freqs: Map<string, number>, tsquery: string): number {
  if (!tsquery.endsWith(':*')) return freqs.get(tsquery) ?? 0
  const prefix = tsquery.slice(0, -2)
  let best = 0
  for (const [lexeme, f] of freqs) if (f > best && lexeme.startsWith(prefix)) best = f
  return best
}
