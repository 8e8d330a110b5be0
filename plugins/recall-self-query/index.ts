// Plugin: the `self_query` recall technique. Off by default: recall_enable_self_query and
// recall_self_query_model (provider/model) turn it on.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { selfQueryTechnique } from './self-query.ts'

export const options = Type.Object({}, { additionalProperties: false })

async function recallSelfQuery (app: FastifyInstance, opts: PluginOptions<Record<string, never>>): Promise<void> {
  app.registry.recallTechniques.add(opts.instance, selfQueryTechnique({ relational: () => app.registry.relationalStores.first(), providers: () => app.registry.providers.values() }))
}

export default fp(recallSelfQuery, { name: 'recall-self-query', fastify: '5.x' })
