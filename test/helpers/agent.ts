// Test support for the agent and strategy plugins (and third-party strategies): a real kernel with the real
// OpenAI-compatible provider pointed at the scripted fake upstream, and a classifier that
// tells which kind of agent call a recorded upstream request was.
import type { Test } from 'tap'
import { startKernel, type Started } from './kernel.ts'
import { repoPlugin, type PluginSpec, type Workspace } from './workspace.ts'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest, type Reply } from '../fakes/openai-upstream.ts'

export type CallKind = 'plan' | 'propose' | 'score' | 'tot_answer' | 'critique' | 'revise' | 'react' | 'cot' | 'other'

/** Which agent call an upstream request is, from the prompts the agent and strategies send. */
export function kindOf (req: RecordedRequest): CallKind {
  const msgs = (req.body?.messages ?? []) as Array<{ role: string, content: string | null }>
  const all = msgs.map(m => m.content ?? '').join('\n')
  const last = msgs.at(-1)?.content ?? ''
  if (all.includes('You are a planner')) return 'plan'
  if (last.includes('Propose ') && last.includes('next reasoning steps')) return 'propose'
  if (last.startsWith('Rate how likely')) return 'score'
  if (last.startsWith('Follow this reasoning path') || last === 'Answer the step directly.') return 'tot_answer'
  if (last.startsWith('You are a strict reviewer')) return 'critique'
  if (last.startsWith('Revise your answer')) return 'revise'
  if (all.includes('Thought, Action, Observation')) return 'react'
  if (all.includes('Think step by step.')) return 'cot'
  return 'other'
}

export interface AgentHarness {
  s: Started
  fake: FakeOpenAI
  /** POST /api/agent/run; returns status and parsed body. */
  run: (body: Record<string, unknown>) => Promise<{ status: number, body: any }> // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Kinds of the completion calls the upstream received, in order. */
  kinds: () => CallKind[]
}

export interface HarnessOptions {
  agent?: Record<string, unknown>
  /** Replies by call kind; a function gets the request. Unlisted kinds echo. */
  replies?: Partial<Record<CallKind, Reply | ((req: RecordedRequest, n: number) => Reply)>>
  /** data/config.json */
  config?: Record<string, unknown>
  extraPlugins?: PluginSpec[]
  strategies?: string[]
  tools?: boolean
  env?: Record<string, string>
  /** The workspace to run in (e.g. one with a third-party plugin installed in its node_modules). */
  ws?: Workspace
}

export const ALL_STRATEGIES = ['strategy-cot', 'strategy-tot', 'strategy-react', 'strategy-reflection']

export function agentPlugins (fakeUrl: string, opts: HarnessOptions = {}): PluginSpec[] {
  const strategies = (opts.strategies ?? ALL_STRATEGIES).map(p => ({ name: p.replace('strategy-', ''), module: repoPlugin(p) }))
  return [
    { name: 'fake', module: repoPlugin('provider-openai-compatible'), options: { base_url: fakeUrl, list_models: 'server', max_retries: 0 } },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    ...(opts.tools === false ? [] : [{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }]),
    ...strategies,
    ...(opts.extraPlugins ?? []),
    { name: 'agent', module: repoPlugin('agent'), options: { default_model: 'fake/m1', ...opts.agent } },
  ]
}

export async function startAgent (t: Test, opts: HarnessOptions = {}): Promise<AgentHarness> {
  const fake = await startFakeOpenAI(t, { models: ['m1', 'm2', 'm3'] })
  const counts = new Map<CallKind, number>()
  fake.fallback = (req) => {
    const kind = kindOf(req)
    const n = counts.get(kind) ?? 0
    counts.set(kind, n + 1)
    const r = opts.replies?.[kind]
    if (r === undefined) return kind === 'plan' ? { text: '{"steps":[{"type":"analysis","description":"do it"}]}' } : { text: `echo: ${kind}` }
    return typeof r === 'function' ? r(req, n) : r
  }
  const s = await startKernel(t, { plugins: agentPlugins(fake.url, opts), config: opts.config, env: opts.env, ws: opts.ws })
  return {
    s,
    fake,
    run: async (body) => {
      const res = await s.post('/api/agent/run', body)
      const text = await res.text()
      return { status: res.status, body: text === '' ? undefined : JSON.parse(text) }
    },
    kinds: () => fake.completions.map(kindOf),
  }
}
