// GET /v1/models: agentd's model ids (`provider/model`, what POST /v1/chat/completions
// takes) in OpenAI's list shape, from every configured provider in parallel; a provider
// that cannot list its models within the limit is left out (and logged).
import type { FastifyInstance } from 'fastify'
import { TIMED_OUT, within } from '@agentd/sdk'
import type { ModelInfo } from '@agentd/sdk/contracts/provider'

export interface WireModel { id: string, object: 'model', created: number, owned_by: string }

export async function listWireModels (app: FastifyInstance, timeoutMs: number): Promise<WireModel[]> {
  const providers = app.registry.providers.values().filter(p => p.status().status === 'configured')
  const lists = await Promise.all(providers.map(async (p): Promise<ModelInfo[]> => {
    const ctl = new AbortController()
    try {
      const out = await within(p.listModels(ctl.signal), timeoutMs)
      if (out !== TIMED_OUT) return out
      ctl.abort()
      app.log.warn({ provider: p.id }, `GET /v1/models: ${p.id} did not list its models within ${timeoutMs} ms`)
    } catch (err) {
      app.log.warn({ err, provider: p.id }, `GET /v1/models: ${p.id} could not list its models`)
    }
    return []
  }))
  // OpenAI's `created` is when the model was made; agentd does not know it.
  return lists.flat().map(m => ({ id: `${m.provider}/${m.name}`, object: 'model' as const, created: 0, owned_by: m.provider }))
}
