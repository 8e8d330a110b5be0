// The kernel's own routes: index, health (asks every contributor), plugins, reload.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { HealthContributor, HealthSection } from '@agentd/sdk/contracts/health'
import { Errors } from '@agentd/sdk'

// A section whose status is one of these makes the whole answer `degraded`.
const UNHEALTHY_STATES: readonly string[] = ['unhealthy', 'error', 'degraded']

/**
 * Asks each contributor for its section, all at once; one that fails or does not answer
 * within `timeoutMs` (AGENT_HEALTH_TIMEOUT_MS, 5 s) reports `unhealthy` with the reason instead.
 */
async function checkAll (contributors: HealthContributor[], into: Record<string, HealthSection>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  // Aborted at the cap, so a contributor that honours the signal stops its upstream call.
  const abort = new AbortController()
  const timeout = new Promise<'timeout'>(resolve => { timer = setTimeout(() => { resolve('timeout'); abort.abort() }, timeoutMs) })
  try {
    await Promise.all(contributors.map(async c => {
      try {
        const r = await Promise.race([c.check(abort.signal), timeout])
        into[c.section] = r === 'timeout' ? { status: 'unhealthy', error: `health of ${c.section} did not answer within ${timeoutMs} ms` } : r
      } catch (err) {
        into[c.section] = { status: 'unhealthy', error: (err as Error).message }
      }
    }))
  } finally { clearTimeout(timer) }
}

const PluginStatusSchema = Type.Object({
  name: Type.String(), module: Type.String(), version: Type.String(), enabled: Type.Boolean(),
  status: Type.Union([Type.Literal('loaded'), Type.Literal('disabled'), Type.Literal('failed')]),
  error: Type.Optional(Type.String()),
})

export async function coreRoutes (app: FastifyInstance, opts: { healthTimeoutMs: number }): Promise<void> {
  app.get('/api/index', {
    schema: { tags: ['core'], summary: 'Service index', response: { 200: Type.Object({ message: Type.String(), version: Type.String(), docs: Type.String() }) } },
  }, async () => ({ message: 'agentd: a self-hosted agent server. See /docs for the API.', version: app.kernel.version, docs: '/docs' }))

  app.get('/api/health', {
    schema: {
      tags: ['core'],
      summary: 'Health of the API and of every registered contributor',
      querystring: Type.Object({ include_memory: Type.Optional(Type.Boolean()) }),
    },
  }, async (request) => {
    const query = request.query as { include_memory?: boolean }
    const optIns: Record<string, boolean> = { include_memory: query.include_memory === true }
    const sections: Record<string, HealthSection> = {}
    const asked = app.registry.healthContributors.values().filter(c => c.optIn === undefined || optIns[c.optIn])
    // Most polls have no contributor to wait for: no timer, no promises.
    if (asked.length > 0) await checkAll(asked, sections, opts.healthTimeoutMs)
    let degraded = false
    for (const name in sections) if (UNHEALTHY_STATES.includes(sections[name].status)) degraded = true
    return { status: degraded ? 'degraded' : 'healthy', version: app.kernel.version, api: { status: 'healthy' }, ...sections }
  })

  app.get('/api/plugins', {
    schema: {
      tags: ['core'],
      summary: 'Loaded plugins, the generation number and how the last reload went',
      response: {
        200: Type.Object({
          generation: Type.Integer(),
          plugins: Type.Array(PluginStatusSchema),
          last_reload: Type.Union([Type.Null(), Type.Object({ at: Type.String(), ok: Type.Boolean(), reason: Type.String(), error: Type.Optional(Type.String()), duration_ms: Type.Optional(Type.Number()) })]),
        }),
      },
    },
  }, async () => ({ generation: app.kernel.generation(), plugins: app.kernel.plugins(), last_reload: app.kernel.lastReload() }))

  app.post('/api/plugins/reload', {
    schema: { tags: ['core'], summary: 'Rebuild the plugin generation from plugins.json now' },
  }, async () => {
    const outcome = await app.kernel.reload('POST /api/plugins/reload')
    if (!outcome.ok) throw new Errors.UNPROCESSABLE(`Reload failed; the previous generation keeps serving. ${outcome.error ?? ''}`.trim())
    return { ok: true, generation: outcome.generation }
  })
}
