// Plugin: the `hyde` recall technique. Off by default: recall_enable_hyde and
// recall_hyde_model (provider/model) turn it on.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { hydeTechnique } from './hyde.ts'

export const options = Type.Object({}, { additionalProperties: false })

async function recallHyde (app: FastifyInstance, opts: PluginOptions<Record<string, never>>): Promise<void> {
  app.registry.recallTechniques.add(opts.instance, hydeTechnique({ relational: () => app.registry.relationalStores.first(), providers: () => app.registry.providers.values() }))
}

export default fp(recallHyde, { name: 'recall-hyde', fastify: '5.x' })
