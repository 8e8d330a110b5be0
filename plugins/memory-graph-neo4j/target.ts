// Where the Neo4j graph store connects: plugin options first, then NEO4J_URI, NEO4J_USER,
// NEO4J_PASSWORD and NEO4J_DATABASE (from the environment or .env, re-read by every
// generation, so editing .env switches the graph store live). No URI: not configured.
import { Type, type Static } from '@agentd/sdk/typebox'

export const Neo4jOptionsSchema = Type.Object({
  uri: Type.Optional(Type.String({ minLength: 1, description: 'overrides NEO4J_URI (bolt://, neo4j://, neo4j+s://...)' })),
  user: Type.Optional(Type.String({ minLength: 1, description: 'overrides NEO4J_USER (default neo4j)' })),
  password: Type.Optional(Type.String({ description: 'overrides NEO4J_PASSWORD' })),
  database: Type.Optional(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9.-]{0,62}$', description: 'overrides NEO4J_DATABASE (default: the server\'s default database)' })),
  pool_size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  connect_timeout_ms: Type.Integer({ minimum: 100, maximum: 60_000, default: 3000 }),
  circuit_cooldown_ms: Type.Integer({ minimum: 0, maximum: 600_000, default: 5000, description: 'after a connection failure, skip Neo4j this long (calls fail at once) so a server that does not answer does not slow every chat; 0: never skip' }),
}, { additionalProperties: false })
export type Neo4jOptions = Static<typeof Neo4jOptionsSchema>

export interface Neo4jTarget {
  uri: string
  user: string
  password: string
  database: string | undefined
  poolSize: number
  connectTimeoutMs: number
  cooldownMs: number
}

const set = (v: string | undefined): string | undefined => v === undefined || v === '' ? undefined : v

/** The connection to use, or undefined when neither the options nor the environment name a server. */
export function resolveNeo4jTarget (env: Readonly<Record<string, string | undefined>>, opts: Neo4jOptions): Neo4jTarget | undefined {
  const uri = opts.uri ?? set(env.NEO4J_URI)
  if (uri === undefined) return undefined
  return {
    uri,
    user: opts.user ?? set(env.NEO4J_USER) ?? 'neo4j',
    password: opts.password ?? env.NEO4J_PASSWORD ?? '',
    database: opts.database ?? set(env.NEO4J_DATABASE),
    poolSize: opts.pool_size,
    connectTimeoutMs: opts.connect_timeout_ms,
    cooldownMs: opts.circuit_cooldown_ms,
  }
}

/** A URI without credentials, for logs and health. */
export function redactNeo4jUri (uri: string): string {
  try {
    const u = new URL(uri)
    if (u.password !== '') u.password = '***'
    return u.toString()
  } catch { return 'neo4j (unparseable URI)' }
}
