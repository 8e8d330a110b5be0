// One model call for a recall technique (HyDE, self-query): the model named by a setting,
// `provider/model` or a bare model some provider knows. A technique that cannot get an
// answer says why in its `note` and gives nothing; the recall goes on without it.
import type { Message, Provider } from '../../contracts/provider.ts'

export class RecallModelError extends Error {}

/** The provider and model for a setting's value; throws RecallModelError saying what to set. */
export function pickModel (providers: Provider[], spec: string, setting: string, providerId = ''): { provider: Provider, model: string } {
  if (spec.trim() !== '' && providerId.trim() !== '') {
    // A provider named beside the model: the model is that provider's (unless it carries the same prefix already).
    const provider = providers.find(p => p.id === providerId.trim())
    if (provider === undefined) throw new RecallModelError(`no provider "${providerId}" (the provider setting of ${setting}); GET /api/providers lists them`)
    const prefix = `${provider.id}/`
    return { provider, model: spec.startsWith(prefix) ? spec.slice(prefix.length) : spec }
  }
  if (spec.trim() === '') throw new RecallModelError(`no model set: POST /api/memory/recall-settings {"${setting}": "provider/model"}`)
  const slash = spec.indexOf('/')
  if (slash > 0) {
    const provider = providers.find(p => p.id === spec.slice(0, slash))
    if (provider !== undefined) return { provider, model: spec.slice(slash + 1) }
  }
  const provider = providers.find(p => p.knowsModel?.(spec) === true)
  if (provider === undefined) throw new RecallModelError(`no provider serves the model "${spec}" (${setting}); GET /api/providers lists them`)
  return { provider, model: spec }
}

/** The model's answer text. */
export async function askModel (providers: Provider[], spec: string, setting: string, messages: Message[], opts: { maxTokens: number, temperature?: number, provider?: string, json?: boolean, signal?: AbortSignal }): Promise<string> {
  const { provider, model } = pickModel(providers, spec, setting, opts.provider)
  const r = await provider.complete({ model, messages, max_tokens: opts.maxTokens, temperature: opts.temperature ?? 0, ...(opts.json === true ? { response_format: { type: 'json_object' as const } } : {}) }, opts.signal)
  return r.content
}
