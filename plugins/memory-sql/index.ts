// Plugin: the relational + vector memory store on SQL. PGlite (embedded, files under
// AGENT_DATA_DIR) by default; PostgreSQL when POSTGRES_URI / POSTGRES_* or the
// `postgres_uri` option is set. pgvector with HNSW when the database has it, an exact
// cosine scan over real[] otherwise (with a warning in the log and in health).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import { SqlOptionsSchema, acquireSql, resolveTarget, type SqlOptions } from '@agentd/sdk/kits/sql'
import { SqlRelationalStore } from './relational-store.ts'

export const options = SqlOptionsSchema

async function memorySql (app: FastifyInstance, opts: PluginOptions<SqlOptions>): Promise<void> {
  const target = resolveTarget(app, opts)
  const handle = await acquireSql(app, target)
  const store = new SqlRelationalStore(handle)
  try {
    await store.init()
    if (store.upgraded.length > 0) app.log.info({ backend: handle.label, tables: store.upgraded }, 'memory-sql: pgvector is available now: embedding columns converted from real[] to vector (HNSW indexes are built on first use)')
    const h = await store.health()
    if (h.warning !== undefined) app.log.warn({ backend: handle.label }, `memory-sql: ${h.warning}`)
    else app.log.info({ backend: handle.label }, 'memory-sql: ready')
  } catch (err) {
    // Down at start is not fatal: the store sets itself up on the first call that reaches it.
    app.log.warn({ backend: handle.label, err: (err as Error).message }, 'memory-sql: the database is not reachable yet; memory endpoints answer 503 until it is')
  }
  app.registry.relationalStores.add(opts.instance, store)
}

export default fp(memorySql, { name: 'memory-sql', fastify: '5.x' })
