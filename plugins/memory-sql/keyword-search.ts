// Keyword search over turns: BM25-style scoring on PostgreSQL full text, the same SQL on
// PGlite and PostgreSQL. Each query word counts by its rarity in the channels searched
// (IDF from a GIN-index count, capped), divided by BM25's length norm; ts_rank_cd adds a
// little for words standing close together. A word counts once per turn (chat turns are
// short: repeats are rare), so this is BM25 with binary term frequency.
// Words: function words are dropped, and a word of 5+ letters matches by its stem as a
// prefix ("adopted" finds "adopt", "adopts", "adopting"), since the index uses the
// language-neutral `simple` configuration.
// Cost: the rarest words pick the candidate rows (at most 2 x COMMON), so a word that is in
// every other turn never makes the database rank half the table; and a word the planner
// statistics already call common is not counted (lexeme-frequencies.ts).
import { sql, type Kysely } from 'kysely'
import { contentWords } from '@agentd/sdk/kits/recall'
import { num, type Row } from '@agentd/sdk/kits/sql'
import { lexemeFrequencies, shareOf } from './lexeme-frequencies.ts'

/**
 * A word in more turns than this (of the channels searched) is common: it still scores,
 * but never picks candidates, and its count stops here. Rows ranked per search are at
 * most twice this. A query of common words only finds nothing by keywords (vectors still
 * answer): on a toy vocabulary every word is common.
 */
const COMMON = 500
const B = 0.75

/** A crude English stem used as a tsquery prefix; short words match whole. */
export function stemPrefix (word: string): string {
  if (word.length < 5 || /\d/.test(word)) return word
  const stem = word
    .replace(/(ies|ied)$/, 'y')
    .replace(/(ing|ed|es|ly|ment|ness|ers|er|s)$/, '')
  return stem.length >= 4 ? stem : word
}

/** One tsquery per word: letters and digits only, so nothing in it is an operator. */
export function wordQueries (text: string): Array<{ word: string, tsquery: string }> {
  const seen = new Set<string>()
  const out: Array<{ word: string, tsquery: string }> = []
  for (const w of contentWords(text)) {
    const p = stemPrefix(w)
    if (seen.has(p)) continue
    seen.add(p)
    out.push({ word: w, tsquery: p === w && w.length < 5 ? w : `${p}:*` })
    if (out.length === 12) break
  }
  return out
}

export async function keywordSearch (db: Kysely<unknown>, cols: ReturnType<typeof sql.raw>, q: { text: string, channels: string[], limit: number }): Promise<Row[]> {
  const terms = wordQueries(q.text)
  if (terms.length === 0 || q.limit <= 0) return []
  const tsqs = terms.map(t => t.tsquery)
  // Each word's share of all turns by the planner statistics (lexeme-frequencies.ts); a
  // word whose share of the channels' turns reaches COMMON is common without counting.
  const freqs = await lexemeFrequencies(db)
  const shares = tsqs.map(t => shareOf(freqs, t))
  // Document counts per word (each capped at COMMON, read from the GIN index) and the channels' size, in one round trip.
  const stats = await sql<{ i: number, df: number, n: number }>`WITH n AS (SELECT coalesce(sum(turn_count), 0)::int AS n FROM conversations WHERE channel = ANY(${q.channels}::text[]))
    SELECT w.i::int AS i, n.n, CASE WHEN w.share * n.n >= ${COMMON} THEN ${COMMON}::int ELSE (SELECT count(*)::int FROM (SELECT 1 FROM turns x
      WHERE x.channel = ANY(${q.channels}::text[]) AND x.content_tsv @@ to_tsquery('simple', w.q) LIMIT ${COMMON}) c) END AS df
    FROM unnest(${tsqs}::text[], ${shares}::float8[]) WITH ORDINALITY AS w(q, share, i), n`.execute(db)
  const df = new Map(stats.rows.map(r => [num(r.i) - 1, num(r.df)]))
  const N = Math.max(num(stats.rows[0]?.n ?? 0), ...df.values(), 1)
  const idf = terms.map((_, i) => Math.log(1 + (N - (df.get(i) ?? 0) + 0.5) / ((df.get(i) ?? 0) + 0.5)))
  // Rarest words first pick the candidates, until they would bring more than 2 x COMMON rows.
  const order = terms.map((_, i) => i).filter(i => (df.get(i) ?? 0) > 0 && (df.get(i) ?? 0) < COMMON).sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0))
  if (order.length === 0) return []
  const pick: number[] = []
  let total = 0
  for (const i of order) {
    const d = df.get(i) ?? 0
    if (pick.length > 0 && total + d > 2 * COMMON) break
    pick.push(i); total += d
  }
  const selector = pick.map(i => tsqs[i]).join(' | ')
  const all = tsqs.join(' | ')
  const weighted = sql.join(terms.map((_, i) => sql`(t.content_tsv @@ to_tsquery('simple', ${tsqs[i]}))::int * ${idf[i]}::float8`), sql` + `)
  const r = await sql<Row>`SELECT ${cols}, ((${weighted}) / (${1 - B}::float8 + ${B}::float8 * length(t.content_tsv) / greatest(t.avgdl, 1))
      + 0.1 * ts_rank_cd(t.content_tsv, to_tsquery('simple', ${all}))) AS score
    FROM (SELECT c.*, avg(length(c.content_tsv)) OVER () AS avgdl FROM (SELECT * FROM turns x
      WHERE x.channel = ANY(${q.channels}::text[]) AND x.content_tsv @@ to_tsquery('simple', ${selector}) LIMIT ${2 * COMMON}) c) t
    ORDER BY score DESC, t.ts DESC, t.idx DESC LIMIT ${q.limit}`.execute(db)
  return r.rows
}
