// Plugin: a local sentence-embedding model (LOCAL_EMBEDDING_MODEL, default
// Xenova/all-MiniLM-L6-v2, 384 dimensions). The model is a pooled resource: it loads on
// first use and survives live reloads.
import fp from 'fastify-plugin'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { LocalEmbedder } from './local-embedder.ts'

export const options = Type.Object({
  model: Type.Optional(Type.String({ minLength: 1, description: 'overrides LOCAL_EMBEDDING_MODEL' })),
  dimensions: Type.Integer({ minimum: 1, maximum: 8192, default: 384, description: 'what the model outputs' }),
  cache_dir: Type.Optional(Type.String({ minLength: 1, description: 'model cache (default AGENT_DATA_DIR/models)' })),
})

async function embedLocal (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  const model = opts.model ?? app.agentConfig.env.LOCAL_EMBEDDING_MODEL ?? 'Xenova/all-MiniLM-L6-v2'
  const cacheDir = path.resolve(app.agentConfig.settings.dataDir, opts.cache_dir ?? 'models')
  const embedder = await app.resources.acquire({
    kind: 'embedder:local',
    options: { model, dimensions: opts.dimensions, cacheDir },
    create: () => new LocalEmbedder({ model, dimensions: opts.dimensions, cacheDir }),
  })
  app.registry.embedders.add(opts.instance, embedder)
}

export default fp(embedLocal, { name: 'embed-local', fastify: '5.x' })
