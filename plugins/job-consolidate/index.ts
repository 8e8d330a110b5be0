// Plugin: the `consolidate` job (consolidate-job.ts): conversations become entities and
// facts, by the LLM extractor or the offline one (in a worker thread). Registers the job
// (registry.jobs, group `memory`: POST /api/memory/consolidate runs it), its settings
// section (registry.memorySettings: the extraction_* keys and the rest of settings.ts) and
// the schedule its job_consolidate_interval setting sets. It works through the memory
// plugin's job support (stores, embedder, history); without the memory plugin a run is a
// 503 that says so.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { claimHash, intervalSetting, memoryJobSupport, sectionValues, serialized } from '@agentd/sdk/kits/memory'
import { ConsolidateSettings, SECTION, type ConsolidateSettingsValues } from './settings.ts'
import { LlmExtractor } from './llm-extractor.ts'
import { OfflineWorkerExtractor } from './offline-thread.ts'
import { chooseModel } from './model.ts'
import type { ConsolidationDeps } from './deps.ts'
import { consolidateJob } from './consolidate-job.ts'
import { askRelevance } from './relevance.ts'

export const options = Type.Object({
  interval_seconds: Type.Integer({ minimum: 1, maximum: 31 * 86_400, default: 900, description: 'default schedule of the consolidate job (the memory setting job_consolidate_interval, once changed, wins)' }),
}, { additionalProperties: false })

async function jobConsolidate (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  if (app.registry.jobs.has('consolidate')) { app.log.warn({ instance: opts.instance }, 'job-consolidate: a consolidate job is registered already; this instance adds none'); return }
  const support = (): ReturnType<typeof memoryJobSupport> => memoryJobSupport(app.registry, 'consolidate')
  const settings = (): ConsolidateSettingsValues => sectionValues(ConsolidateSettings, support().settings())
  const model = (): ReturnType<typeof chooseModel> => chooseModel(app, settings().extraction_model, settings().extraction_provider)
  // In a worker thread: the offline extraction is seconds of CPU for a long conversation.
  const offline = new OfflineWorkerExtractor()
  app.addHook('onClose', async () => { await offline.close() })
  const deps: ConsolidationDeps = {
    relational: () => support().relational(),
    graph: () => support().graph(),
    embed: async (text, signal) => await support().embed(text, signal),
    history: async (e) => { await support().recordChange({ ...e, actor: e.actor ?? 'consolidation' }) },
    claimHash,
    settings,
    extractors: {
      llm: new LlmExtractor({
        model,
        timeoutMs: () => settings().extraction_timeout_ms,
        prompt: () => settings().extraction_system_prompt,
        temperature: () => settings().extraction_temperature,
        maxTokens: () => settings().extraction_max_tokens,
        condense: () => settings().extraction_condense_facts,
      }),
      offline,
    },
    modelId: () => model().id,
    relevance: async (turns, signal, trace) => {
      const v = settings()
      if (!v.relevance_filter_enabled || (v.relevance_filter_model.trim() === '' && v.relevance_filter_provider.trim() === '')) return undefined
      return await askRelevance(chooseModel(app, v.relevance_filter_model, v.relevance_filter_provider), turns, {
        prompt: v.relevance_filter_prompt, maxTokens: v.relevance_filter_max_tokens, timeoutMs: v.extraction_timeout_ms, signal, trace,
      })
    },
  }
  app.registry.jobs.add('consolidate', serialized(consolidateJob(deps, opts.interval_seconds)))
  app.registry.memorySettings.add('consolidate', SECTION)
  app.registry.jobSchedules.add('consolidate', intervalSetting('consolidate', ConsolidateSettings, 'job_consolidate_interval', () => app.registry.memoryJobSupport.first()?.settings()))
}

export default fp(jobConsolidate, { name: 'job-consolidate', fastify: '5.x' })
