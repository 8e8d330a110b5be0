// Builds a provider instance for a test the way the plugin does, from options, an
// environment and a data/config.json object, with a logger whose lines the test can read.
import pino from 'pino'
import { Writable } from 'node:stream'
import type { FastifyBaseLogger } from 'fastify'
import { ConfigView, readSettings } from '../../core/config.ts'
import type { RuntimeConfig } from '../../core/config-schema.ts'
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { OpenAICompatibleOptions } from './options.ts'
import { buildProvider } from './index.ts'

export interface Captured { provider: Provider, lines: string[] }

export function captureLogger (lines: string[]): FastifyBaseLogger {
  const sink = new Writable({ write (chunk, _enc, cb) { lines.push(String(chunk)); cb() } })
  return pino({ level: 'trace' }, sink) as unknown as FastifyBaseLogger
}

export function makeProvider (
  instance: string,
  opts: Partial<OpenAICompatibleOptions> = {},
  env: Record<string, string> = {},
  file: RuntimeConfig = {},
): Captured {
  const lines: string[] = []
  const fullEnv = Object.freeze({ ...env })
  const config = new ConfigView(fullEnv, readSettings(fullEnv, process.cwd()), file)
  const provider = buildProvider(config, { max_retries: 2, stream_usage: true, ...opts, instance }, captureLogger(lines))
  return { provider, lines }
}
