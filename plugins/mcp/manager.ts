// Every configured tool server, held in the resource pool so a reload of plugins.json
// keeps the connections. Watches mcp_servers.json while a generation is active and
// applies a diff: added servers connect, removed ones disconnect, changed ones reconnect,
// unchanged ones are not touched. Gives tools unique model-facing names.
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { FileWatcher } from '@agentd/sdk'
import type { ToolCallOptions } from '@agentd/sdk/contracts/tool-source'
import { loadServersFile, type LoadedConfig } from './config.ts'
import type { McpConnection, CallOutcome } from './connection.ts'

// The connection code pulls in the MCP SDK (and zod): imported with the first configured
// server, so a server with no tool servers never loads it.
let connectionModule: Promise<typeof import('./connection.ts')> | undefined
const loadConnection = async (): Promise<typeof import('./connection.ts')> => await (connectionModule ??= import('./connection.ts').catch((err: unknown) => { connectionModule = undefined; throw err }))
import { assignToolNames, QUALIFIER } from './names.ts'
import type { McpPluginOptions } from './options.ts'

export interface ManagerInit {
  file: string
  /** The file's name in answers and messages (config.ts shownPath): never its absolute path. */
  shownFile: string
  env: Readonly<Record<string, string | undefined>>
  log: FastifyBaseLogger
  clientVersion: string
  debounceMs: number
  options: McpPluginOptions
  /**
   * Where OAuth credentials are kept (`<data>/mcp-oauth`); AGENT_PUBLIC_URL, agentd's address
   * as a browser reaches it; the bound address (API_HOST:API_PORT), the last resort.
   */
  oauth: { dir: string, publicUrl: string | undefined, boundUrl?: string }
}

export interface ToolView {
  /** Unique name offered to the model. */
  name: string
  server: string
  tool: Tool
  /** `available`, or `error` while its server is down (its last known tools stay listed). */
  status: 'available' | 'error'
}

export class McpManager {
  readonly file: string
  readonly shownFile: string
  #env: ManagerInit['env']
  readonly #log: FastifyBaseLogger
  readonly #clientVersion: string
  readonly #debounceMs: number
  readonly #oauth: ManagerInit['oauth']
  #options: McpPluginOptions
  #connections = new Map<string, McpConnection>()
  #configError: string | undefined
  #chain: Promise<unknown> = Promise.resolve()
  #watcher: FileWatcher | undefined
  #active = 0
  #views: ToolView[] | undefined
  #closed = false
  readonly #listeners = new Set<() => void>()

  constructor (init: ManagerInit) {
    this.file = init.file
    this.shownFile = init.shownFile
    this.#env = init.env
    this.#log = init.log
    this.#clientVersion = init.clientVersion
    this.#debounceMs = init.debounceMs
    this.#oauth = init.oauth
    this.#options = init.options
  }

  /**
   * The environment `${VAR}`s resolve from. Each generation brings its own (.env is re-read
   * for every generation); the next reload re-resolves every entry, and since fingerprints
   * cover resolved values, only servers whose values changed reconnect.
   */
  setEnv (env: ManagerInit['env']): void { this.#env = env }

  /** Called (synchronously, often) whenever a status or a list changes; returns the unsubscribe. */
  onChange (listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => { this.#listeners.delete(listener) }
  }

  /** The newest generation's plugin options win (backoff, default call timeout). */
  setOptions (options: McpPluginOptions): void { this.#options = options }
  get options (): McpPluginOptions { return this.#options }

  /** Why the last read of mcp_servers.json was refused (the previous servers stay), if it was. */
  get configError (): string | undefined { return this.#configError }

  servers (): McpConnection[] { return [...this.#connections.values()] }
  get (name: string): McpConnection | undefined { return this.#connections.get(name) }
  names (): string[] { return [...this.#connections.keys()] }

  #changed = (): void => {
    this.#views = undefined
    for (const l of this.#listeners) l()
  }

  /** Re-reads mcp_servers.json and applies it. Serialized; never throws. */
  async reload (reason: string): Promise<void> {
    const run = async (): Promise<void> => {
      if (this.#closed) return
      let loaded: LoadedConfig
      try {
        loaded = await loadServersFile(this.file, this.#env, this.shownFile)
      } catch (err) {
        this.#configError = (err as Error).message
        this.#log.error({ reason }, this.#configError)
        return
      }
      this.#configError = undefined
      const Connection = loaded.servers.size > 0 ? (await loadConnection()).McpConnection : undefined
      this.#apply(loaded, reason, Connection)
    }
    const p = this.#chain.then(run, run)
    this.#chain = p.catch(() => undefined)
    await p
  }

  /** `Connection` is there whenever `loaded` has servers. */
  #apply (loaded: LoadedConfig, reason: string, Connection: typeof McpConnection | undefined): void {
    const next = new Map<string, McpConnection>()
    const changes: string[] = []
    for (const [name, entry] of loaded.servers) {
      const old = this.#connections.get(name)
      if (old !== undefined && old.entry.fingerprint === entry.fingerprint) { next.set(name, old); continue }
      if (Connection === undefined) throw new Error('MCP connection code not loaded')
      const conn = new Connection(entry, {
        baseDir: path.dirname(this.file),
        log: this.#log,
        clientVersion: this.#clientVersion,
        backoff: () => ({ initialMs: this.#options.reconnect_initial_ms, maxMs: this.#options.reconnect_max_ms }),
        pingIntervalMs: () => this.#options.ping_interval_seconds * 1000,
        onChange: this.#changed,
        oauth: { dir: this.#oauth.dir, callbackUrl: () => this.callbackUrl() },
      })
      next.set(name, conn)
      const wasDesired = old?.desired ?? false
      if (old !== undefined) void old.close()
      changes.push(`${old === undefined ? 'added' : 'changed'} ${name}`)
      if (entry.error !== undefined) this.#log.error({ mcp_server: name }, entry.error)
      const cfg = entry.config
      if (cfg !== undefined && cfg.enabled && (cfg.autoConnect || wasDesired)) void conn.connect()
    }
    for (const [name, old] of this.#connections) {
      if (!next.has(name)) { void old.close(); changes.push(`removed ${name}`) }
    }
    this.#connections = next
    this.#changed()
    if (changes.length > 0) this.#log.info({ reason, changes }, 'tool servers configuration applied')
  }

  /** A generation became active: watch the file (once for all generations) and re-apply it. */
  async activate (): Promise<void> {
    this.#active++
    if (this.#watcher === undefined) {
      const w = new FileWatcher(this.#debounceMs, () => { void this.reload('mcp_servers.json changed') })
      this.#watcher = w
      await w.set([this.file]).catch((err: unknown) => { this.#log.warn({ error: (err as Error).message }, `cannot watch ${this.file}; edits apply on the next reload`) })
    }
    await this.reload('activate')
  }

  async deactivate (): Promise<void> {
    this.#active = Math.max(0, this.#active - 1)
    if (this.#active === 0) {
      const w = this.#watcher
      this.#watcher = undefined
      await w?.close()
    }
  }

  async close (): Promise<void> {
    this.#closed = true
    const w = this.#watcher
    this.#watcher = undefined
    await w?.close()
    await Promise.allSettled(this.servers().map(async c => { await c.close() }))
  }

  #origin: string | undefined

  /** The origin the API was last reached on (the connect route notes it): the callback's host when AGENT_PUBLIC_URL is unset. */
  noteOrigin (origin: string): void { this.#origin = origin }

  /** agentd's OAuth callback: AGENT_PUBLIC_URL, else where the connect request came in, else the bound address. */
  callbackUrl (): string {
    const base = this.#oauth.publicUrl ?? this.#origin ?? this.#oauth.boundUrl ?? 'http://127.0.0.1:12319'
    return new URL('/api/mcp/oauth/callback', base).href
  }

  /** The server whose authorization request carried this `state` (the callback's proof it asked). */
  byAuthState (state: string): McpConnection | undefined {
    return this.servers().find(c => c.oauth?.pendingState !== undefined && c.oauth.pendingState === state)
  }

  /** Tools of connected servers (and the last known tools of servers that are down), uniquely named. */
  toolViews (): ToolView[] {
    if (this.#views !== undefined) return this.#views
    const raw = this.servers()
      .filter(c => c.status === 'connected' || ((c.status === 'error' || c.status === 'needs_auth') && c.desired))
      .flatMap(c => c.tools.map(tool => ({ server: c.name, tool: tool.name, def: tool, status: c.status === 'connected' ? 'available' as const : 'error' as const })))
    this.#views = assignToolNames(raw).map(v => ({ name: v.name, server: v.server, tool: v.def, status: v.status }))
    return this.#views
  }

  /** The view for a model-facing name; a `<server>__<tool>` name is accepted even when not needed. */
  resolveTool (name: string): ToolView | undefined {
    const views = this.toolViews()
    const exact = views.find(v => v.name === name)
    if (exact !== undefined) return exact
    const i = name.indexOf(QUALIFIER)
    if (i <= 0) return undefined
    const server = name.slice(0, i)
    const tool = name.slice(i + QUALIFIER.length)
    return views.find(v => v.server === server && v.tool.name === tool)
  }

  async callTool (name: string, args: Record<string, unknown>, opts: ToolCallOptions = {}): Promise<CallOutcome> {
    const view = this.resolveTool(name)
    if (view === undefined) {
      const known = this.toolViews().map(v => v.name)
      return { content: `Unknown tool "${name}". Tools from tool servers: ${known.join(', ') || 'none (no server is connected)'}.`, isError: true }
    }
    const conn = this.#connections.get(view.server)
    if (conn === undefined) return { content: `Tool server "${view.server}" was removed from the configuration.`, isError: true }
    // The entry's call_timeout bounds the call even when the caller (the chat always does)
    // brings its own, longer limit; without either, the plugin's default applies.
    const own = conn.entry.config?.callTimeoutMs
    const timeoutMs = opts.timeoutMs === undefined
      ? own ?? this.#options.call_timeout_seconds * 1000
      : own === undefined ? opts.timeoutMs : Math.min(opts.timeoutMs, own)
    return await conn.callTool(view.tool.name, args, { signal: opts.signal, timeoutMs, trace: opts.trace })
  }
}
