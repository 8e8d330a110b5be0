// Starts agentd with the OpenAI-compatible API, the real OpenAI-compatible provider pointed
// at the scripted fake upstream, providers-api (the model resolver), the prompts plugin and the chat tests' tool source, and
// hands back the real `openai` SDK pointed at agentd's /v1.
import type { Test } from 'tap'
import OpenAI from 'openai'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { repoPlugin, Workspace, type PluginSpec } from '../helpers/workspace.ts'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai-upstream.ts'
import { fixture } from '../chat/helpers.ts'

export const MODEL = 'openai/gpt-4o-mini'

export interface Setup {
  env?: Record<string, string>
  config?: unknown
  extra?: PluginSpec[]
  prompts?: string
  apiOptions?: Record<string, unknown>
  /** The key the SDK sends (Authorization: Bearer). */
  clientKey?: string
}

export interface Running { s: Started, fake: FakeOpenAI, client: OpenAI }

export async function startOpenAIApi (t: Test, setup: Setup = {}): Promise<Running> {
  const fake = await startFakeOpenAI(t)
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  if (setup.prompts !== undefined) ws.write('data/system_prompts.yaml', setup.prompts)
  const plugins: PluginSpec[] = [
    { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } },
    { name: 'test-tools', module: fixture('test-tools') },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'prompts', module: repoPlugin('prompts') },
    ...(setup.extra ?? []),
    { name: 'openai-api', module: repoPlugin('openai-api'), options: setup.apiOptions ?? {} },
  ]
  const s = await startKernel(t, { ws, plugins, config: setup.config, env: { OPENAI_API_KEY: 'upstream-key', DEFAULT_MODEL: 'gpt-4o-mini', ...setup.env } })
  const client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: setup.clientKey ?? 'unused', maxRetries: 0 })
  return { s, fake, client }
}
