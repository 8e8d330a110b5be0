// SQL for vectors in both storage modes. pgvector: `embedding vector` (no fixed size, so
// one column serves every embedder) with one HNSW expression index per dimension, cast
// to vector(N) in the query so the planner can use it. Fallback: `real[]` and an exact
// cosine in SQL; our vectors are unit length, so cosine is the dot product, computed by
// agentd_dot (below).
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { VectorQuery } from '../../contracts/memory-stores.ts'
import type { Row } from './rows.ts'
import { PerDatabase } from './per-database.ts'

export type VectorMode = 'vector' | 'real[]'

function checkDims (dims: number): number {
  if (!Number.isInteger(dims) || dims < 1 || dims > 16000) throw new Error(`vector dimension ${dims} is out of range (1-16000)`)
  return dims
}

function finite (v: number[]): number[] {
  for (const x of v) if (!Number.isFinite(x)) throw new Error('a vector holds a non-finite number')
  return v
}

/** The value to bind for an embedding column, or null. */
export function vectorValue (mode: VectorMode, v: number[] | undefined): RawBuilder<unknown> {
  if (v === undefined) return sql`NULL`
  finite(v)
  return mode === 'vector' ? sql`${`[${v.join(',')}]`}::vector` : sql`${`{${v.join(',')}}`}::real[]`
}

/** Cosine similarity of `table.embedding` to `v`, as an SQL expression. */
export function similarity (mode: VectorMode, alias: string, v: number[]): RawBuilder<number> {
  const dims = checkDims(v.length)
  finite(v)
  const col = sql.ref(`${alias}.embedding`)
  if (mode === 'vector') return sql<number>`(1 - (${col}::vector(${sql.lit(dims)}) <=> ${`[${v.join(',')}]`}::vector(${sql.lit(dims)})))`
  return sql<number>`agentd_dot(${col}, ${`{${v.join(',')}}`}::real[])`
}

/**
 * The dot product of two real[] for the fallback, in PL/pgSQL (no extension needed),
 * created by the relational and the graph migrations. Against `(SELECT sum(a*b) FROM
 * unnest(col, q))` per row it is cheaper (an 8-wide unrolled loop, no function scan), and
 * being a PARALLEL SAFE function rather than a correlated subquery, PostgreSQL can spread
 * the scan over parallel workers. Arrays of different lengths give NULL (sorted last).
 */
export async function createDotFunction (db: Kysely<unknown>): Promise<void> {
  await sql.raw(`CREATE OR REPLACE FUNCTION agentd_dot(a real[], b real[]) RETURNS float8
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
    DECLARE s float8 := 0; n int := cardinality(a); i int := 1;
    BEGIN
      IF n <> cardinality(b) THEN RETURN NULL; END IF;
      WHILE i + 7 <= n LOOP
        s := s + (a[i]*b[i] + a[i+1]*b[i+1] + a[i+2]*b[i+2] + a[i+3]*b[i+3] + a[i+4]*b[i+4] + a[i+5]*b[i+5] + a[i+6]*b[i+6] + a[i+7]*b[i+7]);
        i := i + 8;
      END LOOP;
      WHILE i <= n LOOP s := s + a[i]*b[i]; i := i + 1; END LOOP;
      RETURN s;
    END $fn$`).execute(db)
}

/**
 * The exact order: by the selected `score` column. Naming the output column (rather than
 * repeating the similarity expression, whose vector is a second bound parameter and so
 * not recognised as the same expression) computes each row's similarity once, not twice.
 */
const BY_SCORE = sql`score DESC NULLS LAST`

/** ORDER BY fragment: the index-friendly distance for pgvector, the score otherwise. */
export function nearestOrder (mode: VectorMode, alias: string, v: number[]): RawBuilder<unknown> {
  const dims = checkDims(v.length)
  const col = sql.ref(`${alias}.embedding`)
  if (mode === 'vector') return sql`${col}::vector(${sql.lit(dims)}) <=> ${`[${v.join(',')}]`}::vector(${sql.lit(dims)})`
  return BY_SCORE
}

/**
 * Runs a nearest-neighbour query with the index-friendly order; when the approximate
 * (HNSW) scan returns fewer rows than asked (a filter more selective than the planning in
 * nearestRows foresaw, or a graph region the walk did not reach), runs it again as an
 * exact scan, so the result is never short of rows that exist. `run` must select
 * `similarity(...) AS score`.
 */
export async function nearest<R> (mode: VectorMode, alias: string, v: number[], limit: number, run: (order: RawBuilder<unknown>) => Promise<R[]>): Promise<R[]> {
  const rows = await run(nearestOrder(mode, alias, v))
  if (mode !== 'vector' || rows.length >= limit) return rows
  return await run(BY_SCORE)
}

/**
 * Up to this many rows in the searched channels, nearestRows skips HNSW and scores every
 * row of those channels (found through the channel btree index every vector table has).
 * Measured on PGlite (WASM), 384 dimensions, 50k rows + channels of 20-5k rows added
 * after the index, 30 asked, p50: the exact scan costs about 1 ms + 3 us per row (200
 * rows 1.5 ms, 1k 3.8 ms, 2k 7 ms, 5k 16 ms, 50k 146 ms); HNSW costs 3-6 ms while the
 * channel is a fair share of the table, but the smaller the channel, the more of the
 * graph its iterative scan walks to find rows that pass the filter (1k rows: 7.5 ms, 200:
 * 32 ms, 20: 160 ms and still one row short, so the exact re-run follows). The two meet
 * between 1k and 2k rows. The threshold errs high: past it the exact scan's cost is
 * bounded (about 7 ms at 2k), while an HNSW search of too small a channel is not, and the
 * fewer rows the table holds besides, the cheaper that HNSW search, so the crossover only
 * moves up as tables grow.
 */
export const EXACT_SCAN_MAX_ROWS = 2000

/**
 * The verdict is kept per database, table and channel set, so a recall (four vector tables)
 * does not count before every search. Counting a big channel up to the threshold costs
 * 1-7 ms on PGlite (the heap is read for visibility), more than its HNSW search: "many
 * rows" is kept a minute (channels seldom shrink; HNSW falls back to exact when short).
 * "Few rows" is kept briefly, since small channels grow: a stale one only means an exact
 * scan of a little over the threshold (about 7 ms). Either way a stale verdict costs
 * speed, never results.
 */
const KEPT_MS = { many: 60_000, few: 10_000 }
// Bounded: one entry per channel set searched.
const verdicts = new PerDatabase<{ few: boolean, until: number }>(1000)

/**
 * Filtered-search planning: true when the asked channels of `table` hold at most `max`
 * rows, counted through the channel index and stopped past the limit, so a big channel
 * costs no more than a small one. Only a speed choice: both plans give the same top-k.
 */
export async function fewRows (db: Kysely<unknown>, table: string, channels: string[], max = EXACT_SCAN_MAX_ROWS): Promise<boolean> {
  const key = `${table}\0${max}\0${channels.length === 1 ? channels[0] : [...channels].sort().join('\0')}`
  const now = Date.now()
  const known = verdicts.get(db, key)
  if (known !== undefined && known.until > now) return known.few
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${sql.table(table)}
    WHERE channel = ANY(${channels}::text[]) LIMIT ${max + 1}) s`.execute(db)
  const few = Number(r.rows[0]?.n ?? 0) <= max
  verdicts.set(db, [[key, { few, until: now + (few ? KEPT_MS.few : KEPT_MS.many) }]])
  return few
}

export interface NearestFrom { table: string, alias: string, cols: RawBuilder<unknown>, where?: RawBuilder<unknown> }

/** The similarity query of nearestRows with a given ORDER BY (exported so a test can EXPLAIN it). */
export function nearestSql (mode: VectorMode, from: NearestFrom, q: VectorQuery, order: RawBuilder<unknown>): RawBuilder<Row> {
  const v = q.embedding.vector
  const a = from.alias
  const ref = (c: string): RawBuilder<unknown> => sql.ref(`${a}.${c}`)
  return sql<Row>`SELECT ${from.cols}, ${similarity(mode, a, v)} AS score
    FROM ${sql.table(from.table)} ${sql.id(a)}
    WHERE ${ref('embedding_dims')} = ${sql.lit(checkDims(v.length))} AND ${ref('embedder')} = ${q.embedding.embedder}
      AND ${ref('channel')} = ANY(${q.channels}::text[])${from.where === undefined ? sql`` : sql` AND ${from.where}`}
    ORDER BY ${order} LIMIT ${q.limit}`
}

/**
 * The `q.limit` rows of `table` nearest to the query vector, best first, each with its
 * cosine as `score`: only vectors of the same size made by the same embedder, only in the
 * asked channels, and only rows that pass `where` when given. Shared by every SQL store.
 * With pgvector, a search of few rows (fewRows) is an exact scan of them; otherwise HNSW.
 */
export async function nearestRows (db: Kysely<unknown>, mode: VectorMode, from: NearestFrom, q: VectorQuery): Promise<Row[]> {
  const v = q.embedding.vector
  const run = async (order: RawBuilder<unknown>): Promise<Row[]> => (await nearestSql(mode, from, q, order).execute(db)).rows
  if (mode === 'vector' && await fewRows(db, from.table, q.channels)) return await run(BY_SCORE)
  return await nearest(mode, from.alias, v, q.limit, run)
}

/** One HNSW index per (table, dimension); the partial predicate keeps other sizes out of it. */
export async function ensureVectorIndex (db: Kysely<unknown>, mode: VectorMode, table: string, dims: number): Promise<void> {
  if (mode !== 'vector') return
  checkDims(dims)
  await sql.raw(`CREATE INDEX IF NOT EXISTS ${table}_embedding_hnsw_${dims} ON ${table}
    USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE embedding_dims = ${dims}`).execute(db)
}

/** `%`, `_` and `\` taken literally inside an ILIKE pattern (ESCAPE '\'). */
export function likeContains (s: string): string {
  return `%${s.replace(/[\\%_]/g, m => `\\${m}`)}%`
}
