// The kernel's own routes: index, health (asks every contributor), plugins, reload.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { HealthContributor, HealthSection } from '@agentd/sdk/contracts/health'
import { Errors, HealthSchema, StartingSchema, TIMED_OUT, within } from '@agentd/sdk'

// A section whose status is one of these makes the whole answer `degraded`; `starting`
// (a store or model still coming up behind a serving API) also makes it not ready.
const UNHEALTHY_STATES: readonly string[] = ['unhealthy', 'error', 'degraded', 'starting']

/**
 * Asks each contributor for its section, all at once; one that fails or does not answer
 * within `timeoutMs` (AGENT_HEALTH_TIMEOUT_MS, 5 s) reports `unhealthy` with the reason
 * instead, and is aborted, so one that honours the signal stops its upstream call.
 */
async function checkAll (contributors: HealthContributor[], into: Record<string, HealthSection>, timeoutMs: number): Promise<void> {
  const abort = new AbortController()
  await Promise.all(contributors.map(async c => {
    try {
      const r = await within(c.check(abort.signal), timeoutMs)
      into[c.section] = r === TIMED_OUT ? { status: 'unhealthy', error: `health of ${c.section} did not answer within ${timeoutMs} ms` } : r
    } catch (err) {
      into[c.section] = { status: 'unhealthy', error: (err as Error).message }
    }
  }))
  abort.abort()
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
      summary: 'Liveness, readiness and the health of every registered contributor',
      description: '`?live=true` answers 200 as long as the process serves, asking nobody. Otherwise 503 `starting` until the first plugin generation is activated (tool servers configured, schedules started; a reload later never brings it back); then 200 with `ready` false and status `degraded` while a section is still `starting`. Needs no API key.',
      querystring: Type.Object({ include_memory: Type.Optional(Type.Boolean()), live: Type.Optional(Type.Boolean()) }),
      response: { 200: HealthSchema, 503: StartingSchema },
    },
  }, async (request, reply) => {
    const query = request.query as { include_memory?: boolean, live?: boolean }
    if (query.live === true) return { status: 'alive', version: app.kernel.version }
    // Readiness is the kernel's once a plugin generation has served: during a reload the
    // next generation answers before its activation, and a serving process must not look down.
    if (!app.lifecycle.activated && !app.kernel.serving()) {
      return await reply.code(503).header('retry-after', '1').send({
        status: 'starting', ready: false, version: app.kernel.version, api: { status: 'starting' },
        error: 'The server is starting (loading plugins, activating background work); retry in a moment.', code: 'AGENT_ERR_STARTING', statusCode: 503,
      })
    }
    const optIns: Record<string, boolean> = { include_memory: query.include_memory === true }
    const sections: Record<string, HealthSection> = {}
    const asked = app.registry.healthContributors.values().filter(c => c.optIn === undefined || optIns[c.optIn])
    // Most polls have no contributor to wait for: no timer, no promises.
    if (asked.length > 0) await checkAll(asked, sections, opts.healthTimeoutMs)
    let degraded = false
    const starting: string[] = []
    for (const name in sections) {
      const status = sections[name].status
      if (UNHEALTHY_STATES.includes(status)) degraded = true
      if (status === 'starting') starting.push(name)
    }
    return {
      status: degraded ? 'degraded' : 'healthy',
      ready: starting.length === 0,
      ...(starting.length > 0 ? { starting } : {}),
      version: app.kernel.version,
      api: { status: 'healthy' },
      ...sections,
    }
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
    schema: {
      tags: ['core'], summary: 'Rebuild the plugin generation from plugins.json now',
      description: 'Resolves once the new generation serves; the old one drains in the background. 422 when the new set fails to load (the old one keeps serving).',
      response: { 200: Type.Object({ ok: Type.Literal(true), generation: Type.Integer({ description: 'The generation now serving.' }) }) },
    },
  }, async () => {
    const outcome = await app.kernel.reload('POST /api/plugins/reload')
    if (!outcome.ok) throw new Errors.UNPROCESSABLE(`Reload failed; the previous generation keeps serving. ${outcome.error ?? ''}`.trim())
    return { ok: true, generation: outcome.generation }
  })
}
