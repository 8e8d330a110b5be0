// Model-id resolution (DECISIONS.md "Model ids"). Temporary local copy until
// providers-api exports resolveModel; replaced by a re-export of it.
import type { FastifyInstance } from 'fastify'
import type { Provider } from '../../core/contracts/provider.ts'
import { AgentErrors } from './errors.ts'
import { createError } from '../../core/errors.ts'

const UNKNOWN_PROVIDER = createError<[string]>('AGENT_ERR_PROVIDER_UNKNOWN', '%s', 400)

export function resolveModel (app: FastifyInstance, spec: string): { provider: Provider, model: string } {
  const providers = app.registry.providers
  if (providers.size === 0) throw new AgentErrors.NO_PROVIDER('No model provider is loaded; enable a provider plugin in plugins.json and configure it.')
  const slash = spec.indexOf('/')
  if (slash > 0) {
    const id = spec.slice(0, slash)
    const provider = providers.find(id)
    if (provider === undefined) throw new UNKNOWN_PROVIDER(`Unknown provider "${id}" in model "${spec}"; configured: ${providers.names().join(', ')}.`)
    return { provider, model: spec.slice(slash + 1) }
  }
  const known = providers.values().find(p => p.knowsModel?.(spec) === true)
  return { provider: known ?? providers.first() as Provider, model: spec }
}
