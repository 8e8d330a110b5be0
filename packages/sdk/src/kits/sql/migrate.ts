// Versioned migrations, one list per component (relational, graph), recorded in
// agentd_migrations. Each runs in a transaction under an advisory lock, so two servers
// (or two generations) starting at once apply each version exactly once, and running
// them again is a no-op.
import { sql, type Kysely } from 'kysely'

export interface MigrationContext {
  /** `vector` when pgvector is installed, else `real[]`. */
  vectorType: string
}

export interface Migration {
  version: number
  name: string
  up: (db: Kysely<unknown>, ctx: MigrationContext) => Promise<void>
}

export async function migrate (db: Kysely<unknown>, component: string, migrations: Migration[], ctx: MigrationContext): Promise<number[]> {
  return await db.transaction().execute(async trx => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':agentd-migrations'))`.execute(trx)
    await sql`CREATE TABLE IF NOT EXISTS agentd_migrations (
      component text NOT NULL, version integer NOT NULL, name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (component, version))`.execute(trx)
    const done = await sql<{ version: number }>`SELECT version FROM agentd_migrations WHERE component = ${component}`.execute(trx)
    const have = new Set(done.rows.map(r => Number(r.version)))
    const applied: number[] = []
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (have.has(m.version)) continue
      await m.up(trx, ctx)
      await sql`INSERT INTO agentd_migrations (component, version, name) VALUES (${component}, ${m.version}, ${m.name})`.execute(trx)
      applied.push(m.version)
    }
    return applied
  })
}

/** pgvector when the server has it (installing it if allowed), else the real[] fallback. */
export async function detectVector (db: Kysely<unknown>): Promise<{ type: 'vector' | 'real[]', warning?: string }> {
  const avail = await sql<{ installed: string | null }>`SELECT installed_version AS installed FROM pg_available_extensions WHERE name = 'vector'`.execute(db)
  if (avail.rows.length === 0) {
    return { type: 'real[]', warning: 'pgvector is not installed on this PostgreSQL server: similarity search uses an exact cosine scan over real[] (correct but linear). To get HNSW indexes, install pgvector on the server (package postgresql-<version>-pgvector) and restart or reload agentd: the embedding columns are converted to vector at start, data kept.' }
  }
  if (avail.rows[0].installed === null) {
    try {
      await sql`CREATE EXTENSION IF NOT EXISTS vector`.execute(db)
    } catch (err) {
      return { type: 'real[]', warning: `pgvector is available but could not be enabled (${(err as Error).message}): run CREATE EXTENSION vector as a superuser, then restart or reload agentd (the embedding columns are converted at start, data kept). Using an exact cosine scan over real[] meanwhile.` }
    }
  }
  return { type: 'vector' }
}

/**
 * Converts real[] embedding columns to pgvector's `vector` (pgvector has a real[] -> vector
 * cast; the column has no fixed size, so every row keeps its own dimension). For a
 * database first set up without pgvector, once pgvector is there. Under the migrations'
 * advisory lock, in one transaction; returns the tables converted.
 */
export async function upgradeVectorColumns (db: Kysely<unknown>, tables: string[]): Promise<string[]> {
  return await db.transaction().execute(async trx => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':agentd-migrations'))`.execute(trx)
    const done: string[] = []
    for (const table of tables) {
      if (await columnVectorType(trx, table) === 'vector') continue
      const exists = await sql`SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = 'embedding'`.execute(trx)
      if (exists.rows.length === 0) continue
      await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN embedding TYPE vector USING embedding::vector`.execute(trx)
      done.push(table)
    }
    return done
  })
}

/** The actual type of an embedding column: 'vector' or 'real[]' (a database migrated before pgvector existed stays real[]). */
export async function columnVectorType (db: Kysely<unknown>, table: string): Promise<'vector' | 'real[]'> {
  const r = await sql<{ udt: string }>`SELECT udt_name AS udt FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = 'embedding'`.execute(db)
  return r.rows[0]?.udt === 'vector' ? 'vector' : 'real[]'
}
