// Which model extraction asks: the memory setting `extraction_model`, else data/config.json
// `models.defaults.extraction`, else the chat default. The model-resolution service
// (registered by providers-api) turns the id into a provider, wrapped in the provider
// middleware like every other model call (hooks, time limit, abort, usage).
import type { FastifyInstance } from 'fastify'
import { modelResolver } from '@agentd/sdk/kits/provider'
import type { ModelChoice } from './llm-extractor.ts'

export function chooseModel (app: FastifyInstance, setting: string | null): ModelChoice {
  const resolver = modelResolver(app, 'memory consolidation (extraction_mode llm or auto)')
  const id = (setting ?? '').trim() || (app.agentConfig.lookup('models.defaults.extraction') ?? '').trim() || resolver.defaultModel()
  const r = resolver.resolve(id)
  return { provider: r.provider, model: r.model, id: r.id }
}
