// Plugin: the `query_expansion` recall technique (rule-made query variants). On when
// recall_enable_query_expansion is (the default); recall_expansion_max_variants (3) caps it.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { expansionTechnique } from './expansion.ts'

export const options = Type.Object({}, { additionalProperties: false })

async function recallExpansion (app: FastifyInstance, opts: PluginOptions<Record<string, never>>): Promise<void> {
  app.registry.recallTechniques.add(opts.instance, expansionTechnique(() => app.registry.relationalStores.first()))
}

export default fp(recallExpansion, { name: 'recall-expansion', fastify: '5.x' })
