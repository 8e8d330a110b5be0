// Plugin: the `time` recall technique (a query naming a day or a month favours the turns of
// that time), on whichever relational store is registered. On when recall_enable_time is (the default).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { timeTechnique } from './time.ts'

export const options = Type.Object({}, { additionalProperties: false })

async function recallTime (app: FastifyInstance, opts: PluginOptions<Record<string, never>>): Promise<void> {
  app.registry.recallTechniques.add(opts.instance, timeTechnique(() => app.registry.relationalStores.first(), () => app.registry.graphStores.first()))
}

export default fp(recallTime, { name: 'recall-time', fastify: '5.x' })
