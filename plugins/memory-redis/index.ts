// Plugin: the key-value store (chat sessions) on Redis. REDIS_URI (or the `uri`
// option, which wins and reloads live) says where; keys live under `namespace`.
// Listed before memory-kv so that, when configured, it is the key-value store the
// service and the chat pick (registry.kvStores.first()).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'

export const options = Type.Object({
  uri: Type.Optional(Type.String({ minLength: 1, description: 'overrides REDIS_URI' })),
  namespace: Type.String({ default: 'agentd:', maxLength: 200, description: 'prefix of every key' }),
  max_list_length: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 }),
  connect_timeout_ms: Type.Integer({ minimum: 100, maximum: 60_000, default: 3000 }),
})
type Options = Static<typeof options>

async function memoryRedis (app: FastifyInstance, opts: PluginOptions<Options>): Promise<void> {
  const uri = opts.uri ?? app.agentConfig.env.REDIS_URI
  if (uri === undefined || uri === '') {
    // Not configured is not an error: the in-process memory-kv (listed after this plugin) serves the role.
    app.log.info('memory-redis: REDIS_URI is not set; the key-value role is left to memory-kv')
    return
  }
  // ioredis loads only when Redis is configured: ~0.4 s of CPU and a few MB of every start otherwise.
  const { RedisKvStore } = await import('./redis-store.ts')
  const cfg = { uri, namespace: opts.namespace, maxListLength: opts.max_list_length, connectTimeoutMs: opts.connect_timeout_ms }
  const store = await app.resources.acquire({
    kind: 'kv:redis', options: cfg, create: () => new RedisKvStore({ ...cfg, log: app.log }), dispose: async s => { await s.close() },
  })
  app.registry.kvStores.add(opts.instance, store)
}

export default fp(memoryRedis, { name: 'memory-redis', fastify: '5.x' })
