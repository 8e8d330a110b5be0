// Builds a provider instance for a test the way the plugin does, from options, an
// environment and a data/config.json object, with a logger whose lines the test can read.
import path from 'node:path'
import { ConfigView } from '@agentd/sdk'
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { OpenAICompatibleOptions } from './options.ts'
import { buildProvider } from './index.ts'
import { capturingLogger } from '../../test/helpers/log.ts'

export interface Captured { provider: Provider, lines: string[] }

export function makeProvider (
  instance: string,
  opts: Partial<OpenAICompatibleOptions> = {},
  env: Record<string, string> = {},
  file: Record<string, unknown> = {},
): Captured {
  const log = capturingLogger()
  const fullEnv = Object.freeze({ ...env })
  const cwd = process.cwd()
  const config = new ConfigView(fullEnv, { cwd, dataDir: path.join(cwd, 'data'), pluginsFile: path.join(cwd, 'plugins.json'), logLevel: 'info', reloadDebounceMs: 150 }, file)
  const provider = buildProvider(config, { max_retries: 2, stream_usage: true, ...opts, instance }, log.logger)
  return { provider, lines: log.raw }
}
