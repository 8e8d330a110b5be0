// Starts agentd with the OpenAI-compatible API, the real OpenAI-compatible provider pointed
// at the scripted fake upstream, providers-api (the model resolver), the prompts plugin and the chat tests' tool source, and
// hands back the real `openai` SDK pointed at agentd's /v1.
import type { Test } from 'tap'
import OpenAI from 'openai'
import type { Started } from '../helpers/kernel.ts'
import { repoPlugin, type PluginSpec } from '../helpers/workspace.ts'
import type { FakeOpenAI } from '../fakes/openai-upstream.ts'
import { startWithFake } from '../chat/helpers.ts'

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
  const last = { name: 'openai-api', module: repoPlugin('openai-api'), options: setup.apiOptions ?? {} }
  const { s, fake } = await startWithFake(t, { ...setup, last, key: 'upstream-key', model: 'gpt-4o-mini' })
  const client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: setup.clientKey ?? 'unused', maxRetries: 0 })
  return { s, fake, client }
}
