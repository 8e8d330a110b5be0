// The kernel as a plugin sees it: what every generation's Fastify instance carries. These
// are interfaces; the kernel (core/) implements them, and a plugin installed from npm gets
// the same types from this package.
import type { Registry } from './registry.ts'
import type { Hooks } from './hooks.ts'
import type { ConfigView } from './config-view.ts'

export interface PluginStatus {
  name: string
  module: string
  version: string
  enabled: boolean
  status: 'loaded' | 'disabled' | 'failed'
  error?: string
}

export interface ReloadOutcome {
  at: string
  ok: boolean
  reason: string
  error?: string
  duration_ms?: number
}

/** The kernel's controls. */
export interface KernelApi {
  readonly version: string
  generation: () => number
  plugins: () => PluginStatus[]
  lastReload: () => ReloadOutcome | null
  /**
   * The process serves plugins: a plugin generation has been activated since start and
   * the server is not shutting down. A reload does not change it (the next generation
   * answers before its own activation), so health stays ready across a swap.
   */
  serving: () => boolean
  /** Builds and swaps in a new generation; resolves with the outcome (never throws). */
  reload: (reason: string) => Promise<ReloadOutcome & { generation: number }>
  /**
   * Merges a patch into data/config.json, validated whole against the sections the loaded
   * plugins declare, written atomically; the file watcher then reloads. Rejects with a
   * 400 (details per bad key) and writes nothing when the result is invalid.
   */
  updateConfig: (patch: Record<string, unknown>) => Promise<{ config: Record<string, unknown> }>
}

/** Something expensive that outlives a generation (a pool, a loaded model), shared by key. */
export interface ResourceSpec<T> {
  kind: string
  /** What makes two resources interchangeable. Secrets may be included: only their hash is kept. */
  options: unknown
  create: () => Promise<T> | T
  dispose?: (value: T) => Promise<void> | void
}

/** A generation's view of the process-wide resource pool; released when the generation closes. */
export interface Resources {
  acquire: <T>(spec: ResourceSpec<T>) => Promise<T>
}

export type Env = Readonly<Record<string, string | undefined>>

/** The server settings a plugin may read (the rest of the kernel's settings are its own). */
export interface ServerSettings {
  cwd: string
  dataDir: string
  pluginsFile: string
  logLevel: string
  /** How long a watcher waits for a burst of file changes to settle (AGENT_RELOAD_DEBOUNCE_MS). */
  reloadDebounceMs: number
}


export interface LifecycleParticipant {
  name: string
  activate?: () => Promise<void> | void
  deactivate?: () => Promise<void> | void
}

/** Background work runs only on the serving generation: activate after the swap, deactivate before the drain. */
export interface Lifecycle {
  add: (p: LifecycleParticipant) => void
  /** A file whose change rebuilds the generation (the plugin's own config file). */
  reloadOn: (file: string) => void
  readonly active: boolean
  /** Activation has finished (every participant's activate() returned). */
  readonly activated: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    registry: Registry
    hooks: Hooks
    resources: Resources
    agentConfig: ConfigView
    lifecycle: Lifecycle
    kernel: KernelApi
  }
  interface FastifyContextConfig {
    /**
     * Served without `X-API-Key` even when AGENT_API_KEY_REQUIRED is on. Only for routes
     * that hand out no data (the console's static page and scripts, which then ask for the key).
     */
    public?: boolean
    /**
     * For the OpenAPI document only: this route's errors are not the kernel's error body
     * but this one (the /v1 routes answer in OpenAI's shape), named as a component.
     */
    openapiErrors?: { name: string, schema: Record<string, unknown> }
  }
}

/** Options every plugin receives: its validated options plus its instance name from plugins.json. */
export type PluginOptions<T extends object = Record<string, unknown>> = T & { instance: string }
