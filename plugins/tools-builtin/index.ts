// Plugin: builtin tools (current time, arithmetic) as a tool source.
// A template for tool-source plugins: options schema, one registration, nothing global.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import { options, type BuiltinToolsOptions } from './options.ts'
import { createBuiltinSource } from './source.ts'
import { isValidTimeZone } from './time.ts'

export { options }

async function toolsBuiltin (app: FastifyInstance, opts: PluginOptions<BuiltinToolsOptions>): Promise<void> {
  // Checked here, not at the first call: a typo in plugins.json fails the reload (the
  // running generation keeps serving) instead of every current_time call without a zone.
  if (!isValidTimeZone(opts.default_timezone)) {
    throw new Error(`options.default_timezone: "${opts.default_timezone}" is not an IANA time zone; use a name such as "Europe/Paris" or "UTC"`)
  }
  app.registry.toolSources.add(opts.instance, createBuiltinSource(opts.instance, opts))
}

export default fp(toolsBuiltin, { name: 'tools-builtin', fastify: '5.x' })
