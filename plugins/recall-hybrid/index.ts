// Plugin: the `hybrid` recall technique (full text fused with vectors), on whichever
// relational store is registered (keyword search on the graph store's copies of the turns when it keeps them: Neo4j). On when recall_enable_hybrid is (the default).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { hybridTechnique } from './hybrid.ts'

export const options = Type.Object({}, { additionalProperties: false })

async function recallHybrid (app: FastifyInstance, opts: PluginOptions<Record<string, never>>): Promise<void> {
  app.registry.recallTechniques.add(opts.instance, hybridTechnique(() => app.registry.relationalStores.first(), () => app.registry.graphStores.first()))
}

export default fp(recallHybrid, { name: 'recall-hybrid', fastify: '5.x' })
