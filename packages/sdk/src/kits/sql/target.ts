// Which SQL backend serves memory: plugin options first, then the environment
// (POSTGRES_URI, or POSTGRES_USER/POSTGRES_PASSWORD/POSTGRES_DB/POSTGRES_HOST/POSTGRES_PORT),
// else the embedded PGlite under AGENT_DATA_DIR. Every plugin on this database takes
// these options (memory-sql, memory-graph-sql, a job queue): left at their defaults, all
// resolve to the same target and so to the same pooled handle.
import path from 'node:path'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { FastifyInstance } from 'fastify'

export const SqlOptionsSchema = Type.Object({
  backend: Type.Union([Type.Literal('auto'), Type.Literal('pglite'), Type.Literal('postgres')], { default: 'auto', description: 'auto: postgres when a URI or POSTGRES_* variables are set, else pglite' }),
  postgres_uri: Type.Optional(Type.String({ minLength: 1, description: 'overrides POSTGRES_URI' })),
  schema: Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$', default: 'public', description: 'PostgreSQL schema holding the memory tables' }),
  pglite_dir: Type.Optional(Type.String({ minLength: 1, description: 'PGlite data folder (default AGENT_DATA_DIR/pglite); "memory" keeps it in RAM' })),
  pool_size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  connect_timeout_ms: Type.Integer({ minimum: 100, maximum: 60_000, default: 3000 }),
  circuit_cooldown_ms: Type.Integer({ minimum: 0, maximum: 600_000, default: 5000, description: 'after a connection failure, skip PostgreSQL this long (calls fail at once) so a server that does not answer does not slow every chat; 0: never skip' }),
})
export type SqlOptions = Static<typeof SqlOptionsSchema>

export type SqlTarget =
  // `load` (in memory only): a dump to start from (PGlite's dumpDataDir) instead of the empty
  // seed; tests that need the same filled database many times make it once.
  | { backend: 'pglite', dir: string | null, schema: string, load?: Blob }
  | { backend: 'postgres', uri: string, schema: string, poolSize: number, connectTimeoutMs: number, cooldownMs?: number }

function uriFromParts (env: Readonly<Record<string, string | undefined>>): string | undefined {
  const { POSTGRES_USER: user, POSTGRES_PASSWORD: password, POSTGRES_DB: db } = env
  if (user === undefined && db === undefined) return undefined
  const u = new URL('postgresql://localhost')
  u.hostname = env.POSTGRES_HOST ?? '127.0.0.1'
  u.port = env.POSTGRES_PORT ?? '5432'
  u.username = user ?? 'postgres'
  if (password !== undefined && password !== '') u.password = password
  u.pathname = `/${db ?? 'postgres'}`
  return u.toString()
}

export function resolveTarget (app: FastifyInstance, opts: SqlOptions): SqlTarget {
  const env = app.agentConfig.env
  const uri = opts.postgres_uri ?? (env.POSTGRES_URI !== undefined && env.POSTGRES_URI !== '' ? env.POSTGRES_URI : undefined) ?? uriFromParts(env)
  const backend = opts.backend === 'auto' ? (uri === undefined ? 'pglite' : 'postgres') : opts.backend
  if (backend === 'postgres') {
    if (uri === undefined) throw new Error('SQL store: backend "postgres" needs a connection: set POSTGRES_URI (or POSTGRES_USER/POSTGRES_DB) or the plugin option postgres_uri.')
    return { backend, uri, schema: opts.schema, poolSize: opts.pool_size, connectTimeoutMs: opts.connect_timeout_ms, cooldownMs: opts.circuit_cooldown_ms }
  }
  const dir = opts.pglite_dir === 'memory' ? null : path.resolve(app.agentConfig.settings.dataDir, opts.pglite_dir ?? 'pglite')
  return { backend: 'pglite', dir, schema: opts.schema }
}

/** A URI without its password, for logs and health. */
export function redactUri (uri: string): string {
  try {
    const u = new URL(uri)
    if (u.password !== '') u.password = '***'
    return u.toString()
  } catch { return 'postgres (unparseable URI)' }
}
