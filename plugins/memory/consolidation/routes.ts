// GET/POST /api/memory/settings and POST /api/memory/consolidate (DECISIONS.md shapes).
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { Job } from '@agentd/sdk/contracts/job'
import { check, formatErrors, withDetails } from '@agentd/sdk'
import { MemoryErrors } from '../errors.ts'
import { API, type SettingsStore } from './settings.ts'
import { ENTITY_TYPES, RELATIONSHIP_TYPES } from './extraction.ts'
import { DEFAULT_EXTRACTION_PROMPT, DEFAULT_RELEVANCE_PROMPT } from './llm-extractor.ts'
import { runJobs, type RunReport } from './runner.ts'

export interface ConsolidationRoutesOptions {
  settings: SettingsStore
  /** The memory plugin's own jobs, by name, in the default order. */
  jobs: Job[]
  /** Throws the 503 that names the plugin to enable when a store the jobs need is missing. */
  needStores: () => void
  /** Aborted when the generation shuts down. */
  signal: () => AbortSignal
  log: (msg: string, data?: Record<string, unknown>) => void
}

// Fields it does not know are ignored (a newer client must not break an older server).
const ConsolidateBody = Type.Object({ jobs: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20 })) })

/** The values GET shows that no POST changes (computed by the server; accepted and ignored on POST). */
const readOnlyValues = (): Record<string, unknown> => ({
  entity_types: [...ENTITY_TYPES],
  relationship_types: [...RELATIONSHIP_TYPES],
  default_extraction_prompt: DEFAULT_EXTRACTION_PROMPT,
  default_relevance_prompt: DEFAULT_RELEVANCE_PROMPT,
})
const ReadOnlySchemas = {
  entity_types: Type.Array(Type.String(), { description: 'read-only: the entity types extraction assigns' }),
  relationship_types: Type.Array(Type.String(), { description: 'read-only: the relationship types the extractor is told of' }),
  default_extraction_prompt: Type.String({ description: 'read-only: extraction_system_prompt\'s default' }),
  default_relevance_prompt: Type.String({ description: 'read-only: relevance_filter_prompt\'s default' }),
}

export async function consolidationRoutes (app: FastifyInstance, o: ConsolidationRoutesOptions): Promise<void> {
  const tags = ['memory']

  app.get('/api/memory/settings', {
    schema: {
      tags,
      summary: 'Consolidation settings: key -> value; defaults, meanings, read-only keys and deprecated names under _meta',
      response: { 200: API.responseSchema(ReadOnlySchemas) },
    },
  }, async () => API.view({ ...o.settings.values }, readOnlyValues()))

  app.post('/api/memory/settings', {
    schema: {
      tags,
      summary: 'Change consolidation settings (partial; unknown keys and wrong types are refused, nothing changes then)',
      description: 'Read-only keys (entity_types, relationship_types, default_extraction_prompt, default_relevance_prompt) and _meta are accepted and ignored, so what GET answered can be posted back whole. The deprecated names extraction_prompt, min_fact_confidence and entity_link_similarity_threshold are accepted until the next release.',
      // Checked by the settings store, which names every allowed key in its 400.
      body: Type.Unknown(),
      response: { 200: Type.Object({ success: Type.Boolean(), updated: Type.Array(Type.String()) }) },
    },
  }, async (request) => {
    const updated = await o.settings.update(request.body ?? {})
    return { success: true, updated }
  })

  app.post('/api/memory/consolidate', {
    schema: {
      tags, summary: 'Run memory jobs now (default: consolidate, patterns, promote), one after another',
      // No body schema: a POST without a body runs the default list (checked below).
      response: { 200: Type.Object({ success: Type.Boolean(), duration_ms: Type.Number(), results: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown())), errors: Type.Array(Type.String(), { description: 'one line per failed job, `name: message`; [] when none' }) }) },
    },
  }, async (request): Promise<RunReport> => {
    const body = check(ConsolidateBody, request.body ?? {})
    if (!body.ok) throw withDetails(new MemoryErrors.BAD_REQUEST(`Invalid request: ${formatErrors(body.errors)}. Send {"jobs": ["consolidate", "patterns", "promote"]} or no body.`), body.errors)
    const asked = body.value.jobs ?? o.jobs.map(j => j.name)
    const byName = new Map(o.jobs.map(j => [j.name, j]))
    const unknown = asked.filter(n => !byName.has(n))
    if (unknown.length > 0) throw new MemoryErrors.BAD_REQUEST(`Unknown job(s): ${unknown.join(', ')}. Memory jobs: ${[...byName.keys()].join(', ')}.`)
    o.needStores()
    const jobs = [...new Set(asked)].map(n => byName.get(n) as Job)
    return await runJobs(jobs, { signal: o.signal(), trigger: 'manual', log: o.log })
  })
}
