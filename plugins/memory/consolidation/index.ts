// Consolidation inside the memory plugin (the plugin that owns the data): the settings,
// the two extractors, the consolidate/patterns/promote jobs registered under
// registry.jobs (a jobs plugin schedules them), and the endpoints that read and change the
// settings and run the jobs now.
import type { FastifyInstance } from 'fastify'
import type { Job } from '@agentd/sdk/contracts/job'
import type { MemoryServiceImpl } from '../service.ts'
import { claimHash } from '@agentd/sdk/kits/memory'
import { SettingsStore } from './settings.ts'
import { LlmExtractor } from './llm-extractor.ts'
import { OfflineWorkerExtractor } from './offline-thread.ts'
import { chooseModel } from './model.ts'
import type { ConsolidationDeps } from './deps.ts'
import { consolidateJob } from './consolidate-job.ts'
import { patternsJob } from './patterns-job.ts'
import { promoteJob } from './promote-job.ts'
import { serialized } from './runner.ts'
import { consolidationRoutes } from './routes.ts'

export async function consolidation (app: FastifyInstance, svc: MemoryServiceImpl, instance: string): Promise<{ settings: SettingsStore, jobs: Job[] }> {
  const settings = new SettingsStore(app.agentConfig.settings.dataDir, (msg, data) => { app.log.warn(data ?? {}, msg) })
  await settings.load()
  const model = (): ReturnType<typeof chooseModel> => chooseModel(app, settings.values.extraction_model)
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
      llm: new LlmExtractor({ model, timeoutMs: () => settings.values.extraction_timeout_ms, prompt: () => settings.values.extraction_prompt }),
      offline,
    },
    modelId: () => model().id,
  }
  // A second memory instance names its jobs after itself (job names are unique in the registry).
  const named = (j: Job): Job => instance === 'memory' ? j : { ...j, name: `${instance}:${j.name}` }
  const jobs = [consolidateJob(deps), patternsJob(deps), promoteJob(deps)].map(j => serialized(named(j)))
  for (const j of jobs) app.registry.jobs.add(j.name, j)

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
