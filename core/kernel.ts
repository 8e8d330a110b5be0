// The kernel: a stable http.Server that hands every request to the current generation,
// and the reload loop that builds the next generation beside it and swaps them.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import type { Logger } from 'pino'
import { loadEnv, readSettings, readRuntimeConfig, updateRuntimeConfig, runtimeConfigPath, ensureDir, type Env, type Settings } from './config.ts'
import { planPlugins, configSections, PluginLoadError, type PlannedPlugin } from './plugin-loader.ts'
import { Generation } from './generation.ts'
import { FileWatcher, ResourcePool, TIMED_OUT, within, type KernelApi, type PluginStatus, type ReloadOutcome } from '@agentd/sdk'
import { createLogger } from './logger.ts'
import { RateLimitBackend } from './rate-limit-store.ts'
import { runtimeConfigSchema, type RuntimeConfig } from './config-schema.ts'
import type { TSchema } from '@agentd/sdk/typebox'
import { createRequestGuard, isLoopbackHost, requestId, type Refusal } from '@agentd/sdk'

export const VERSION: string = (JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8')) as { version: string }).version

export interface KernelOptions {
  cwd?: string
  /** Defaults to process.env (with .env from cwd underneath). Tests pass their own. */
  env?: NodeJS.ProcessEnv
  logger?: Logger
  /** Watch plugins.json and data/config.json for changes (default true). */
  watch?: boolean
  /** How long a generation's deactivate() may take before a swap goes on without it (default 10 s). */
  deactivateTimeoutMs?: number
}

export class Kernel {
  /** The environment as at start (process variables over .env); `.env` is re-read for every generation. */
  readonly env: Env
  readonly #baseEnv: NodeJS.ProcessEnv
  readonly settings: Settings
  readonly log: Logger
  readonly pool = new ResourcePool()
  /** Rate-limit counters live as long as the process (a reload must not hand out a fresh allowance); in Redis when configured, shared by a cluster. */
  readonly rateLimits: RateLimitBackend
  readonly server: http.Server
  #current: Generation | undefined
  #generationCounter = 0
  readonly #loading = new Set<string>() // see GenerationInput.loading
  #lastReload: ReloadOutcome | null = null
  #failedPlugin: PluginStatus | undefined
  #reloadChain: Promise<unknown> = Promise.resolve()
  #retiring = new Set<Promise<void>>()
  #watcher: FileWatcher | undefined
  /** Hash of the watched files' contents the last reload attempt read (ok or not). */
  #lastInputs: string | undefined
  #closing = false
  #served = false // a plugin generation has been activated (health's readiness: KernelApi.serving)
  readonly #deactivateTimeoutMs: number
  /** data/config.json's schema for the plugins serving now (none: every key refused). */
  #configSchema: TSchema = runtimeConfigSchema({})
  readonly api: KernelApi
  /** Host and Origin checks, before any generation sees the request (the SDK's trust.ts). */
  readonly #guard: (req: http.IncomingMessage) => Refusal | undefined

  constructor (opts: KernelOptions = {}) {
    const cwd = path.resolve(opts.cwd ?? process.cwd())
    this.#baseEnv = opts.env ?? process.env
    this.env = loadEnv(cwd, this.#baseEnv)
    this.settings = readSettings(this.env, cwd)
    this.log = opts.logger ?? createLogger(this.settings.logLevel)
    ensureDir(this.settings.dataDir)
    this.#deactivateTimeoutMs = opts.deactivateTimeoutMs ?? 10_000
    this.rateLimits = new RateLimitBackend(this.settings.rateLimitEnabled ? this.settings.rateLimitRedis.uri : undefined, this.settings.rateLimitRedis.namespace, this.log)
    this.api = {
      version: VERSION,
      generation: () => this.#current?.number ?? 0,
      plugins: () => this.pluginStatuses(),
      lastReload: () => this.#lastReload,
      serving: () => this.#served && !this.#closing,
      reload: async (reason: string) => await this.reload(reason),
      // Checked against the sections of the plugins serving now; the write triggers the reload.
      updateConfig: async (patch) => await updateRuntimeConfig(this.settings.dataDir, this.#configSchema, patch),
    }
    this.#guard = createRequestGuard(this.settings.allowedHosts, this.settings.corsOrigins)
    // A whole request must arrive within requestTimeoutMs (a body sent a byte at a time
    // would hold a socket forever); Node stops that clock once the request is in, so SSE responses go on.
    const requestTimeout = this.settings.requestTimeoutMs
    this.server = http.createServer({ connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(requestTimeout / 4))) }, (req, res) => { this.#dispatch(req, res) })
    // Fastify's server timeouts belong on the server that listens.
    this.server.keepAliveTimeout = 72_000
    this.server.headersTimeout = Math.min(60_000, requestTimeout)
    this.server.requestTimeout = requestTimeout
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
      const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      if (socket.writable) socket.end(timedOut ? 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n' : 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
      else socket.destroy()
    })
    if (opts.watch !== false) {
      this.#watcher = new FileWatcher(this.settings.reloadDebounceMs, (files) => {
        void this.#reloadIfChanged(`file changed: ${files.map(f => path.relative(this.settings.cwd, f)).join(', ')}`)
      })
    }
  }

  get current (): Generation | undefined { return this.#current }

  #dispatch (req: http.IncomingMessage, res: http.ServerResponse): void {
    const refused = this.#guard(req)
    if (refused !== undefined) {
      answer(req, res, 403, { error: refused.message, code: refused.code })
      return
    }
    const gen = this.#current
    if (gen === undefined) {
      answer(req, res, 503, { error: 'The server is starting (loading plugins); retry in a moment.', code: 'AGENT_ERR_STARTING' }, { 'retry-after': '1' })
      return
    }
    gen.track(res)
    gen.app.routing(req, res)
  }

  pluginStatuses (): PluginStatus[] {
    const list = [...(this.#current?.plugins ?? [])]
    const failed = this.#failedPlugin
    if (failed !== undefined) {
      const i = list.findIndex(p => p.name === failed.name)
      if (i >= 0) list[i] = failed
      else list.push(failed)
    }
    return list
  }

  #watchedFiles (): string[] {
    return [this.settings.pluginsFile, runtimeConfigPath(this.settings.dataDir), path.join(this.settings.cwd, '.env'), ...(this.#current?.lifecycle.watchedFiles ?? [])]
  }

  async #inputsHash (): Promise<string> {
    const h = createHash('sha256')
    for (const f of this.#watchedFiles()) h.update(f).update('\0').update(await readFile(f).catch(() => Buffer.from('(missing)'))).update('\0')
    return h.digest('hex')
  }

  /**
   * A file event whose contents match what the last reload read (a touch, the same bytes
   * written twice, a config update that already reloaded) is not a change. Going back to
   * the serving generation's contents after a failed reload is one: it clears the failure.
   */
  async #reloadIfChanged (reason: string): Promise<void> {
    if (this.#lastInputs !== undefined && await this.#inputsHash() === this.#lastInputs) {
      this.log.debug({ reason }, 'watched files unchanged; no reload')
      return
    }
    await this.reload(reason)
  }

  async #plan (): Promise<{ plugins: PlannedPlugin[], config: RuntimeConfig, schema: TSchema }> {
    const plugins = await planPlugins(this.settings.pluginsFile, VERSION, (message, plugin) => { this.log.warn({ plugin }, message) })
    // data/config.json is checked against the sections of the plugins about to load.
    const schema = runtimeConfigSchema(configSections(plugins))
    return { plugins, config: await readRuntimeConfig(this.settings.dataDir, schema), schema }
  }

  async #build (plugins: PlannedPlugin[], config: RuntimeConfig, starting = false): Promise<Generation> {
    return await Generation.build({
      // The early generation of the kernel's own routes is number 0: the first with plugins is 1.
      number: starting ? 0 : this.#generationCounter + 1,
      starting,
      // Plugins see .env as it is now (edit it to switch POSTGRES_URI, say); process
      // variables still win, and server settings (host, port, limits) stay as at start.
      env: loadEnv(this.settings.cwd, this.#baseEnv),
      settings: this.settings,
      runtimeConfig: config,
      plugins,
      pool: this.pool,
      rateLimitStore: this.rateLimits,
      logger: this.log,
      kernel: this.api,
      loading: this.#loading,
    })
  }

  /**
   * Starts serving. The port is bound first, so a taken port fails at once and clients
   * get a clear 503 "starting" while the first generation builds (PGlite's first start
   * takes seconds). A plugins.json that fails to load still starts the server, with core
   * routes only and the reason in /api/plugins.
   */
  async start (): Promise<AddressInfo> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject)
      // A deep accept backlog: a burst of new connections (a thousand SSE clients at once)
      // waits in the queue instead of being dropped and retried after growing delays.
      this.server.listen({ port: this.settings.port, host: this.settings.host, backlog: 4096 }, () => { this.server.off('error', reject); resolve() })
    })
    const addr = this.server.address() as AddressInfo
    // Serve early: the kernel's own routes answer while the plugins load (importing them,
    // opening stores); every other path gets a 503 `starting` meanwhile.
    const early = await this.#build([], {}, true)
    this.#current = early
    const outcome = await this.reload('start')
    if (!outcome.ok) {
      this.log.error({ error: outcome.error }, 'plugins failed to load at start; serving core routes only until plugins.json is fixed')
      const gen = await this.#build([], {})
      this.#generationCounter = gen.number
      this.#current = gen
      this.#retire(early)
      await gen.lifecycle.activate((name, err) => { this.log.error({ err, plugin: name }, 'activate failed') })
      this.#served = true
    }
    // A page at / is the web console when its plugin runs.
    const url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`
    const page = this.#current?.app.hasRoute({ method: 'GET', url: '/' }) === true ? `, web console at ${url}/` : ''
    this.log.info(`agentd ${VERSION} listening on ${url}${page} (API docs at ${url}/docs)`)
    if (!isLoopbackHost(this.settings.host)) this.log.warn(`API_HOST is ${this.settings.host}, not a loopback address: other machines can reach this server. Set AGENT_ALLOWED_HOSTS to the names clients use (only those and this address are served) and AGENT_API_KEY_REQUIRED=true with AGENT_API_KEY (docs/security.md).`)
    return addr
  }

  /** Builds the next generation and swaps it in. Serialized; never throws; resolves once the swap is done (the old one drains after). */
  async reload (reason: string): Promise<ReloadOutcome & { generation: number }> {
    const run = async (): Promise<ReloadOutcome & { generation: number }> => {
      const started = performance.now()
      const at = new Date().toISOString()
      if (this.#closing) return { at, ok: false, reason, error: 'the server is shutting down', generation: this.api.generation() }
      let next: Generation
      try {
        this.#lastInputs = await this.#inputsHash()
        const { plugins, config, schema } = await this.#plan()
        next = await this.#build(plugins, config)
        this.#configSchema = schema
      } catch (err) {
        const error = describe(err)
        const plugin = err instanceof PluginLoadError ? err.plugin : undefined
        this.#failedPlugin = plugin === undefined ? undefined : failedStatus(plugin, (err as PluginLoadError).module, error, this.#current?.plugins)
        this.#lastReload = { at, ok: false, reason, error, duration_ms: ms(started) }
        this.log.error({ reason, error }, 'reload failed; the previous generation keeps serving')
        await this.#refreshWatch()
        return { ...this.#lastReload, generation: this.api.generation() }
      }
      this.#generationCounter = next.number
      const old = this.#current
      this.#current = next
      this.#failedPlugin = undefined
      this.#lastReload = { at, ok: true, reason, duration_ms: ms(started) }
      // Background work never runs twice: the old generation's schedulers and watchers
      // stop (bounded, so a stuck deactivate cannot hold the reload) before the new
      // generation's start. Requests already go to the new one meanwhile.
      if (old !== undefined) await this.#deactivate(old)
      await next.lifecycle.activate((name, err) => { this.log.error({ err, plugin: name }, 'plugin activate failed') })
      this.#served = true
      if (old !== undefined) this.#retire(old)
      this.log.info({ generation: next.number, reason, duration_ms: this.#lastReload.duration_ms }, 'generation swapped in')
      await this.#refreshWatch()
      return { ...this.#lastReload, generation: next.number }
    }
    const p = this.#reloadChain.then(run, run)
    this.#reloadChain = p.catch(() => undefined)
    return await p
  }

  /** Runs the generation's deactivate(); past the timeout, logs and moves on (the participants keep whatever they still run). */
  async #deactivate (gen: Generation): Promise<void> {
    const done = gen.lifecycle.deactivate((name, err) => { this.log.error({ err, plugin: name, generation: gen.number }, 'plugin deactivate failed') })
    if (await within(done, this.#deactivateTimeoutMs) === TIMED_OUT) this.log.warn({ generation: gen.number, timeout_ms: this.#deactivateTimeoutMs }, 'deactivate did not finish in time; going on without it')
  }

  /** Drains and closes a generation whose background work has already stopped, in the background. */
  #retire (old: Generation): void {
    const task = (async () => {
      const { cut } = await old.drain(this.settings.drainTimeoutMs)
      if (cut > 0) this.log.warn({ generation: old.number, cut }, 'drain timeout: cut requests still open on the old generation')
      await old.close().catch((err: unknown) => { this.log.error({ err }, 'closing old generation failed') })
    })()
    this.#retiring.add(task)
    void task.finally(() => this.#retiring.delete(task))
  }

  /** Resolves once every retired generation has drained and closed. */
  async settled (): Promise<void> {
    await this.#reloadChain
    await Promise.all([...this.#retiring])
  }

  async #refreshWatch (): Promise<void> {
    if (this.#watcher === undefined || this.#closing) return
    await this.#watcher.set(this.#watchedFiles()).catch((err: unknown) => { this.log.warn({ err }, 'file watcher failed; live reload on file change is off') })
  }

  /** Graceful shutdown: stop accepting, drain, close plugins and resources. */
  async close (): Promise<void> {
    if (this.#closing) return
    this.#closing = true
    // Stop accepting first, before anything that awaits: a connection arriving after the
    // signal is refused, while the requests already in flight go on.
    const listening = this.server.listening
    const closed = listening ? new Promise<void>(resolve => this.server.close(() => { resolve() })) : Promise.resolve()
    this.server.closeIdleConnections()
    await this.#watcher?.close()
    await this.#reloadChain
    const gen = this.#current
    if (gen !== undefined) {
      await this.#deactivate(gen)
      const { cut } = await gen.drain(this.settings.drainTimeoutMs)
      if (cut > 0) this.log.warn({ cut, timeout_ms: this.settings.drainTimeoutMs }, 'drain timeout: cut requests still open at shutdown')
      await gen.close().catch((err: unknown) => { this.log.error({ err }, 'closing generation failed') })
    }
    await Promise.all([...this.#retiring])
    this.server.closeAllConnections()
    await closed
    await this.pool.disposeAll()
    await this.rateLimits.close()
  }
}

function ms (started: number): number { return Math.round((performance.now() - started) * 100) / 100 }

function describe (err: unknown): string {
  const e = err as Error & { cause?: unknown }
  return e?.message ?? String(err)
}

function failedStatus (name: string, module: string | undefined, error: string, current: PluginStatus[] | undefined): PluginStatus {
  const known = current?.find(p => p.name === name)
  return { name, module: module ?? known?.module ?? '', version: known?.version ?? VERSION, enabled: true, status: 'failed', error }
}

/** The kernel's own answer, before any generation: the error body with the request's id. */
function answer (req: http.IncomingMessage, res: http.ServerResponse, status: number, body: { error: string, code: string }, headers: Record<string, string> = {}): void {
  const id = requestId(req.headers['x-request-id'])
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': id, ...headers }).end(JSON.stringify({ ...body, statusCode: status, request_id: id }))
}
