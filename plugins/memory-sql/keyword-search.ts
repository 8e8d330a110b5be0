// Keyword search over turns: BM25 on PostgreSQL full text, the same SQL on PGlite and
// PostgreSQL. Each query word counts by its rarity in the channels
// searched (IDF), divided by BM25's length norm (bm25.ts); a word counts once per turn
// (chat turns are short: repeats are rare), so this is BM25 with binary term frequency.
// Words: function words are dropped, and a word of 5+ letters matches by its stem as a
// prefix ("adopted" finds "adopt", "adopts", "adopting"), since the index uses the
// language-neutral `simple` configuration.
// How: the GIN index finds the turns holding the query's rarer words (the candidates);
// they come back with their stored tsvector and whole row and are scored here, their
// document counts taken among the candidates, which hold every turn with a selecting
// word. A word the planner statistics call common (lexeme-frequencies.ts), or that an
// earlier search counted in over a tenth of the channels' turns (word-counts.ts), does not
// select (it would fetch a good part of the channel) but still scores, its count
// estimated: a turn sharing only such a word with the query is not returned.
// Scoring in SQL (a match per word per row, window sums, ts_rank_cd) after a statement
// counting each word's turns took 2-4 ms a search on PGlite; hybrid's and query_expansion's
// searches together now take one statement (bench/chat-recall.bench.ts, architecture.md).
import { sql, type Kysely } from 'kysely'
import { contentWords } from '@agentd/sdk/kits/recall'
import type { Row } from '@agentd/sdk/kits/sql'
import { lexemeFrequencies, shareOf } from './lexeme-frequencies.ts'
import { bm25, parseTermQuery, parseTsvector, type TermQuery } from './bm25.ts'
import { countTurns, countedTurns } from './word-counts.ts'
import { knownSize, setSizes, sizeCheck } from './channel-sizes.ts'

/**
 * A word estimated in more turns than this (of the channels searched) is common: it still
 * scores, but never picks candidates. Candidates fetched per search are at most twice
 * this. A query of common words only finds nothing by keywords (vectors still answer): on
 * a toy vocabulary every word is common.
 */
const COMMON = 500

/**
 * Past the query's rarest word, a word selects candidates only when it is in at most this
 * share of the channels' turns (or SELECT_MIN of them, in a small channel). A word in a
 * tenth of the turns weighs under half a rare one (IDF), so a turn holding only it ranks
 * below the turns with a rarer word, and fetching them all was most of what a search read:
 * a speaker's name in a third of the turns brought 190 candidates to the other words' 20.
 * Such a word still scores every candidate holding it.
 */
const SELECT_SHARE = 0.1
const SELECT_MIN = 50

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

/**
 * A word the `simple` configuration leaves as it is: lower-case ASCII letters only, or
 * digits only (keyword-search.test.ts checks this against the database). Other words go
 * to the database to be normalized: its parser splits some ("12e3x" is a number and a
 * word) and the locale decides what a letter is. Asking costs a to_tsquery per word.
 */
const PLAIN = /^(?:[a-z]+|[0-9]+)(?::\*)?$/

/** The word's query as the database would normalize it, when that is known without asking. */
export function plainTerm (tsquery: string): TermQuery | undefined {
  if (!PLAIN.test(tsquery)) return undefined
  const prefix = tsquery.endsWith(':*')
  return { parts: [{ lexeme: prefix ? tsquery.slice(0, -2) : tsquery, prefix }] }
}

const channelsKey = (channels: string[]): string => [...channels].sort().join('\u0000')

interface KeywordQuery { text: string, channels: string[], limit: number }

/** A search ready to run: its words, those that select candidates, and the statistics' shares and earlier counts of each. */
interface Planned {
  q: KeywordQuery
  tsqs: string[]
  pick: number[]
  shares: number[]
  counted: Array<number | undefined>
  done: (rows: Row[]) => void
  fail: (err: unknown) => void
}

async function plan (db: Kysely<unknown>, q: KeywordQuery): Promise<Omit<Planned, 'done' | 'fail'> | undefined> {
  const terms = wordQueries(q.text)
  if (terms.length === 0 || q.limit <= 0) return undefined
  const tsqs = terms.map(t => t.tsquery)
  const stats = await lexemeFrequencies(db)
  // Before the channels' first search, the whole table's size stands in.
  const size = knownSize(db, q.channels) ?? stats.turns
  const shares = tsqs.map(t => shareOf(stats.shares, t))
  const key = channelsKey(q.channels)
  const counted = tsqs.map(t => countedTurns(db, key, t, size))
  const estimate = shares.map((s, i) => Math.max(s * size, counted[i] ?? 0))
  // The rarest words pick the candidates, until they would bring more than 2 x COMMON rows;
  // past the rarest, only words in few of the channels' turns (SELECT_SHARE).
  const order = tsqs.map((_, i) => i).filter(i => estimate[i] < COMMON).sort((a, b) => estimate[a] - estimate[b] || a - b)
  const pick: number[] = []
  let total = 0
  for (const i of order) {
    if (pick.length > 0 && (total + estimate[i] > 2 * COMMON || estimate[i] > Math.max(SELECT_SHARE * size, SELECT_MIN))) break
    pick.push(i); total += estimate[i]
  }
  return pick.length === 0 ? undefined : { q, tsqs, pick, shares, counted }
}

/**
 * Searches started together (a recall runs its techniques at once: hybrid and
 * query_expansion each search) share statements: the searches waiting when the event loop
 * comes round run as one per set of channels. On PGlite every statement of every
 * technique queues on the one connection, so two searches in two statements each were
 * the techniques' largest cost in a chat.
 */
const waiting = new WeakMap<Kysely<unknown>, { columns: readonly string[], othersWrite: boolean, searches: Planned[] }>()

/**
 * The best `q.limit` turns for the query, each with the `columns` of its row and its `score`.
 * `othersWrite`: other processes may write turns (PostgreSQL), so each search checks the
 * table's size on disk (channel-sizes.ts). On PGlite this process owns the database and
 * the store sees every turn written: the stat behind `pg_relation_size` (~140 us of a
 * PGlite statement, a file lookup through its file system layer) is left out.
 */
export async function keywordSearch (db: Kysely<unknown>, columns: readonly string[], q: KeywordQuery, othersWrite = true): Promise<Row[]> {
  const planned = await plan(db, q)
  if (planned === undefined) return []
  return await new Promise<Row[]>((resolve, reject) => {
    let batch = waiting.get(db)
    if (batch === undefined) {
      const created = { columns, othersWrite, searches: [] as Planned[] }
      waiting.set(db, created)
      setImmediate(() => {
        waiting.delete(db)
        const groups = new Map<string, Planned[]>()
        for (const p of created.searches) {
          const key = channelsKey(p.q.channels)
          const group = groups.get(key)
          if (group === undefined) groups.set(key, [p])
          else group.push(p)
        }
        for (const group of groups.values()) {
          runTogether(db, created.columns, created.othersWrite, group).catch((err: unknown) => { for (const p of group) p.fail(err) })
        }
      })
      batch = created
    }
    batch.searches.push({ ...planned, done: resolve, fail: reject })
  })
}

/**
 * Searches over the same channels in one statement: the candidates of all of them (their
 * selecting words' turns: id, time, stored tsvector and whole row, with the channels' size
 * and each word as the database normalizes it), each search scored here (bm25.ts).
 */
async function runTogether (db: Kysely<unknown>, columns: readonly string[], othersWrite: boolean, searches: Planned[]): Promise<void> {
  const channels = searches[0].q.channels
  const words = [...new Set(searches.flatMap(p => p.tsqs))]
  const normalized = new Map<string, TermQuery>()
  for (const w of words) { const term = plainTerm(w); if (term !== undefined) normalized.set(w, term) }
  const asked = words.filter(w => !normalized.has(w))
  const selector = [...new Set(searches.flatMap(p => p.pick.map(i => p.tsqs[i])))].join(' | ')
  const check = sizeCheck(db, channels)
  const limit = 2 * COMMON * searches.length
  // One row of four values: the channels' sizes (unless known: channel-sizes.ts) and the
  // turns table's size on disk, the words only the database can normalize (plainTerm), and
  // the candidates packed into one text, a line each: id, time in epoch seconds, index,
  // tsvector (a lexeme never holds a space or a line break), and after a tab the whole row
  // as a JSON array (JSON escapes tabs and line breaks). PGlite copies and decodes every
  // value it sends back (about 1 us each): a row per candidate cost more than the search.
  // The whole rows come with every candidate rather than in a second statement for those
  // that made the cut: a statement's fixed cost is more than ~50 candidates' JSON (words
  // common in the channels do not select candidates). Known sizes are read again only when
  // the table has grown past the check, by a statement of their own: planning the sizes'
  // subquery into every search (as a CASE on the table's size) cost 0.15-0.2 ms of its
  // 1.5 ms on PGlite.
  const sizes = sql<string>`(SELECT coalesce(json_object_agg(channel, n), '{}')::text FROM (SELECT channel, sum(turn_count)::int AS n FROM conversations WHERE channel = ANY(${check.channels}::text[]) GROUP BY channel) c)`
  const whole = sql.join(columns.map(c => sql.ref(`t.${c}`)))
  const r = await sql<{ n: string | null, bytes: number, tq: string[] | null, rows: string | null }>`SELECT
      ${check.always ? sizes : sql`NULL::text`} AS n,
      ${othersWrite || check.always ? sql`pg_relation_size('turns')::float8` : sql`NULL::float8`} AS bytes,
      ${asked.length === 0 ? sql`NULL::text[]` : sql`(SELECT array_agg(to_tsquery('simple', w)::text ORDER BY i) FROM unnest(${asked}::text[]) WITH ORDINALITY AS u(w, i))`} AS tq,
      (SELECT string_agg(c.id::text || ' ' || date_part('epoch', c.ts) || ' ' || c.idx || ' ' || c.content_tsv::text || E'\t' || c.whole, E'\n')
        FROM (SELECT t.id, t.ts, t.idx, t.content_tsv, json_build_array(${whole})::text AS whole FROM turns t
          WHERE t.channel = ANY(${channels}::text[]) AND t.content_tsv @@ to_tsquery('simple', ${selector})
          LIMIT ${limit}) c) AS rows`.execute(db)
  const head = r.rows[0]
  let n = knownSize(db, channels) ?? 0
  const bytes = Number(head?.bytes ?? 0)
  // Grown past the check: another process wrote turns; its channels' sizes are read again.
  const sizesRead = head?.n ?? (!check.always && othersWrite && bytes > check.past ? (await sql<{ n: string }>`SELECT ${sizes} AS n`.execute(db)).rows[0]?.n : null)
  if (sizesRead != null) {
    const read = JSON.parse(sizesRead) as Record<string, number>
    n = check.channels.reduce((sum, c) => sum + (read[c] ?? 0), 0)
    setSizes(db, check.channels, read, bytes)
  }
  if (head?.rows == null || head.rows === '') { for (const p of searches) p.done([]); return }
  asked.forEach((w, i) => { normalized.set(w, parseTermQuery(head.tq?.[i] ?? '')) })
  const docs = head.rows.split('\n').map(line => {
    const [id, secs, idx] = line.split(' ', 3)
    const tab = line.indexOf('\t')
    return { row: { id, ts: Number(secs), idx: Number(idx), whole: line.slice(tab + 1) }, doc: parseTsvector(line.slice(id.length + secs.length + idx.length + 3, tab)) }
  })
  const key = channelsKey(channels)
  const cuts = searches.map(p => {
    const picked = new Set(p.pick)
    const terms = p.tsqs.map(w => normalized.get(w) ?? { parts: [] })
    const { scored, df } = bm25({
      rows: docs,
      terms,
      n,
      selecting: p.pick,
      // A selecting word's turns are all among the candidates; another word's count is
      // estimated (its share of the table, or what a search counted).
      dfFloor: p.shares.map((s, i) => picked.has(i) ? 0 : Math.max(s * n, p.counted[i] ?? 0)),
    })
    // Counted exactly unless the candidates were cut off.
    if (docs.length < limit) countTurns(db, key, p.pick.map(i => p.tsqs[i]), p.pick.map(i => df[i]), n)
    scored.sort((a, b) => b.score - a.score || b.row.ts - a.row.ts || b.row.idx - a.row.idx)
    return scored.slice(0, p.q.limit)
  })
  // Only the rows that made a cut are read out of their JSON; times come back as Dates, as the driver's do.
  const rows = new Map<string, Row>()
  const rowOf = (c: { id: string, whole: string }): Row => {
    let row = rows.get(c.id)
    if (row === undefined) {
      const values = JSON.parse(c.whole) as unknown[]
      row = Object.fromEntries(columns.map((name, i) => [name, name === 'ts' ? new Date(String(values[i])) : values[i]]))
      rows.set(c.id, row)
    }
    return row
  }
  searches.forEach((p, k) => { p.done(cuts[k].map(({ row, score }) => ({ ...rowOf(row), score }))) })
}
