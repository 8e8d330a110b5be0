// Plugin: the `promote` job (promote-job.ts): prominent facts and entities move to the
// `_global` channel. Registers the job (registry.jobs, group `memory`: POST
// /api/memory/consolidate runs it), its settings section (promotion_* and
// job_promote_interval) and the schedule that setting sets. Works through the memory
// plugin's job support; without the memory plugin a run is a 503.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { intervalSetting, memoryJobSupport, sectionValues, serialized } from '@agentd/sdk/kits/memory'
import { promoteJob } from './promote-job.ts'
import { PromoteSettings } from './settings.ts'

export const options = Type.Object({
  interval_seconds: Type.Integer({ minimum: 1, maximum: 31 * 86_400, default: 3600, description: 'default schedule of the promote job (the memory setting job_promote_interval, once changed, wins)' }),
}, { additionalProperties: false })

async function jobPromote (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  if (app.registry.jobs.has('promote')) { app.log.warn({ instance: opts.instance }, 'job-promote: a promote job is registered already; this instance adds none'); return }
  const support = (): ReturnType<typeof memoryJobSupport> => memoryJobSupport(app.registry, 'promote')
  app.registry.jobs.add('promote', serialized(promoteJob({
    graph: () => support().graph(),
    settings: () => sectionValues(PromoteSettings, support().settings()),
    history: async (e) => { await support().recordChange(e) },
  }, opts.interval_seconds)))
  app.registry.memorySettings.add('promote', { schema: PromoteSettings })
  app.registry.jobSchedules.add('promote', intervalSetting('promote', PromoteSettings, 'job_promote_interval', () => app.registry.memoryJobSupport.first()?.settings()))
}

export default fp(jobPromote, { name: 'job-promote', fastify: '5.x' })
