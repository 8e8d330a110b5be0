// Builds a provider instance for a test the way the plugin does, from options, an
// environment and a data/config.json object, with a logger whose lines the test can read.
import { ConfigView, readSettings } from '../../core/config.ts'
import type { RuntimeConfig } from '../../core/config-schema.ts'
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { OpenAICompatibleOptions } from './options.ts'
import { buildProvider } from './index.ts'
import { capturingLogger } from '../../test/helpers/log.ts'

export interface Captured { provider: Provider, lines: string[] }

export function makeProvider (
  instance: string,
  opts: Partial<OpenAICompatibleOptions> = {},
  env: Record<string, string> = {},
  file: RuntimeConfig = {},
): Captured {
  const log = capturingLogger()
  const fullEnv = Object.freeze({ ...env })
  const config = new ConfigView(fullEnv, readSettings(fullEnv, process.cwd()), file)
  const provider = buildProvider(config, { max_retries: 2, stream_usage: true, ...opts, instance }, log.logger)
  return { provider, lines: log.raw }
}
