// An OnnxEmbedder for a model of models.ts, its weights from a Maven repository through
// the cache: what the plugin registers, and what a bench or a script builds directly.
import type { LogSink } from '@agentd/sdk/kits/models'
import { MODELS, type ModelName } from './models.ts'
import { OnnxEmbedder } from './onnx-embedder.ts'
import { ensureWeights } from './maven-weights.ts'
import { loadRunner } from './onnx-runner.ts'

export const MAVEN_CENTRAL = 'https://repo1.maven.org/maven2'

export function makeOnnxEmbedder (opts: { name: ModelName, cacheDir: string, repository?: string, log: LogSink }): OnnxEmbedder {
  const model = MODELS[opts.name]
  const repository = opts.repository ?? MAVEN_CENTRAL
  return new OnnxEmbedder({
    name: opts.name,
    model,
    log: opts.log,
    load: async (onProgress, signal) => await loadRunner(model, await ensureWeights(model, { cacheDir: opts.cacheDir, repository, onProgress, signal })),
  })
}
