// Plugin: the feature-hashing embedder. Works offline with no model: the default, and
// what the tests use.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { HashEmbedder } from './hash-embedder.ts'

export const options = Type.Object({
  dimensions: Type.Integer({ minimum: 16, maximum: 4096, default: 384 }),
  version: Type.Union([Type.Literal(1), Type.Literal(2)], { default: 2, description: '2: words weighed by rarity, stems (hash-v2); 1: every word alike (hash-v1), for vectors stored by it' }),
})

async function embedHash (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  app.registry.embedders.add(opts.instance, new HashEmbedder(opts.dimensions, opts.version))
}

export default fp(embedHash, { name: 'embed-hash', fastify: '5.x' })
