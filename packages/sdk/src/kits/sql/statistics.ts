// Planner statistics for PGlite. PostgreSQL's autovacuum ANALYZEs a table as it grows;
// PGlite runs Postgres in single-user mode, where no autovacuum runs, so a table is never
// analyzed unless someone asks. Without statistics the planner guesses selectivities: at
// 50k facts it estimated one row for "channel = ANY(...) AND superseded_at IS NULL"
// (a BitmapAnd of two indexes) and chose a bitmap scan of every row plus a sort over the
// HNSW index, 160 ms instead of 1 ms (bench/memory.bench.ts). Once a table has been
// analyzed, the planner scales its row estimates with the table's current size, so
// statistics only need refreshing when a table has grown a lot since: the rule below
// analyzes a table without column statistics once it holds a few pages (CREATE INDEX
// sets a table's size in pg_class but gathers no column statistics, so pg_statistic is
// what tells), and one analyzed before once it has doubled (autovacuum's own threshold, 50 rows + 10%, would re-analyze far more
// often than the plans change).
import { sql, type Kysely, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely'

/** A table this small is scanned whatever the plan; analyzing it buys nothing. */
const MIN_PAGES = 8

interface TableSize { name: string, analyzed_pages: number, never: boolean, pages: number }

/** The schema's tables whose statistics are missing or stale by the rule above. */
export async function staleTables (db: Kysely<unknown>, schema: string): Promise<string[]> {
  const r = await sql<TableSize>`SELECT quote_ident(c.relname) AS name, c.relpages AS analyzed_pages, NOT EXISTS (SELECT 1 FROM pg_statistic s WHERE s.starelid = c.oid) AS never,
      (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schema} AND c.relkind = 'r'`.execute(db)
  return r.rows
    .filter(t => t.pages >= MIN_PAGES && (t.never || t.pages > 2 * Math.max(t.analyzed_pages, MIN_PAGES)))
    .map(t => t.name)
}

/** ANALYZEs the stale tables of `schema`; returns their names. */
export async function analyzeStale (db: Kysely<unknown>, schema: string): Promise<string[]> {
  const stale = await staleTables(db, schema)
  const ns = `"${schema.replace(/"/g, '""')}"`
  for (const t of stale) {
    // Vector columns left out: no query filters on them, and sampling their values is most
    // of an ANALYZE's time (1.3 s of 1.4 s at 50k rows of 384 dimensions in PGlite).
    const cols = await sql<{ name: string }>`SELECT quote_ident(a.attname) AS name FROM pg_attribute a
      WHERE a.attrelid = ${`${ns}.${t}`}::regclass AND a.attnum > 0 AND NOT a.attisdropped
        AND format_type(a.atttypid, NULL) NOT IN ('vector', 'real[]')`.execute(db)
    if (cols.rows.length === 0) continue
    // A sample of 3,000 rows (target 10) rather than 30,000: enough for the planner's
    // choices here (index or not), and it reads a tenth of the pages.
    await db.transaction().execute(async tx => {
      await sql`SET LOCAL default_statistics_target = 10`.execute(tx)
      await sql.raw(`ANALYZE ${ns}.${t} (${cols.rows.map(c => c.name).join(', ')})`).execute(tx)
    })
  }
  return stale
}

/**
 * How often an embedded database's statistics are checked: one catalog query, and an
 * ANALYZE only when a table doubled (so a handful in a table's life). Every minute was too
 * seldom: an import of 1,300 messages takes half a minute, and the questions after it were
 * planned on statistics taken at 200 turns (a channel created since estimated at one row):
 * keyword search's candidates came from a sequential scan, or an index scan of the whole
 * channel testing every turn's tsvector, instead of a BitmapAnd of two indexes (2.5 ms
 * against 1.0 ms a statement, bench/chat-recall.bench.ts).
 */
export const STATISTICS_CHECK_MS = 10_000

/**
 * Counts the statements a Kysely instance runs (a plugin of it): keepStatistics skips its
 * check while the count stands still, so a database at rest is not asked anything (the
 * catalog query was, with its garbage, most of an idle server's CPU after the job queue's).
 */
export class StatementCounter implements KyselyPlugin {
  count = 0
  transformQuery (args: PluginTransformQueryArgs): RootOperationNode { this.count++; return args.node }
  async transformResult (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> { return args.result }
}

/**
 * Keeps PGlite's statistics fresh: checks `firstMs` after opening (not during start, when
 * the stores migrate) and then every `everyMs`, on timers that do not hold the process open. Returns the function that stops it. Failures (the
 * database closing under it) are reported to `onError` and the timer goes on. Given the
 * database's `StatementCounter`, a check happens only when statements ran since the last.
 */
export function keepStatistics (db: Kysely<unknown>, schema: string, onError: (err: unknown) => void, everyMs = STATISTICS_CHECK_MS, firstMs = 5_000, activity?: StatementCounter): () => void {
  let stopped = false
  let running: Promise<void> | undefined
  let seen = -1
  const check = (): void => {
    if (stopped || running !== undefined) return
    if (activity !== undefined && activity.count === seen) return
    running = analyzeStale(db, schema).then(() => undefined, err => { if (!stopped) onError(err) }).finally(() => {
      running = undefined
      // The check's own statements do not count as activity.
      if (activity !== undefined) seen = activity.count
    })
  }
  const timer = setInterval(check, everyMs)
  timer.unref()
  const first = setTimeout(check, firstMs)
  first.unref()
  return () => { stopped = true; clearInterval(timer); clearTimeout(first) }
}
