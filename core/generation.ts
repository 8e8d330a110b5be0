// A generation: one Fastify instance built from plugins.json and the config of the
// moment. It never listens; the dispatcher hands it requests. Building one either
// succeeds whole or closes what it built and throws.
import Fastify, { LogController, type FastifyInstance, type FastifyBaseLogger } from 'fastify'
import type { ServerResponse } from 'node:http'
import { createRegistry, Hooks, ScopedResources, installBodyParsers, requestId, lazySerializers, validatorCompiler, TIMED_OUT, within, type KernelApi, type PluginStatus, type ResourcePool } from '@agentd/sdk'
import { ConfigView, type Env, type Settings } from './config.ts'
import type { RuntimeConfig } from './config-schema.ts'
import { Lifecycle } from './lifecycle.ts'
import { installErrorHandler } from './errors.ts'
import { installNotFound } from './not-found.ts'
import { installCors } from './cors.ts'
import { installSecurity } from './security.ts'
import type { RateLimitBackend } from './rate-limit-store.ts'
import { installOpenApi } from './openapi.ts'
import { coreRoutes } from './routes.ts'
import { requestLoggerFactory } from './request-logger.ts'
import { PluginLoadError, type PlannedPlugin } from './plugin-loader.ts'

export interface GenerationInput {
  number: number
  env: Env
  settings: Settings
  runtimeConfig: RuntimeConfig
  plugins: PlannedPlugin[]
  pool: ResourcePool
  /** The process's rate-limit counters, so a reload does not reset them. */
  rateLimitStore: RateLimitBackend
  logger: FastifyBaseLogger
  kernel: KernelApi
  /**
   * The kernel's own routes only, served while the plugins load: /api/index answers at
   * once, /api/health says `starting`, and any other path a 503 `starting` (not a 404: the
   * route may well exist in a moment).
   */
  starting?: boolean
  /** The plugins this build has yet to register (the same set for every build; the early generation's 503 names them). */
  loading?: Set<string>
}

export class Generation {
  readonly number: number
  readonly app: FastifyInstance
  readonly lifecycle: Lifecycle
  readonly plugins: PluginStatus[]
  /** Responses being served; counted so the generation can drain before it closes. */
  readonly inflight = new Set<ServerResponse>()
  #drained: (() => void) | undefined

  private constructor (number: number, app: FastifyInstance, lifecycle: Lifecycle, plugins: PluginStatus[]) {
    this.number = number
    this.app = app
    this.lifecycle = lifecycle
    this.plugins = plugins
  }

  static async build (input: GenerationInput): Promise<Generation> {
    const { settings } = input
    const log = input.logger.child({ generation: input.number })
    const app = Fastify({
      // No logger for Fastify itself: given one, it hangs finish/error listeners and two
      // clock reads on every response only to log completions, which are off here (~3 us a
      // request, a tenth of a small route). The generation's logger becomes app.log below
      // and request.log comes from the factory, so plugins log exactly as before.
      logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
      childLoggerFactory: requestLoggerFactory(log),
      // The caller's X-Request-Id when well-formed, else a UUID (SDK kernel/request-id.ts); bound on log lines as request_id (above).
      genReqId: (req) => requestId(req.headers['x-request-id']),
      pluginTimeout: 60_000,
      bodyLimit: 8 * 1024 * 1024,
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
      // Each route's serializer compiled on its first response, not at start (SDK kernel/schema-compilers.ts).
      schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    })
    app.log = log
    const registry = createRegistry()
    const hooks = new Hooks()
    const resources = new ScopedResources(input.pool)
    const lifecycle = new Lifecycle()
    const config = new ConfigView(input.env, settings, input.runtimeConfig)
    app.decorate('registry', registry)
    app.decorate('hooks', hooks)
    app.decorate('resources', resources)
    app.decorate('agentConfig', config)
    app.decorate('lifecycle', lifecycle)
    app.decorate('kernel', input.kernel)
    app.setValidatorCompiler(validatorCompiler)
    // The id goes back in X-Request-Id: through Fastify's own header store (a raw
    // res.setHeader before Fastify's writeHead costs every header its slow path).
    app.addHook('onRequest', (request, reply, done) => { reply.header('x-request-id', request.id); done() })
    installBodyParsers(app)
    installErrorHandler(app)
    installNotFound(app, input.starting === true ? () => [...(input.loading ?? [])] : undefined)
    // Whatever fails below leaves nothing behind: resources acquired so far are released.
    app.addHook('onClose', async () => { await resources.releaseAll() })

    const statuses: PluginStatus[] = []
    try {
      // CORS first: its hook answers a preflight before the API-key check and the rate limit run.
      await installCors(app, settings.corsOrigins)
      await installSecurity(app, settings, input.rateLimitStore)
      // The starting generation serves index and health only: no /docs until plugins are in.
      if (input.starting !== true) await installOpenApi(app, input.kernel.version)
      if (input.starting !== true) await app.register((await import('@fastify/sse')).fastifySSE, { heartbeatInterval: 15_000 })
      await app.register(coreRoutes, { healthTimeoutMs: settings.healthTimeoutMs })
      input.loading?.clear()
      for (const p of input.plugins) if (p.enabled && p.plugin !== undefined) input.loading?.add(p.name)
      for (const p of input.plugins) {
        const base = { name: p.name, module: p.module, version: p.version, enabled: p.enabled }
        if (!p.enabled || p.plugin === undefined) { statuses.push({ ...base, status: 'disabled' }); continue }
        const started = performance.now()
        try {
          await app.register(p.plugin, { ...p.options, instance: p.name })
          log.debug({ plugin: p.name, ms: Math.round(performance.now() - started) }, 'plugin registered')
          input.loading?.delete(p.name)
        } catch (err) {
          throw new PluginLoadError(`Plugin "${p.name}" failed to start: ${(err as Error).message}`, p.name, err, p.module)
        }
        statuses.push({ ...base, status: 'loaded' })
      }
      await app.ready()
      registry.freeze()
      // A handler on a point nobody runs never fires: a typo, or its owner is disabled.
      for (const point of hooks.undeclared()) input.logger.warn({ hook: point, declared: hooks.declared }, `a plugin subscribed to hook point "${point}", which no loaded plugin runs`)
    } catch (err) {
      await app.close().catch(() => undefined)
      throw err
    }
    return new Generation(input.number, app, lifecycle, statuses)
  }

  track (res: ServerResponse): void {
    this.inflight.add(res)
    // `on`, not `once`: 'close' fires once, and once() allocates a wrapper per request.
    res.on('close', () => {
      this.inflight.delete(res)
      if (this.inflight.size === 0) this.#drained?.()
    })
  }

  /** Waits for in-flight requests (SSE streams included); past the timeout, cuts what is left. */
  async drain (timeoutMs: number): Promise<{ cut: number }> {
    if (this.inflight.size === 0) return { cut: 0 }
    const done = new Promise<void>(resolve => { this.#drained = resolve })
    if (await within(done, timeoutMs) !== TIMED_OUT) return { cut: 0 }
    const cut = this.inflight.size
    for (const res of this.inflight) res.destroy()
    return { cut }
  }

  async close (): Promise<void> {
    await this.app.close()
  }
}
