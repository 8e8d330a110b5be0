// Each memory job is its own plugin: disabling one in plugins.json removes its job and its
// settings keys, and the server starts, answers healthy and runs every other job. One
// server per case, on in-memory PGlite; the jobs are run through the registry (the jobs
// plugin's scheduler is tested on its own).
import t from 'tap'
import type { Job } from '@agentd/sdk/contracts/job'
import { MEMORY_JOB_PLUGINS, memoryJobPlugins, type PluginSpec } from '../helpers/workspace.ts'
import { postJson, startMemoryKernel } from './memory-kernel.ts'

type Body = any // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const JOB_OF: Record<typeof MEMORY_JOB_PLUGINS[number], string> = {
  'job-consolidate': 'consolidate',
  'job-patterns': 'patterns',
  'job-promote': 'promote',
  'job-entity-linking': 'entity_linking',
  'job-decay': 'decay',
  'job-cleanup': 'cleanup',
  'job-audit-partitions': 'audit_partitions',
}
/** A key each settings section brings (sections of jobs without one: none). */
const KEY_OF: Partial<Record<typeof MEMORY_JOB_PLUGINS[number], string>> = {
  'job-consolidate': 'extraction_mode',
  'job-patterns': 'patterns_batch_size',
  'job-promote': 'promotion_min_confidence',
  'job-entity-linking': 'job_entity_linking_interval',
}
const MEMORY_GROUP = ['consolidate', 'patterns', 'promote']
const ctx = { signal: new AbortController().signal, trigger: 'manual' as const, log: () => {} }

const without = (off: string): PluginSpec[] => memoryJobPlugins().map(p => p.name === off ? { ...p, enabled: false } : p)

for (const off of MEMORY_JOB_PLUGINS) {
  t.test(`${off} disabled: the rest starts, stays healthy and runs`, async t => {
    const s = await startMemoryKernel(t, { sql: { backend: 'pglite', pglite_dir: 'memory' }, jobs: false, extra: without(off) })
    t.equal((await s.json('/api/health')).body.status, 'healthy')
    const plugins = (await s.json('/api/plugins')).body.plugins as Body[]
    t.match(plugins.find(p => p.name === off), { status: 'disabled' })
    t.ok(plugins.filter(p => p.name.startsWith('job-') && p.name !== off).every(p => p.status === 'loaded'), 'every other job plugin loaded')

    const registry = s.kernel.current?.app.registry
    const jobs = registry?.jobs.values() ?? []
    const others = MEMORY_JOB_PLUGINS.filter(p => p !== off).map(p => JOB_OF[p])
    t.same(jobs.map(j => j.name).filter(n => Object.values(JOB_OF).includes(n)).sort(), [...others].sort(), 'its job is gone, the others are there')
    for (const name of others) {
      const metrics = await (registry?.jobs.get(name) as Job).run(ctx)
      t.type(metrics, 'object', `${name} runs`)
    }

    const settings = (await s.json('/api/memory/settings')).body
    for (const [plugin, key] of Object.entries(KEY_OF)) t.equal(key in settings, plugin !== off, `${key} ${plugin === off ? 'is gone' : 'is served'}`)
    const offKey = KEY_OF[off]
    if (offKey !== undefined) {
      const r = await postJson(s, '/api/memory/settings', { [offKey]: settings._meta?.defaults?.[offKey] ?? 1 })
      t.equal(r.status, 400, 'its key is unknown now')
    }

    const ran = await postJson(s, '/api/memory/consolidate', {})
    t.equal(ran.status, 200)
    t.same(Object.keys(ran.body.results), MEMORY_GROUP.filter(n => n !== JOB_OF[off]), 'POST /api/memory/consolidate runs the loaded memory jobs')
    if (MEMORY_GROUP.includes(JOB_OF[off])) {
      const asked = await postJson(s, '/api/memory/consolidate', { jobs: [JOB_OF[off]] })
      t.equal(asked.status, 404)
      t.match(asked.body, { code: 'AGENT_ERR_MEMORY_NOT_FOUND', error: new RegExp(`${off} in plugins\\.json`) })
    }
  })
}

t.test('no memory job plugin: the memory endpoints stay up and POST /api/memory/consolidate says what to enable', async t => {
  const s = await startMemoryKernel(t, { sql: { backend: 'pglite', pglite_dir: 'memory' }, jobs: false })
  t.equal((await s.json('/api/health')).body.status, 'healthy')
  const settings = (await s.json('/api/memory/settings')).body
  t.same(Object.keys(settings), ['_meta'], 'no section, no keys')
  const ran = await postJson(s, '/api/memory/consolidate', {})
  t.equal(ran.status, 404)
  t.match(ran.body.error, /enable job-consolidate, job-patterns or job-promote/)
  t.equal((await s.json('/api/memory/recall-settings')).status, 200)
})
