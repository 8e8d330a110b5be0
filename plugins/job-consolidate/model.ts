// Which model extraction asks: the memory setting `extraction_model`, else data/config.json
// `models.defaults.extraction`, else the chat default. The model-resolution service
// (registered by providers-api) turns the id into a provider, wrapped in the provider
// middleware like every other model call (hooks, time limit, abort, usage).
import type { FastifyInstance } from 'fastify'
import { modelResolver } from '@agentd/sdk/kits/provider'
import type { ModelChoice } from './llm-extractor.ts'

/**
 * The model id for a provider setting and a model setting (the original system's pair):
 * `provider/model` when a provider is named and the model does not already carry its
 * prefix; a provider alone takes the fallback's model name on that provider.
 */
export function modelSpec (provider: string, model: string | null, fallback: () => string): string {
  const p = provider.trim()
  const m = (model ?? '').trim()
  if (p === '') return m
  if (m === '') { const f = fallback(); return `${p}/${f.includes('/') ? f.slice(f.indexOf('/') + 1) : f}` }
  return m.startsWith(`${p}/`) ? m : `${p}/${m}`
}

export function chooseModel (app: FastifyInstance, setting: string | null, provider = ''): ModelChoice {
  const resolver = modelResolver(app, 'memory consolidation (extraction_mode llm or auto)')
  const fallback = (): string => (app.agentConfig.lookup('models.defaults.extraction') ?? '').trim() || resolver.defaultModel()
  const id = modelSpec(provider, setting, fallback) || fallback()
  const r = resolver.resolve(id)
  return { provider: r.provider, model: r.model, id: r.id }
}
