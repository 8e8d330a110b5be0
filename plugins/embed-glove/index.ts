// Plugin: GloVe sentence vectors (glove-embedder.ts), a 3 MB table in this folder, read on
// the first text it embeds. Memory uses it when EMBEDDING_PROVIDER=glove or the memory
// plugin's `embedder` option names it.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { GloveEmbedder } from './glove-embedder.ts'

export const options = Type.Object({})

async function embedGlove (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  app.registry.embedders.add(opts.instance, new GloveEmbedder())
}

export default fp(embedGlove, { name: 'embed-glove', fastify: '5.x' })
