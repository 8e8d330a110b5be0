// Plugin: the providers endpoints. GET /api/providers (each provider, configured or not,
// with its models or what to set), /api/providers/models (capabilities, `?provider=`),
// /api/providers/health (a real, cheap upstream call per provider, in parallel, bounded).
// It also registers the model-resolution service (`registry.modelResolvers`, contract
// contracts/models.ts) that chat, agent and translation call models through: it resolves
// model ids and hands out providers wrapped in the provider middleware (middleware.ts:
// provider hooks, time limit, abort, usage), so that work is done once for every caller.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import type { ModelInfo, ProviderHealth } from '@agentd/sdk/contracts/provider'
import { options, type ProvidersApiOptions } from './options.ts'
import { ProviderListSchema, ModelListSchema, HealthSchema } from './schemas.ts'
import { bounded } from './bounded.ts'
import { createModelResolver } from './resolve-model.ts'
import { wrapProvider } from './middleware.ts'
import { warnIfNoProvider } from './first-run.ts'

export { options }
/** data/config.json sections this plugin reads (shared with every provider plugin). */
export { providerConfig as config } from '@agentd/sdk/kits/provider'

/** `id`: provider/model, the id chat and the agent accept. */
const modelRow = (providerId: string) => (m: ModelInfo): ModelInfo & { id: string, known: boolean } => ({ id: `${providerId}/${m.name}`, ...m, known: m.known ?? true })

async function providersApi (app: FastifyInstance, opts: PluginOptions<ProvidersApiOptions>): Promise<void> {
  // The middleware runs these around every call made through the resolver.
  app.hooks.declare('provider:before', 'provider:after')
  const middleware = { hooks: app.hooks, timeoutMs: opts.call_timeout_seconds * 1000 }
  app.registry.modelResolvers.add(opts.instance, createModelResolver(app, p => wrapProvider(p, middleware)))
  // Once serving: warn (once per process) when no provider answers, with the fix.
  const probe = new AbortController()
  app.lifecycle.add({
    name: `${opts.instance}:first-run`,
    activate: () => { void warnIfNoProvider(app.registry.providers.values(), opts.health_timeout_ms, app.log, probe.signal) },
    deactivate: () => { probe.abort() },
  })

  app.get('/api/providers', {
    schema: { tags: ['providers'], summary: 'Every provider: configured or not, with its models or what to set', response: { 200: ProviderListSchema } },
  }, async () => {
    const providers = await Promise.all(app.registry.providers.values().map(async p => {
      const s = p.status()
      // `available`: configured and its model list could be read (clients show it as up or down).
      if (s.status !== 'configured') return { name: p.id, status: s.status, available: false, models: [], error: s.error ?? `Provider "${p.id}" is not configured.` }
      try {
        const models = await bounded(opts.list_timeout_ms, p.id, `${p.id} model listing`, async signal => await p.listModels(signal))
        return { name: p.id, status: s.status, available: true, models: models.map(m => m.name) }
      } catch (err) {
        return { name: p.id, status: s.status, available: false, error: (err as Error).message }
      }
    }))
    return { providers }
  })

  app.get('/api/providers/models', {
    schema: {
      tags: ['providers'],
      summary: 'Models with their capabilities, from every provider or one',
      querystring: Type.Object({ provider: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false }),
      response: { 200: ModelListSchema },
    },
  }, async (request) => {
    const { provider } = request.query as { provider?: string }
    if (provider !== undefined) {
      const p = app.registry.providers.get(provider) // 404 listing the providers
      const models = (await bounded(opts.list_timeout_ms, p.id, `${p.id} model listing`, async signal => await p.listModels(signal))).map(modelRow(p.id))
      return { models, count: models.length }
    }
    const errors: Record<string, string> = {}
    const lists = await Promise.all(app.registry.providers.values().map(async p => {
      try {
        return (await bounded(opts.list_timeout_ms, p.id, `${p.id} model listing`, async signal => await p.listModels(signal))).map(modelRow(p.id))
      } catch (err) {
        errors[p.id] = (err as Error).message
        return []
      }
    }))
    const models = lists.flat()
    return Object.keys(errors).length === 0 ? { models, count: models.length } : { models, count: models.length, errors }
  })

  app.get('/api/providers/health', {
    schema: { tags: ['providers'], summary: 'A real, cheap upstream call per provider, in parallel; degraded if any fails', response: { 200: HealthSchema } },
  }, async () => {
    const entries = await Promise.all(app.registry.providers.values().map(async (p): Promise<[string, ProviderHealth & { models: string[] }]> => {
      // The model names ride along (clients show them beside the status), listed in
      // parallel with the health call and within the same limit; a failed listing is [].
      const models = p.status().status !== 'configured'
        ? Promise.resolve([])
        : bounded(opts.health_timeout_ms, p.id, `${p.id} model listing`, async signal => (await p.listModels(signal)).map(m => m.name)).catch(() => [])
      let health: ProviderHealth
      try {
        health = await bounded(opts.health_timeout_ms, p.id, `${p.id} health check`, async signal => await p.health(signal))
      } catch (err) {
        health = { status: 'unhealthy', error: (err as Error).message }
      }
      return [p.id, { ...health, models: await models }]
    }))
    const providers = Object.fromEntries(entries)
    // A provider without a key is not failing; it is reported, and does not degrade the rest.
    const degraded = entries.some(([, h]) => h.status === 'unhealthy')
    return { status: degraded ? 'degraded' : 'healthy', providers }
  })
}

export default fp(providersApi, { name: 'providers-api', fastify: '5.x' })
