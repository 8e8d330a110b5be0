// Plugin: the key-value / working memory store on Redis. REDIS_URI (or the `uri`
// option, which wins and reloads live) says where; keys live under `namespace`.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from 'typebox'
import type { PluginOptions } from '../../core/types.ts'
import { RedisKvStore } from './redis-store.ts'

export const options = Type.Object({
  uri: Type.Optional(Type.String({ minLength: 1, description: 'overrides REDIS_URI' })),
  namespace: Type.String({ default: 'agentd:', maxLength: 200, description: 'prefix of every key' }),
  max_list_length: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 }),
  connect_timeout_ms: Type.Integer({ minimum: 100, maximum: 60_000, default: 3000 }),
})
type Options = Static<typeof options>

async function memoryRedis (app: FastifyInstance, opts: PluginOptions<Options>): Promise<void> {
  const uri = opts.uri ?? app.agentConfig.env.REDIS_URI
  if (uri === undefined || uri === '') throw new Error('memory-redis: set REDIS_URI (e.g. redis://127.0.0.1:6379) or the plugin option "uri", or use memory-kv for an in-process store.')
  const cfg = { uri, namespace: opts.namespace, maxListLength: opts.max_list_length, connectTimeoutMs: opts.connect_timeout_ms }
  const store = await app.resources.acquire({
    kind: 'kv:redis', options: cfg, create: () => new RedisKvStore(cfg), dispose: async s => { await s.close() },
  })
  app.registry.memory.kv.add(opts.instance, store)
}

export default fp(memoryRedis, { name: 'memory-redis', fastify: '5.x' })
