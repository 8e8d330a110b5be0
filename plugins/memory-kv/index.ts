// Plugin: the in-process key-value / working memory store (the embedded default).
// Kept in the resource pool so working memory and sessions survive a live reload.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from 'typebox'
import type { PluginOptions } from '@agentd/sdk'
import { LocalKvStore } from './local-store.ts'

export const options = Type.Object({
  max_keys: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 10_000, description: 'least recently used keys are evicted beyond this' }),
  max_list_length: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 }),
})
type Options = Static<typeof options>

async function memoryKv (app: FastifyInstance, opts: PluginOptions<Options>): Promise<void> {
  const store = await app.resources.acquire({
    kind: 'kv:memory',
    options: { instance: opts.instance, max_keys: opts.max_keys, max_list_length: opts.max_list_length },
    create: () => new LocalKvStore({ maxKeys: opts.max_keys, maxListLength: opts.max_list_length }),
    dispose: async s => { await s.close() },
  })
  app.registry.kvStores.add(opts.instance, store)
}

export default fp(memoryKv, { name: 'memory-kv', fastify: '5.x' })
