// One tool server: its SDK client, its status (`connecting`, `connected`, `error` with
// the error, `disconnected`), the tools/resources/prompts it lists (refreshed on its
// list_changed notifications) and automatic reconnection with capped exponential
// backoff when it dies. Every text that leaves this file is redacted of the server's
// env and header values.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  ErrorCode, McpError,
  ToolListChangedNotificationSchema, ResourceListChangedNotificationSchema, PromptListChangedNotificationSchema,
  type Tool, type Resource, type Prompt,
} from '@modelcontextprotocol/sdk/types.js'
import type { FastifyBaseLogger } from 'fastify'
import type { ServerEntry } from './config.ts'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { buildTransport, type BuiltTransport, type WireTransport } from './transports.ts'
import { makeRedactor, redactDeep, type Redactor } from './redact.ts'
import { backoffDelay, type BackoffOptions } from './backoff.ts'
import { resultToText } from './content.ts'
import { TIMED_OUT, within } from '@agentd/sdk'

export type ServerStatus = 'connecting' | 'connected' | 'error' | 'disconnected'

export interface ConnectionContext {
  baseDir: string
  log: FastifyBaseLogger
  clientVersion: string
  backoff: () => BackoffOptions
  /** 0: no keep-alive pings. */
  pingIntervalMs: () => number
  /** Called whenever status or the lists change (the manager recomputes tool names). */
  onChange: () => void
}

export interface CallOutcome { content: string, isError: boolean }

const MAX_PAGES = 50

class TimeoutError extends Error { override name = 'TimeoutError' }

/** `p`, or a TimeoutError after `ms`; the message names `limitMs`, the configured limit `ms` is what is left of. */
async function answerWithin<T> (p: Promise<T>, ms: number, what: string, limitMs = ms): Promise<T> {
  const outcome = await within(p, ms)
  if (outcome === TIMED_OUT) throw new TimeoutError(`${what} did not answer within ${limitMs / 1000} s (the server's "timeout")`)
  return outcome
}

/**
 * Whether a failed streamable HTTP connect means "no streamable HTTP endpoint here" (so a
 * `transport: "http"` server is worth trying over legacy SSE): 404/405 on the POST, or an
 * answer that is not MCP at all (wrong content type, not JSON-RPC). Anything else (401/403,
 * 5xx, a refused connection) would fail over SSE just the same and is reported as it is.
 */
export function noStreamableEndpoint (err: unknown): boolean {
  if (err instanceof StreamableHTTPError) return err.code === 404 || err.code === 405 || err.code === -1
  return err instanceof SyntaxError || (err instanceof Error && /ZodError/.test(err.name))
}

function message (err: unknown): string {
  // The SDK's text carries the response body only; the status is what says what to fix.
  if (err instanceof StreamableHTTPError && err.code !== undefined && err.code > 0) {
    const hint = err.code === 401 || err.code === 403 ? ' (check the server\'s "headers", e.g. Authorization, in mcp_servers.json)' : ''
    return `HTTP ${err.code}${hint}: ${err.message}`
  }
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause
    const extra = cause instanceof Error && !err.message.includes(cause.message) ? ` (${cause.message})` : ''
    return `${err.message}${extra}`
  }
  return String(err)
}

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

  constructor (entry: ServerEntry, ctx: ConnectionContext) {
    this.name = entry.name
    this.entry = entry
    this.#ctx = ctx
    this.#log = ctx.log.child({ mcp_server: entry.name })
    this.redact = makeRedactor(entry.config?.secrets ?? [])
    if (entry.error !== undefined) { this.status = 'error'; this.error = entry.error }
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
    const built: BuiltTransport = buildTransport(cfg, kind, this.#ctx.baseDir, line => { this.#log.info({ stream: 'stderr' }, this.redact(line)) })
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
    const all: Array<Tool | Resource | Prompt> = []
    let cursor: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = cursor === undefined ? {} : { cursor }
      if (what === 'tools') {
        const r = await client.listTools(params, { timeout })
        all.push(...r.tools)
        cursor = r.nextCursor
      } else if (what === 'resources') {
        const r = await client.listResources(params, { timeout })
        all.push(...r.resources)
        cursor = r.nextCursor
      } else {
        const r = await client.listPrompts(params, { timeout })
        all.push(...r.prompts)
        cursor = r.nextCursor
      }
      if (cursor === undefined) break
    }
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
  async callTool (tool: string, args: Record<string, unknown>, opts: { signal?: AbortSignal, timeoutMs: number }): Promise<CallOutcome> {
    const client = this.#client
    if (client === undefined || this.status !== 'connected') {
      const state = this.status === 'error' ? `is unavailable (${this.error ?? 'error'})${this.nextRetryAt !== undefined ? '; reconnecting' : ''}` : `is ${this.status}`
      return { content: `Tool "${tool}" cannot run: tool server "${this.name}" ${state}.`, isError: true }
    }
    opts.signal?.throwIfAborted()
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { signal: opts.signal, timeout: opts.timeoutMs })
      return { content: this.redact(resultToText(result)), isError: result.isError === true }
    } catch (err) {
      if (opts.signal?.aborted === true) throw opts.signal.reason ?? err
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
