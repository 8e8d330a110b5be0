// GET/POST /api/memory/settings and POST /api/memory/consolidate (DECISIONS.md shapes).
// The settings are the union of the sections the loaded job plugins declare
// (memory-settings.ts); the jobs POST /api/memory/consolidate runs are those of group
// `memory` in registry.jobs (consolidate, patterns, promote: each its own plugin).
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { Job } from '@agentd/sdk/contracts/job'
import { check, formatErrors, withDetails } from '@agentd/sdk'
import { MemoryErrors } from './errors.ts'
import type { MemorySettingsStore } from './memory-settings.ts'
import { runJobs, type RunReport } from './run-jobs.ts'

export interface SettingsRoutesOptions {
  settings: MemorySettingsStore
  /** The loaded jobs of group `memory`, in the order their plugins loaded. */
  jobs: () => Job[]
  /** Throws the 503 that names the plugin to enable when a store the jobs need is missing. */
  needStores: () => void
  /** Aborted when the generation shuts down. */
  signal: () => AbortSignal
  log: (msg: string, data?: Record<string, unknown>) => void
}

// Fields it does not know are ignored (a newer client must not break an older server).
const ConsolidateBody = Type.Object({ jobs: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20 })) })

/** The plugin that brings a job, by the job plugins' naming (job-<name>), for a 404 that says what to enable. */
const pluginOf = (job: string): string => `job-${job.replaceAll('_', '-')}`

export async function settingsRoutes (app: FastifyInstance, o: SettingsRoutesOptions): Promise<void> {
  const tags = ['memory']
  // The keys depend on the job plugins loaded, known once every plugin has registered: the
  // answer's schema is filled in then (the OpenAPI document is made on its first request).
  const answer = Type.Object({}, { additionalProperties: true })
  app.addHook('onReady', async () => {
    const u = o.settings.union()
    Object.assign(answer.properties, u.api.responseSchema(Object.fromEntries(Object.entries(u.readOnly).map(([k, r]) => [k, r.schema]))).properties)
  })

  app.get('/api/memory/settings', {
    schema: {
      tags,
      summary: 'Memory settings of the loaded job plugins: key -> value; defaults, meanings, read-only keys and deprecated names under _meta',
      response: { 200: answer },
    },
  }, async () => {
    const u = o.settings.union()
    return u.api.view({ ...o.settings.values() }, Object.fromEntries(Object.entries(u.readOnly).map(([k, r]) => [k, r.value])))
  })

  app.post('/api/memory/settings', {
    schema: {
      tags,
      summary: 'Change memory settings (partial; unknown keys and wrong types are refused, nothing changes then)',
      description: 'Read-only keys (those GET lists under _meta.read_only) and _meta are accepted and ignored, so what GET answered can be posted back whole. Deprecated names (under _meta.deprecated_aliases) are accepted until the next release. A key of a job plugin that is not loaded is unknown.',
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
      tags, summary: 'Run memory jobs now (default: every loaded one of consolidate, patterns, promote), one after another',
      // No body schema: a POST without a body runs the default list (checked below).
      response: { 200: Type.Object({ success: Type.Boolean(), duration_ms: Type.Number(), results: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown())), errors: Type.Array(Type.String(), { description: 'one line per failed job, `name: message`; [] when none' }) }) },
    },
  }, async (request): Promise<RunReport> => {
    const body = check(ConsolidateBody, request.body ?? {})
    if (!body.ok) throw withDetails(new MemoryErrors.BAD_REQUEST(`Invalid request: ${formatErrors(body.errors)}. Send {"jobs": ["consolidate", "patterns", "promote"]} or no body.`), body.errors)
    const loaded = o.jobs()
    if (loaded.length === 0) throw new MemoryErrors.NOT_FOUND('No memory job is loaded: enable job-consolidate, job-patterns or job-promote in plugins.json.')
    const byName = new Map(loaded.map(j => [j.name, j]))
    const asked = body.value.jobs ?? loaded.map(j => j.name)
    // 404 as for any unknown job (DECISIONS.md), naming the plugin that would bring it.
    const unknown = asked.filter(n => !byName.has(n))
    if (unknown.length > 0) {
      throw new MemoryErrors.NOT_FOUND(`Unknown job(s): ${unknown.join(', ')}. Memory jobs: ${[...byName.keys()].join(', ')} (a job whose plugin is off is not listed: ${unknown.map(pluginOf).join(', ')} in plugins.json).`)
    }
    o.needStores()
    const jobs = [...new Set(asked)].map(n => byName.get(n) as Job)
    return await runJobs(jobs, { signal: o.signal(), trigger: 'manual', log: o.log })
  })
}
