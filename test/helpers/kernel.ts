// Starts a real kernel on a free loopback port for one test and closes it in teardown.
import type { Test } from 'tap'
import { Kernel } from '../../core/kernel.ts'
import { Workspace, type PluginSpec } from './workspace.ts'
import { once } from 'node:events'
import type { LoggerOptions } from 'pino'
import { capturingLogger, type LogLine } from './log.ts'
import { until } from './poll.ts'

export interface Started {
  kernel: Kernel
  ws: Workspace
  url: string
  /** fetch against the server, path relative to its base URL. */
  get: (p: string, init?: RequestInit) => Promise<Response>
  post: (p: string, body: unknown, init?: RequestInit) => Promise<Response>
  json: <T = any>(p: string, init?: RequestInit) => Promise<{ status: number, body: T, headers: Headers }> // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Resolves after the next reload that completes (ok or not). */
  nextReload: () => Promise<void>
  /** What the kernel and its plugins logged (only with the `logLevel` option). */
  logs: LogLine[]
  /** The same lines as written (for "no line contains X"). */
  logRaw: string[]
  /** The captured log as written, one line each, joined (empty without `logLevel`). */
  logText: () => string
}

export { capturingLogger, type LogLine }

export interface StartOptions {
  plugins?: PluginSpec[]
  config?: unknown
  env?: Record<string, string>
  ws?: Workspace
  watch?: boolean
  /** Capture the log at this level into `logs` (e.g. 'debug'). */
  logLevel?: string
  /** How long a swap waits for the old generation's deactivate() (the kernel's default: 10 s). */
  deactivateTimeoutMs?: number
  /** pino options for that log, e.g. the kernel's own redaction. */
  logOptions?: Omit<LoggerOptions, 'level'>
}

/** A minimal environment: nothing from the machine leaks in (no real API keys). */
export function testEnv (ws: Workspace, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    API_PORT: '0',
    API_HOST: '127.0.0.1',
    AGENT_DATA_DIR: ws.dataDir,
    AGENT_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    AGENT_RELOAD_DEBOUNCE_MS: '50',
    AGENT_DRAIN_TIMEOUT_MS: '5000',
    ...env,
  }
}

export async function startKernel (t: Test, opts: StartOptions = {}): Promise<Started> {
  const ws = opts.ws ?? new Workspace()
  if (opts.plugins !== undefined) ws.writePlugins(opts.plugins)
  if (opts.config !== undefined) ws.writeConfig(opts.config)
  const capture = opts.logLevel === undefined ? undefined : capturingLogger(opts.logLevel, opts.logOptions)
  const kernel = new Kernel({ cwd: ws.dir, env: testEnv(ws, opts.env), watch: opts.watch ?? true, deactivateTimeoutMs: opts.deactivateTimeoutMs, ...(capture === undefined ? {} : { logger: capture.logger }) })
  const addr = await kernel.start()
  const url = `http://127.0.0.1:${addr.port}`
  t.teardown(async () => { await kernel.close(); if (opts.ws === undefined) ws.remove() })
  const get = async (p: string, init?: RequestInit): Promise<Response> => await fetch(url + p, init)
  const post = async (p: string, body: unknown, init?: RequestInit): Promise<Response> => await fetch(url + p, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(init?.headers as Record<string, string> | undefined) }, body: typeof body === 'string' ? body : JSON.stringify(body), ...init,
  })
  return {
    kernel, ws, url, get, post, logs: capture?.lines ?? [], logRaw: capture?.raw ?? [], logText: () => capture?.text() ?? '',
    json: async (p, init) => {
      const res = await fetch(url + p, init)
      const text = await res.text()
      return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers }
    },
    nextReload: async () => {
      const before = kernel.api.lastReload()
      await until('the next reload', () => kernel.api.lastReload() !== before)
    },
  }
}

export { once }
