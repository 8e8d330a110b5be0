// Consolidation inside the memory plugin (the plugin that owns the data): the settings,
// the two extractors, the consolidate/patterns/promote jobs registered under
// registry.jobs (a jobs plugin schedules them), and the endpoints that read and change the
// settings and run the jobs now.
import type { FastifyInstance } from 'fastify'
import type { Job } from '@agentd/sdk/contracts/job'
import type { MemoryServiceImpl } from '../service.ts'
import { claimHash } from '@agentd/sdk/kits/memory'
import { SettingsStore, defaultSettings } from './settings.ts'

/** Which memory setting sets which job's interval (minutes). */
const INTERVAL_SETTINGS: Record<string, 'job_consolidate_interval' | 'job_promote_interval' | 'job_entity_linking_interval' | undefined> = {
  consolidate: 'job_consolidate_interval',
  promote: 'job_promote_interval',
  entity_linking: 'job_entity_linking_interval',
}
import { LlmExtractor } from './llm-extractor.ts'
import { OfflineWorkerExtractor } from './offline-thread.ts'
import { chooseModel } from './model.ts'
import type { ConsolidationDeps } from './deps.ts'
import { consolidateJob } from './consolidate-job.ts'
import { patternsJob } from './patterns-job.ts'
import { promoteJob } from './promote-job.ts'
import { askRelevance } from './relevance.ts'
import { serialized } from './runner.ts'
import { consolidationRoutes } from './routes.ts'

export async function consolidation (app: FastifyInstance, svc: MemoryServiceImpl, instance: string): Promise<{ settings: SettingsStore, jobs: Job[] }> {
  const settings = new SettingsStore(app.agentConfig.settings.dataDir, (msg, data) => { app.log.warn(data ?? {}, msg) })
  await settings.load()
  const model = (): ReturnType<typeof chooseModel> => chooseModel(app, settings.values.extraction_model, settings.values.extraction_provider)
  // In a worker thread: the offline extraction is seconds of CPU for a long conversation.
  const offline = new OfflineWorkerExtractor()
  const deps: ConsolidationDeps = {
    relational: () => svc.need('relational'),
    graph: () => svc.need('graph'),
    embed: async (text, signal) => await svc.embed(text, signal),
    copyStrategy: async (s, embedding) => { await svc.copies.strategy(s, embedding) },
    history: async (e) => { await svc.recordChange({ ...e, actor: e.actor ?? 'consolidation' }) },
    claimHash,
    settings: () => settings.values,
    extractors: {
      llm: new LlmExtractor({
        model,
        timeoutMs: () => settings.values.extraction_timeout_ms,
        prompt: () => settings.values.extraction_system_prompt,
        temperature: () => settings.values.extraction_temperature,
        maxTokens: () => settings.values.extraction_max_tokens,
        condense: () => settings.values.extraction_condense_facts,
      }),
      offline,
    },
    modelId: () => model().id,
    relevance: async (turns, signal) => {
      const v = settings.values
      if (!v.relevance_filter_enabled || (v.relevance_filter_model.trim() === '' && v.relevance_filter_provider.trim() === '')) return undefined
      return await askRelevance(chooseModel(app, v.relevance_filter_model, v.relevance_filter_provider), turns, {
        prompt: v.relevance_filter_prompt, maxTokens: v.relevance_filter_max_tokens, timeoutMs: v.extraction_timeout_ms, signal,
      })
    },
  }
  // A second memory instance names its jobs after itself (job names are unique in the registry).
  // (A view, not a copy: a job's schedule is a getter over the live settings.)
  const named = (j: Job): Job => instance === 'memory' ? j : Object.create(j, { name: { value: `${instance}:${j.name}`, enumerable: true } }) as Job
  const jobs = [consolidateJob(deps), patternsJob(deps), promoteJob(deps)].map(j => serialized(named(j)))
  for (const j of jobs) app.registry.jobs.add(j.name, j)
  // The job_*_interval settings, as schedules the jobs plugin reads at each ask (entity_linking
  // is the graph store plugin's job). A setting left at its default leaves the job's own
  // schedule alone (and with it that plugin's options), so only a changed one answers.
  const defaults = defaultSettings()
  app.registry.jobSchedules.add(instance, {
    scheduleOf: (name) => {
      const key = INTERVAL_SETTINGS[instance === 'memory' ? name : name.slice(instance.length + 1)]
      if (key === undefined || (instance !== 'memory' && !name.startsWith(`${instance}:`))) return undefined
      const minutes = settings.values[key]
      return minutes === defaults[key] ? undefined : { every_seconds: minutes * 60 }
    },
  })

  const stop = new AbortController()
  app.addHook('onClose', async () => { stop.abort(new Error('the server is shutting down')); await offline.close() })
  await consolidationRoutes(app, {
    settings,
    jobs,
    needStores: () => { svc.need('relational'); svc.need('graph') },
    signal: () => stop.signal,
    log: (msg, data) => { app.log.info(data ?? {}, `memory: ${msg}`) },
  })
  return { settings, jobs }
}
