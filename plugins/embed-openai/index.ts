// Plugin: OpenAI (or any OpenAI-compatible server's) embeddings. EMBEDDING_MODEL picks
// the model (default text-embedding-3-small, 1536 dimensions); the key and base URL come
// from data/config.json providers.<provider> or OPENAI_API_KEY / OPENAI_BASE_URL.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { OpenAIEmbedder } from './openai-embedder.ts'

export const options = Type.Object({
  model: Type.Optional(Type.String({ minLength: 1, description: 'overrides EMBEDDING_MODEL' })),
  dimensions: Type.Integer({ minimum: 1, maximum: 8192, default: 1536 }),
  send_dimensions: Type.Boolean({ default: false, description: 'ask the model for `dimensions` (text-embedding-3 models)' }),
  provider: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: 'openai', description: 'providers.<name> in data/config.json holds api_key and base_url' }),
  timeout_ms: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
})

async function embedOpenai (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  const cfg = app.agentConfig
  const envPrefix = opts.provider.toUpperCase().replace(/-/g, '_')
  const embedderOpts = {
    model: opts.model ?? cfg.env.EMBEDDING_MODEL ?? 'text-embedding-3-small',
    dimensions: opts.dimensions,
    apiKey: cfg.lookup(`providers.${opts.provider}.api_key`, `${envPrefix}_API_KEY`),
    baseURL: cfg.lookup(`providers.${opts.provider}.base_url`, `${envPrefix}_BASE_URL`),
    timeoutMs: opts.timeout_ms,
    sendDimensions: opts.send_dimensions,
  }
  const embedder = await app.resources.acquire({ kind: 'embedder:openai', options: embedderOpts, create: () => new OpenAIEmbedder(embedderOpts) })
  app.registry.embedders.add(opts.instance, embedder)
}

export default fp(embedOpenai, { name: 'embed-openai', fastify: '5.x' })
