// What every generation's Fastify instance carries, for plugins to use.
import type { Registry } from './registry.ts'
import type { Hooks } from './hooks.ts'
import type { ScopedResources } from './resources.ts'
import type { ConfigView } from './config.ts'
import type { Lifecycle } from './lifecycle.ts'

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

/** The kernel as a plugin sees it. */
export interface KernelApi {
  readonly version: string
  generation: () => number
  plugins: () => PluginStatus[]
  lastReload: () => ReloadOutcome | null
  /** Builds and swaps in a new generation; resolves with the outcome (never throws). */
  reload: (reason: string) => Promise<ReloadOutcome & { generation: number }>
}

declare module 'fastify' {
  interface FastifyInstance {
    registry: Registry
    hooks: Hooks
    resources: ScopedResources
    agentConfig: ConfigView
    lifecycle: Lifecycle
    kernel: KernelApi
  }
}

/** Options every plugin receives: its validated options plus its instance name from plugins.json. */
export type PluginOptions<T extends object = Record<string, unknown>> = T & { instance: string }
