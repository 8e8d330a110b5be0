// Plugin: the `entity_centric` recall technique over the registered graph (and relational)
// store. On when recall_enable_entity_centric is (the default).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { entityTechnique } from './entity.ts'

export const options = Type.Object({}, { additionalProperties: false })

async function recallEntity (app: FastifyInstance, opts: PluginOptions<Record<string, never>>): Promise<void> {
  app.registry.recallTechniques.add(opts.instance, entityTechnique({ graph: () => app.registry.graphStores.first(), relational: () => app.registry.relationalStores.first() }))
}

export default fp(recallEntity, { name: 'recall-entity', fastify: '5.x' })
