// Plugin: builtin tools (current time, arithmetic) as a tool source.
// A template for tool-source plugins: options schema, one registration, nothing global.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '../../core/types.ts'
import { options, type BuiltinToolsOptions } from './options.ts'
import { createBuiltinSource } from './source.ts'

export { options }

async function toolsBuiltin (app: FastifyInstance, opts: PluginOptions<BuiltinToolsOptions>): Promise<void> {
  app.registry.toolSources.add(opts.instance, createBuiltinSource(opts.instance, opts))
}

export default fp(toolsBuiltin, { name: 'tools-builtin', fastify: '5.x' })
