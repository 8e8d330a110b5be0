// One tool server: its SDK client, its status (`connecting`, `connected`, `error` with
// the error, `disconnected`), the tools/resources/prompts it lists (refreshed on its
// list_changed notifications) and automatic reconnection with capped exponential
// backoff when it dies. Every text that leaves this file is redacted of the server's
// env and header values. A server with `auth: "oauth"` is `needs_auth` (with the URL a
// person opens) until agentd's callback route brings the code back (finishAuth).
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  ErrorCode, McpError, ToolListChangedNotificationSchema, ResourceListChangedNotificationSchema, PromptListChangedNotificationSchema,
  type Tool, type Resource, type Prompt,
} from '@modelcontextprotocol/sdk/types.js'
import type { FastifyBaseLogger } from 'fastify'
import { traceHeaders, type TraceContext } from '@agentd/sdk'
import type { ServerEntry } from './config.ts'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { buildTransport, type BuiltTransport, type WireTransport } from './transports.ts'
import { makeRedactor, redactDeep, type Redactor } from './redact.ts'
import { backoffDelay, type BackoffOptions } from './backoff.ts'
import { listAll, resultToText } from './content.ts'
import { TimeoutError, answerWithin, message, needsAuthorization, noStreamableEndpoint } from './connection-errors.ts'
import { FileOAuthProvider } from './oauth.ts'

export { noStreamableEndpoint }

export type ServerStatus = 'connecting' | 'connected' | 'needs_auth' | 'error' | 'disconnected'

export interface ConnectionContext {
  baseDir: string
  log: FastifyBaseLogger
  clientVersion: string
  backoff: () => BackoffOptions
  /** 0: no keep-alive pings. */
  pingIntervalMs: () => number
  /** Called whenever status or the lists change (the manager recomputes tool names). */
  onChange: () => void
  /** Where OAuth credentials are kept and agentd's callback URL (servers with `auth`). */
  oauth: { dir: string, callbackUrl: () => string }
}

export interface CallOutcome { content: string, isError: boolean }

export class McpConnection {
  readonly name: string
  readonly entry: ServerEntry
  readonly #ctx: ConnectionContext
  readonly #log: FastifyBaseLogger
  readonly redact: Redactor
  status: ServerStatus = 'disconnected'
  error: string | undefined
  /** Whether we want this server connected (auto_connect, POST connect); a manual disconnect clears it. */
  desired = false
  tools: Tool[] = []
  resources: Resource[] = []
  prompts: Prompt[] = []
  connectedAt: Date | undefined
  wire: WireTransport | undefined
  pid: number | undefined
  attempt = 0
  nextRetryAt: Date | undefined
  #client: Client | undefined
  #transport: BuiltTransport | undefined
  #epoch = 0
  #connecting: Promise<void> | undefined
  #retryTimer: NodeJS.Timeout | undefined
  #pingTimer: NodeJS.Timeout | undefined
  #closed = false
  /** The server's OAuth client (auth: "oauth"): its credentials outlive connections. */
  readonly oauth: FileOAuthProvider | undefined
  /** The transport whose request was refused pending approval: finishAuth exchanges the code on it. */
  #awaitingCode: { finishAuth: (code: string) => Promise<void> } | undefined

  constructor (entry: ServerEntry, ctx: ConnectionContext) {
    this.name = entry.name
    this.entry = entry
    this.#ctx = ctx
    this.#log = ctx.log.child({ mcp_server: entry.name })
    this.redact = makeRedactor(entry.config?.secrets ?? [])
    if (entry.error !== undefined) { this.status = 'error'; this.error = entry.error }
    const cfg = entry.config
    const onAuthorizationUrl = (): void => { this.#log.info('authorization required: POST /api/mcp/connect answers with the URL to open') }
    this.oauth = cfg?.oauth === undefined || cfg.url === undefined ? undefined : new FileOAuthProvider({ server: entry.name, url: cfg.url, dir: ctx.oauth.dir, callbackUrl: ctx.oauth.callbackUrl, clientVersion: ctx.clientVersion, settings: cfg.oauth, onAuthorizationUrl })
  }

  /** The URL a person opens to approve agentd, while the server is `needs_auth`. */
  get authorizationUrl (): string | undefined { return this.status === 'needs_auth' ? this.oauth?.authorizationUrl?.href : undefined }

  /**
   * The end of an authorization: the callback route brings the code; it is exchanged for
   * tokens (stored) and the server connects, or, approved for more scope mid-session
   * (step-up), the live connection goes on with the new token.
   */
  async finishAuth (code: string): Promise<void> {
    const pending = this.#awaitingCode
    if (pending === undefined || this.oauth === undefined) throw new Error(`no authorization is in progress for "${this.name}"; POST /api/mcp/connect first`)
    this.#awaitingCode = undefined
    this.oauth.pendingState = undefined
    try { await pending.finishAuth(code) } catch (err) {
      // The state is spent: a new approval starts with a new connect.
      this.#set('error', `authorization failed: ${message(err)}; connect again to retry`)
      throw err
    }
    this.#log.info('authorized')
    if (this.#client !== undefined) { this.#set('connected'); return }
    this.#set('disconnected')
    await this.connect()
  }

  /** A request was refused until a person approves: the state and URL the connect route shows. */
  #needsAuth (transport: { finishAuth: (code: string) => Promise<void> }): void {
    this.#awaitingCode = transport
    this.#set('needs_auth', 'authorization required: open authorization_url (POST /api/mcp/connect answers with it)')
  }

  get connected (): boolean { return this.status === 'connected' && this.#client !== undefined }
  get enabled (): boolean { return this.entry.enabled }

  #set (status: ServerStatus, error?: string): void {
    this.status = status
    this.error = error === undefined ? undefined : this.redact(error)
    this.#ctx.onChange()
  }

  /** Connects (or joins a connect in progress). Never throws: the outcome is in `status`/`error`. */
  async connect (): Promise<void> {
    // A disabled entry is never connected (the route answers 400 before getting here).
    if (this.#closed || !this.enabled) return
    this.desired = true
    if (this.connected) return
    if (this.#connecting !== undefined) { await this.#connecting; return }
    clearTimeout(this.#retryTimer)
    this.#retryTimer = undefined
    this.nextRetryAt = undefined
    const p = this.#attempt()
    this.#connecting = p
    try { await p } finally { if (this.#connecting === p) this.#connecting = undefined }
  }

  async #attempt (): Promise<void> {
    const cfg = this.entry.config
    if (cfg === undefined) { this.#set('error', this.entry.error ?? 'invalid configuration'); return }
    const epoch = ++this.#epoch
    // Retries keep showing `error` (with the last error) until one succeeds.
    if (this.status !== 'error') this.#set('connecting')
    const deadline = Date.now() + cfg.timeoutMs
    const kinds: WireTransport[] = cfg.transport === 'http' ? ['streamable_http', 'sse'] : [cfg.transport]
    const failures: string[] = []
    for (const kind of kinds) {
      const left = deadline - Date.now()
      if (left <= 0) break
      try {
        await this.#open(kind, left, epoch)
        return
      } catch (err) {
        if (epoch !== this.#epoch) return
        // Waiting for a person is not a failure to retry: no backoff, no SSE fallback.
        if (needsAuthorization(err) && this.oauth?.authorizationUrl !== undefined && this.#awaitingCode !== undefined) return
        failures.push(kinds.length > 1 ? `${kind}: ${message(err)}` : message(err))
        if (err instanceof TimeoutError) break
        // Fall back to SSE only when there is no streamable endpoint; a 401 stays a 401.
        if (kind === 'streamable_http' && !noStreamableEndpoint(err)) break
      }
    }
    if (epoch !== this.#epoch) return
    const why = `connect failed: ${failures.join('; ') || `no answer within ${cfg.timeoutMs / 1000} s`}`
    this.#set('error', why)
    this.#log.warn({ attempt: this.attempt }, this.redact(why))
    this.#scheduleRetry()
  }

  async #open (kind: WireTransport, budgetMs: number, epoch: number): Promise<void> {
    const cfg = this.entry.config!
    const built: BuiltTransport = buildTransport(cfg, kind, this.#ctx.baseDir, line => { this.#log.info({ stream: 'stderr' }, this.redact(line)) }, this.oauth)
    const client = new Client({ name: 'agentd', version: this.#ctx.clientVersion }, { capabilities: {} })
    client.onerror = err => { this.#log.debug({ error: this.redact(message(err)) }, 'transport error') }
    client.onclose = () => { this.#lost(epoch, client, 'the server closed the connection') }
    const refresh = (what: 'tools' | 'resources' | 'prompts') => async () => {
      if (epoch !== this.#epoch) return
      try {
        await this.#refresh(client, what, cfg.timeoutMs, () => epoch === this.#epoch)
        this.#ctx.onChange()
        this.#log.info({ [what]: this[what].length }, `${what} list changed`)
      } catch (err) { this.#log.warn({ error: this.redact(message(err)) }, `refreshing ${what} failed`) }
    }
    client.setNotificationHandler(ToolListChangedNotificationSchema, refresh('tools'))
    client.setNotificationHandler(ResourceListChangedNotificationSchema, refresh('resources'))
    client.setNotificationHandler(PromptListChangedNotificationSchema, refresh('prompts'))
    try {
      await answerWithin((async () => {
        await client.connect(built.transport, { timeout: budgetMs })
        const current = (): boolean => epoch === this.#epoch
        await this.#refresh(client, 'tools', budgetMs, current)
        await this.#refresh(client, 'resources', budgetMs, current)
        await this.#refresh(client, 'prompts', budgetMs, current)
      })(), budgetMs, `"${this.name}"`, cfg.timeoutMs)
    } catch (err) {
      if (needsAuthorization(err) && this.oauth?.authorizationUrl !== undefined && epoch === this.#epoch) {
        // The refused transport keeps what the 401 said (resource metadata, scope) for the exchange.
        this.#needsAuth(built.transport as StreamableHTTPClientTransport)
      }
      // Closing a hung child can take seconds; do it in the background.
      void client.close().catch(() => undefined)
      throw err
    }
    if (epoch !== this.#epoch || this.#closed) { void client.close().catch(() => undefined); return }
    this.#client = client
    this.#transport = built
    this.wire = kind
    this.pid = built.pid()
    this.connectedAt = new Date()
    this.attempt = 0
    this.nextRetryAt = undefined
    this.#set('connected')
    this.#log.info({ transport: kind, tools: this.tools.length, resources: this.resources.length, pid: this.pid }, 'connected')
    this.#startPing(epoch, client, cfg.timeoutMs)
  }

  #startPing (epoch: number, client: Client, timeoutMs: number): void {
    const every = this.#ctx.pingIntervalMs()
    if (every <= 0) return
    let busy = false
    this.#pingTimer = setInterval(() => {
      if (busy) return
      busy = true
      client.ping({ timeout: Math.min(timeoutMs, Math.max(every, 1000)) })
        .catch((err: unknown) => { this.#lost(epoch, client, `ping failed: ${message(err)}`) })
        .finally(() => { busy = false })
    }, every)
    this.#pingTimer.unref()
  }

  #stopPing (): void {
    clearInterval(this.#pingTimer)
    this.#pingTimer = undefined
  }

  /** Lists every page of one kind; stores it only if the connection is still the current one. */
  async #refresh (client: Client, what: 'tools' | 'resources' | 'prompts', timeout: number, current: () => boolean): Promise<void> {
    const caps = client.getServerCapabilities() ?? {}
    if (caps[what] === undefined) { if (current()) this[what] = []; return }
    const all = await listAll(client, what, timeout)
    if (!current()) return
    // Lists are shown by /api/mcp/* and go into the model's tool set: no secret in them either.
    const listed = (this.entry.config?.secrets.length ?? 0) === 0 ? all : all.map(x => redactDeep(x, this.redact))
    if (what === 'tools') this.tools = listed as Tool[]
    else if (what === 'resources') this.resources = listed as Resource[]
    else this.prompts = listed as Prompt[]
  }

  #lost (epoch: number, client: Client, why: string): void {
    if (epoch !== this.#epoch || this.#client !== client || this.#closed) return
    this.#stopPing()
    this.#client = undefined
    this.#transport = undefined
    // Whatever is left of the old connection (an HTTP session, a half-dead child) goes away.
    void client.close().catch(() => undefined)
    this.pid = undefined
    this.#set('error', `connection lost: ${why}`)
    this.#log.warn(this.redact(`connection lost: ${why}`))
    this.#scheduleRetry()
  }

  #scheduleRetry (): void {
    const cfg = this.entry.config
    if (this.#closed || !this.desired || cfg === undefined || !cfg.autoReconnect || this.#retryTimer !== undefined) return
    this.attempt++
    const delay = backoffDelay(this.attempt, this.#ctx.backoff())
    this.nextRetryAt = new Date(Date.now() + delay)
    this.#log.info({ attempt: this.attempt, delay_ms: delay }, 'reconnecting after a delay')
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined
      this.nextRetryAt = undefined
      if (this.#closed || !this.desired || this.connected || this.#connecting !== undefined) return
      void this.connect()
    }, delay)
    this.#retryTimer.unref()
  }

  /** Disconnects and stops reconnecting. Status `disconnected` (an invalid entry keeps its `error`). */
  async disconnect (): Promise<void> {
    this.desired = false
    this.#stopPing()
    clearTimeout(this.#retryTimer)
    this.#retryTimer = undefined
    this.nextRetryAt = undefined
    this.attempt = 0
    this.#epoch++
    this.#connecting = undefined
    const client = this.#client
    const transport = this.#transport?.transport
    this.#client = undefined
    this.#transport = undefined
    this.pid = undefined
    this.connectedAt = undefined
    this.tools = []
    this.resources = []
    this.prompts = []
    if (this.entry.error !== undefined) this.#set('error', this.entry.error)
    else this.#set('disconnected')
    if (client !== undefined) {
      // A streamable HTTP session is ended on the server too (DELETE), so it frees what it holds.
      if (transport instanceof StreamableHTTPClientTransport) {
        await answerWithin(transport.terminateSession(), 2000, `"${this.name}" session end`).catch(() => undefined)
      }
      await client.close().catch((err: unknown) => { this.#log.debug({ error: this.redact(message(err)) }, 'close failed') })
      this.#log.info('disconnected')
    }
  }

  /** For good: used when the entry is removed or replaced, or the plugin goes away. */
  async close (): Promise<void> {
    await this.disconnect()
    this.#closed = true
  }

  /**
   * Calls a tool. A failure of the tool, the server or the time limit comes back as
   * `isError` with a text that says what happened; an abort by the caller throws.
   */
  async callTool (tool: string, args: Record<string, unknown>, opts: { signal?: AbortSignal, timeoutMs: number, trace?: TraceContext }): Promise<CallOutcome> {
    const client = this.#client
    if (client === undefined || this.status !== 'connected') {
      const state = this.status === 'error' ? `is unavailable (${this.error ?? 'error'})${this.nextRetryAt !== undefined ? '; reconnecting' : ''}` : `is ${this.status}`
      return { content: `Tool "${tool}" cannot run: tool server "${this.name}" ${state}.`, isError: true }
    }
    opts.signal?.throwIfAborted()
    // The SDK refreshes only after a 401; a token about to lapse is refreshed first.
    if (this.oauth !== undefined) await this.oauth.refreshIfDue()
    // The trace context goes in `_meta` (MCP's place for it); the HTTP transports also send it as headers.
    try {
      const _meta = traceHeaders(opts.trace)
      const result = await client.callTool({ name: tool, arguments: args, ...(_meta === undefined ? {} : { _meta }) }, undefined, { signal: opts.signal, timeout: opts.timeoutMs })
      return { content: this.redact(resultToText(result)), isError: result.isError === true }
    } catch (err) {
      if (opts.signal?.aborted === true) throw opts.signal.reason ?? err
      if (needsAuthorization(err) && this.oauth?.authorizationUrl !== undefined && this.#transport !== undefined) {
        // More scope asked for mid-session (403 insufficient_scope): a person approves again.
        this.#needsAuth(this.#transport.transport as StreamableHTTPClientTransport)
        return { content: `Tool "${tool}" on "${this.name}" needs more authorization: open the server's authorization_url (GET /api/mcp/servers), then call again.`, isError: true }
      }
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
        return { content: `Tool "${tool}" on "${this.name}" did not finish within ${opts.timeoutMs / 1000} s; it was cancelled.`, isError: true }
      }
      if (!(err instanceof McpError) || err.code === ErrorCode.ConnectionClosed) {
        // Transport-level failure (HTTP server gone, pipe broken): the connection is suspect.
        if (!(err instanceof McpError)) this.#lost(this.#epoch, client, message(err))
      }
      return { content: this.redact(`Tool "${tool}" on "${this.name}" failed: ${message(err)}`), isError: true }
    }
  }
}
