// Starts agentd with the real OpenAI-compatible provider pointed at the scripted fake
// upstream, the prompts and chat plugins, and the test tool source.
import type { Test } from 'tap'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { repoPlugin, Workspace, type PluginSpec } from '../helpers/workspace.ts'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai-upstream.ts'

const HERE = path.dirname(fileURLToPath(import.meta.url))
export const fixture = (name: string): string => path.join(HERE, 'fixtures', name)

export const MODEL = 'gpt-4o-mini'

export interface ChatSetup {
  chatOptions?: Record<string, unknown>
  env?: Record<string, string>
  config?: unknown
  /** Extra plugins (e.g. the test memory) placed before chat. */
  extra?: PluginSpec[]
  prompts?: string
  /** Capture the log at this level into `s.logs` (e.g. 'debug'). */
  logLevel?: string
}

/**
 * A kernel with a provider on the fake OpenAI upstream, the test tools, the providers API
 * and prompts, then `extra` and `last` (the plugin under test).
 */
export async function startWithFake (t: Test, setup: ChatSetup & { last: PluginSpec, key?: string, model?: string }): Promise<{ s: Started, fake: FakeOpenAI }> {
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
    setup.last,
  ]
  const s = await startKernel(t, { ws, plugins, config: setup.config, logLevel: setup.logLevel, env: { OPENAI_API_KEY: setup.key ?? 'test-key', DEFAULT_MODEL: setup.model ?? MODEL, ...setup.env } })
  return { s, fake }
}

export async function startChat (t: Test, setup: ChatSetup = {}): Promise<{ s: Started, fake: FakeOpenAI }> {
  return await startWithFake(t, { ...setup, last: { name: 'chat', module: repoPlugin('chat'), options: setup.chatOptions ?? {} } })
}

export interface SseEvent { event: string, data: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- test payloads

/** Parses an SSE body into events; comment lines are returned as { event: ':' }. */
export function parseSse (text: string): SseEvent[] {
  const out: SseEvent[] = []
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue
    if (block.startsWith(':')) { out.push({ event: ':', data: block.slice(1).trim() }); continue }
    let event = 'message'
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7)
      else if (line.startsWith('data: ')) data.push(line.slice(6))
      else if (line.startsWith(':')) out.push({ event: ':', data: line.slice(1).trim() })
    }
    if (data.length > 0) out.push({ event, data: JSON.parse(data.join('\n')) })
  }
  return out
}

export async function streamChat (s: Started, body: unknown, init?: RequestInit): Promise<{ status: number, type: string | null, text: string, events: SseEvent[] }> {
  const res = await s.post('/api/agent/chat/stream', body, init)
  const text = await res.text()
  const type = res.headers.get('content-type')
  return { status: res.status, type, text, events: type?.startsWith('text/event-stream') === true ? parseSse(text) : [] }
}

export { until } from '../helpers/poll.ts'
