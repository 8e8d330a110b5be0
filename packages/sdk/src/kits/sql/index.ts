// The SQL-store kit: what a plugin needs to keep its data in agentd's SQL database,
// PGlite (embedded, the default) or PostgreSQL, through Kysely.
//
//   target     plugin options (SqlOptionsSchema) -> SqlTarget: options, then POSTGRES_URI /
//              POSTGRES_*, else PGlite under AGENT_DATA_DIR/pglite
//   connect    SqlHandle (Kysely `db`, backend, schema, label, breaker, and the driver:
//              `pglite` or `pool`); openSql (outside the pool), acquireSql / sqlResource
//   migrate    versioned migrations per component under an advisory lock; pgvector detection
//   sql-ready  per store: migrations + vector mode + real[] -> vector upgrade + lazy HNSW indexes
//   vector     vector SQL for pgvector and the exact real[] fallback; nearestRows
//   reembed    stale vectors of another embedder, and writing new ones
//   shared-tx  two stores on one database deleting a channel in one transaction
//   unavailable + breaker   connection failures -> StoreUnavailableError, with a cool-down
//   rows       driver row -> contract value conversions; jsonb text
//   statistics PGlite has no autovacuum: tables that grew are ANALYZEd (keepStatistics)
//
// Sharing the database with another plugin (a job queue on the memory stores' PGlite):
// resolve the target from the same options and acquire it from the resource pool,
//
//   const target = resolveTarget(app, opts)       // opts validated by SqlOptionsSchema
//   const h = await acquireSql(app, target)       // = app.resources.acquire(sqlResource(target, app.log))
//
// An equal target is the same pool key (`sql:<backend>` + the target), so every plugin
// gets the same instance, kept across reloads while one holds it. With default options
// every plugin resolves the same target. PGlite has one connection: use `h.db` (its
// driver queues callers, a transaction holds the connection) or `h.pglite` for a library
// that wants the instance (pg-boss: `fromPglite(h.pglite)`); PGlite's own lock keeps a
// query of that library out of a Kysely transaction (see pglite-dialect.ts). On
// PostgreSQL, `h.pool` is the shared pg Pool (its search_path is the target's schema).
// Do not close a pooled handle: the pool does when the last holder's generation closes.
export * from './target.ts'
export * from './connect.ts'
export * from './migrate.ts'
export * from './sql-ready.ts'
export * from './vector.ts'
export * from './reembed.ts'
export * from './shared-tx.ts'
export * from './unavailable.ts'
export * from './breaker.ts'
export * from './rows.ts'
export { PerDatabase } from './per-database.ts'
export { analyzeStale, keepStatistics, staleTables, StatementCounter, STATISTICS_CHECK_MS } from './statistics.ts'
export { NulSafePlugin } from './nul-safe.ts'
export { PGliteDialect } from './pglite-dialect.ts'
export { ensurePgliteSeed, pgliteSeedDir } from './pglite-seed.ts'
export { SqlStore } from './store-base.ts'
