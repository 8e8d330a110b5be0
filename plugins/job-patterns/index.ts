// Plugin: the `patterns` job (patterns-job.ts): tool-using runs become learned strategies
// (procedural memory). Registers the job (registry.jobs, group `memory`: POST
// /api/memory/consolidate runs it) and its settings section (patterns_batch_size). Works
// through the memory plugin's job support; without the memory plugin a run is a 503.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { memoryJobSupport, sectionValues, serialized } from '@agentd/sdk/kits/memory'
import { patternsJob } from './patterns-job.ts'

export const options = Type.Object({
  interval_seconds: Type.Integer({ minimum: 1, maximum: 31 * 86_400, default: 3600, description: 'default schedule of the patterns job' }),
}, { additionalProperties: false })

/** The job's part of /api/memory/settings. */
export const PatternsSettings = Type.Object({
  patterns_batch_size: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000, description: 'latest tool invocations the patterns job reads per run' }),
}, { additionalProperties: false })

async function jobPatterns (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  if (app.registry.jobs.has('patterns')) { app.log.warn({ instance: opts.instance }, 'job-patterns: a patterns job is registered already; this instance adds none'); return }
  const support = (): ReturnType<typeof memoryJobSupport> => memoryJobSupport(app.registry, 'patterns')
  app.registry.jobs.add('patterns', serialized(patternsJob({
    relational: () => support().relational(),
    embed: async (text, signal) => await support().embed(text, signal),
    copyStrategy: async (s, embedding) => { await support().copyStrategy(s, embedding) },
    settings: () => sectionValues(PatternsSettings, support().settings()),
  }, opts.interval_seconds)))
  app.registry.memorySettings.add('patterns', { schema: PatternsSettings })
}

export default fp(jobPatterns, { name: 'job-patterns', fastify: '5.x' })
