// BM25 over the candidates a keyword search fetched, scored in JavaScript from each turn's
// stored tsvector (its text form). Postgres evaluating one match per query word per row
// plus ts_rank_cd and window sums took 2-4 ms a search on PGlite for ~140 candidates of a
// 520-turn channel (WASM); reading the rows once and scoring here takes a tenth of that.
// The parsing follows Postgres's own output: a tsvector prints as `'lexeme':1,3 'other':2`
// and a tsquery as `'adopt':*` or, for a word the parser splits, `'o' <-> 'brien'`.

/** One query word as the database normalized it: every part must be in the turn. */
export interface TermQuery { parts: Array<{ lexeme: string, prefix: boolean }> }

const QUOTED = /'((?:[^'\\]|''|\\.)*)'(:\*|:[0-9A-D,]+)?/g
const unquote = (s: string): string => s.replace(/''/g, "'").replace(/\\(.)/g, '$1')

/**
 * A tsvector's text form: each lexeme with how often the turn itself says it (its
 * positions; 1 if stripped). A turn's own words are weight A and the words of the turns it
 * answers weight D (migration 8), which Postgres prints without a letter (`'dog':2A
 * 'hotel':9`): a lexeme only there maps to 0. A vector with no letter at all (written
 * before weights, or by hand) is the turn's own words throughout. Scanned by hand rather
 * than by a regular expression: this runs on every candidate of every search.
 */
export function parseTsvector (text: string): Map<string, number> {
  const out = new Map<string, number>()
  // Per lexeme: its lettered positions, or minus its unlettered ones while it has none
  // (settled at the end, once it is known whether the vector has letters at all).
  let lettered = false
  let unsettled = false
  let i = 0
  const end = text.length
  while (i < end) {
    if (text.charCodeAt(i) !== 39 /* ' */) { i++; continue }
    let lexeme = ''
    let from = ++i
    for (;;) {
      if (i >= end) return unsettled ? settle(out, lettered) : out
      const c = text.charCodeAt(i)
      if (c === 92 /* \ */) { lexeme += text.slice(from, i); from = ++i; i++; continue }
      if (c === 39) {
        if (text.charCodeAt(i + 1) === 39) { lexeme += text.slice(from, i + 1); i += 2; from = i; continue }
        lexeme += text.slice(from, i)
        i++
        break
      }
      i++
    }
    let own = 0
    let plain = 0
    if (text.charCodeAt(i) === 58 /* : */) {
      i++
      while (i < end) {
        const c = text.charCodeAt(i)
        if (c === 32 /* space */) break
        // A position ends at a comma or the lexeme's end; a letter (A-C) before it is its weight.
        const next = text.charCodeAt(i + 1)
        if (next === 44 /* , */ || next === 32 || i + 1 >= end) {
          if (c >= 65 && c <= 67) own++
          else plain++
        }
        i++
      }
    } else {
      plain = 1
    }
    if (own > 0) lettered = true
    else unsettled = true
    out.set(lexeme, own > 0 ? own : -plain)
  }
  // Most turns have no context words: nothing to settle, no second pass.
  return unsettled ? settle(out, lettered) : out
}

function settle (doc: Map<string, number>, lettered: boolean): Map<string, number> {
  for (const [lexeme, n] of doc) if (n < 0) doc.set(lexeme, lettered ? 0 : -n)
  return doc
}

/** How much a word only in a turn's context (weight D) counts beside its own words, in a match and in its length. */
export const CONTEXT_WEIGHT = 0.3

/**
 * A turn's length for BM25: its own lexemes, and its context's at CONTEXT_WEIGHT. Numbers
 * only in its context are its date words (the recall kit's dates.ts: `20230507`, `202305`,
 * `2023`): they say when, not what, and count nothing, or a turn that says "last week" (seven
 * days) would rank below its neighbours for every question that names no date.
 */
export function lengthOf (doc: Map<string, number>): number {
  let n = 0
  for (const [lexeme, v] of doc) n += v > 0 ? 1 : isNumber(lexeme) ? 0 : CONTEXT_WEIGHT
  return n
}

const isNumber = (lexeme: string): boolean => /^\d+$/.test(lexeme)

/** A tsquery's text form for one word: its lexemes, each whole or a prefix (`:*`). */
export function parseTermQuery (text: string): TermQuery {
  return { parts: [...text.matchAll(QUOTED)].map(m => ({ lexeme: unquote(m[1]), prefix: m[2] === ':*' })) }
}

/** The lexemes of `doc` the term matched; none when it does not match (a part missing). */
export function termMatches (doc: Map<string, number>, term: TermQuery): string[] {
  if (term.parts.length === 0) return []
  const out: string[] = []
  for (const part of term.parts) {
    const before = out.length
    if (part.prefix) {
      for (const lexeme of doc.keys()) if (lexeme.startsWith(part.lexeme)) out.push(lexeme)
    } else if (doc.has(part.lexeme)) {
      out.push(part.lexeme)
    }
    if (out.length === before) return []
  }
  return out
}

/** A candidate: its row and its lexemes; `seen` keeps its matches and `size` its length when several searches score it. */
export interface Bm25Row<T> { row: T, doc: Map<string, number>, seen?: Map<TermQuery, string[]>, size?: number }

const sizeOf = <T>(r: Bm25Row<T>): number => (r.size ??= lengthOf(r.doc))

function matchesOf<T> (r: Bm25Row<T>, term: TermQuery): string[] {
  r.seen ??= new Map()
  let m = r.seen.get(term)
  if (m === undefined) { m = termMatches(r.doc, term); r.seen.set(term, m) }
  return m
}

export interface Bm25Input<T> {
  rows: Array<Bm25Row<T>>
  terms: TermQuery[]
  /** Turns in the channels searched. */
  n: number
  /** The terms that selected the candidates: a row matching none of them is not scored (another search's candidate). */
  selecting: number[]
  /**
   * A floor for each term's document count: the candidates hold every turn with a word
   * that selected them, but only some with a common word that did not (its count is then
   * estimated from the planner statistics).
   */
  dfFloor: number[]
}

const B = 0.75

/**
 * BM25 with binary term frequency (a chat turn rarely repeats a word), length normalised
 * by lexemes against the candidates' mean (lengthOf), a word only in the turn's context
 * counting at CONTEXT_WEIGHT of its IDF, plus 0.01 per occurrence of a query word as
 * the tie-breaker (what ts_rank_cd gives an OR query, 0.1 per position holding a query
 * word, weighed by 0.1 as the SQL version did; a position counts once). Only turns matching some term are scored.
 */
export interface Bm25Result<T> {
  scored: Array<{ row: T, score: number }>
  /** Each term's document count as weighed: exact for a selecting term (every turn holding it is a candidate). */
  df: number[]
}

export function bm25<T> (input: Bm25Input<T>): Bm25Result<T> {
  const { terms } = input
  const rows: Bm25Input<T>['rows'] = []
  const hits: string[][][] = []
  for (const r of input.rows) {
    const h = terms.map(term => matchesOf(r, term))
    if (!input.selecting.some(i => h[i].length > 0)) continue
    rows.push(r); hits.push(h)
  }
  const df = terms.map((_, i) => Math.max(input.dfFloor[i] ?? 0, hits.reduce((n, h) => n + (h[i].length > 0 ? 1 : 0), 0)))
  const N = Math.max(input.n, ...df, 1)
  const idf = df.map(d => Math.log(1 + (N - d + 0.5) / (d + 0.5)))
  const avgdl = Math.max(rows.reduce((s, r) => s + sizeOf(r), 0) / Math.max(rows.length, 1), 1)
  const out: Array<{ row: T, score: number }> = []
  rows.forEach((r, k) => {
    let weight = 0
    const matched = new Set<string>()
    hits[k].forEach((lexemes, i) => {
      if (lexemes.length === 0) return
      // A word the turn says itself weighs in full; one only in what it answers, less.
      weight += lexemes.some(l => (r.doc.get(l) ?? 0) > 0) ? idf[i] : CONTEXT_WEIGHT * idf[i]
      for (const l of lexemes) matched.add(l)
    })
    if (matched.size === 0) return
    let occurrences = 0
    for (const l of matched) occurrences += r.doc.get(l) ?? 0
    out.push({ row: r.row, score: weight / ((1 - B) + B * sizeOf(r) / avgdl) + 0.01 * occurrences })
  })
  return { scored: out, df }
}
