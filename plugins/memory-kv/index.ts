// Plugin: the in-process key-value store (chat sessions; the embedded default).
// Kept in the resource pool so sessions survive a live reload, and
// (with `persist`, the default) written behind to the SQL database so they survive a
// restart too: the embedded PGlite under AGENT_DATA_DIR unless the SQL options (the same
// as memory-sql's) or POSTGRES_URI name a PostgreSQL. Reads stay in process.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { SqlOptionsSchema, acquireSql, resolveTarget } from '@agentd/sdk/kits/sql'
import { LocalKvStore } from './local-store.ts'
import { SqlKvPersistence } from './sql-persistence.ts'

export const options = Type.Object({
  max_keys: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 10_000, description: 'least recently used keys are evicted beyond this' }),
  max_list_length: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 }),
  persist: Type.Boolean({ default: true, description: 'write every change behind to the SQL database (PGlite by default) and load it at start, so sessions survive a restart' }),
  flush_interval_ms: Type.Integer({ minimum: 10, maximum: 60_000, default: 200, description: 'how long changes are gathered before they are written' }),
  ...SqlOptionsSchema.properties,
})
type Options = Static<typeof options>

async function memoryKv (app: FastifyInstance, opts: PluginOptions<Options>): Promise<void> {
  const target = opts.persist ? resolveTarget(app, opts) : undefined
  const handle = target === undefined ? undefined : await acquireSql(app, target)
  const store = await app.resources.acquire({
    kind: 'kv:memory',
    options: { instance: opts.instance, max_keys: opts.max_keys, max_list_length: opts.max_list_length, persist: target ?? false, flush_interval_ms: opts.flush_interval_ms },
    create: async () => {
      const persistence = handle === undefined ? undefined : new SqlKvPersistence(handle, app.log, opts.flush_interval_ms)
      const s = new LocalKvStore({ maxKeys: opts.max_keys, maxListLength: opts.max_list_length, onChange: key => { persistence?.changed(key) } })
      if (persistence !== undefined && handle !== undefined) {
        try {
          const n = await persistence.load(s, opts.max_keys)
          app.log.info({ keys: n, backend: handle.label }, 'memory-kv: loaded the key-value store')
        } catch (err) {
          // A database that is down at start must not stop the fast path: start empty, write behind once it answers.
          app.log.warn({ err: (err as Error).message, backend: handle.label }, 'memory-kv: could not load the saved key-value store; starting empty')
        }
      }
      return Object.assign(s, { persistence })
    },
    dispose: async s => { await s.close() },
  })
  // Written out while this generation still holds the database handle (resources are released after onClose).
  app.addHook('onClose', async () => { await store.persistence?.close() })
  app.registry.kvStores.add(opts.instance, store)
}

export default fp(memoryKv, { name: 'memory-kv', fastify: '5.x' })
