// The providers the contract suite runs against, each built the way its plugin builds it,
// in front of the fake that speaks its wire format: provider-openai-compatible as its
// openai, openrouter and local presets (test/fakes/openai-upstream.ts), and
// provider-anthropic (test/fakes/anthropic-upstream.ts).
import { ConfigView, readSettings } from '../../core/config.ts'
import { startFakeOpenAI, type Reply } from '../fakes/openai-upstream.ts'
import { startFakeAnthropic, type AnthropicReply } from '../fakes/anthropic-upstream.ts'
import { makeProvider } from '../../plugins/provider-openai-compatible/test-support.ts'
import { buildProvider as buildAnthropic } from '../../plugins/provider-anthropic/index.ts'
import { capturingLogger } from '../helpers/log.ts'
import type { ScriptedReply, Target } from './provider-contract.ts'

const KEY = 'sk-contract-0123456789abcdef'
const WRONG = 'sk-contract-wrong-00000000'

function openaiReply (r: ScriptedReply): Reply {
  if ('hang' in r || 'status' in r) return r
  return {
    ...(r.text === undefined ? {} : { text: r.text }),
    ...(r.tool_calls === undefined ? {} : { tool_calls: r.tool_calls }),
    ...(r.usage === undefined ? {} : { usage: r.usage }),
    ...(r.chunkSize === undefined ? {} : { chunkSize: r.chunkSize }),
    ...(r.delayMs === undefined ? {} : { delayMs: r.delayMs }),
    // The first event is the role delta; 0 fails before anything is written.
    ...(r.breakAfterDeltas === undefined ? {} : { breakAfter: r.breakAfterDeltas === 0 ? 0 : r.breakAfterDeltas + 1 }),
  }
}

function anthropicReply (r: ScriptedReply): AnthropicReply {
  if ('hang' in r || 'status' in r) return r
  return {
    ...(r.text === undefined ? {} : { text: r.text }),
    ...(r.tool_calls === undefined ? {} : { tool_uses: r.tool_calls.map(c => ({ id: c.id, name: c.name, input: c.arguments })) }),
    ...(r.usage === undefined ? {} : { usage: { input_tokens: r.usage.prompt_tokens, output_tokens: r.usage.completion_tokens } }),
    ...(r.chunkSize === undefined ? {} : { chunkSize: r.chunkSize }),
    ...(r.delayMs === undefined ? {} : { delayMs: r.delayMs }),
    // message_start, ping and content_block_start come before the first text delta.
    ...(r.breakAfterDeltas === undefined ? {} : { breakAfter: r.breakAfterDeltas === 0 ? 0 : r.breakAfterDeltas + 3 }),
  }
}

function openaiCompatible (instance: 'openai' | 'openrouter' | 'local', model: string, keyEnv: string): Target {
  return {
    name: `openai-compatible (${instance})`,
    model,
    keyHint: new RegExp(`${keyEnv} or providers\\.${instance}\\.api_key`),
    start: async (t) => {
      const fake = await startFakeOpenAI(t, { apiKey: KEY, echoKeyIn401: true })
      return {
        upstream: {
          enqueue: (...replies) => { fake.enqueue(...replies.map(openaiReply)) },
          calls: () => fake.completions,
        },
        build: (o = {}) => makeProvider(instance, {
          base_url: fake.url,
          max_retries: o.maxRetries ?? 0,
          ...(o.timeout === undefined ? {} : { timeout: o.timeout }),
        }, { [keyEnv]: o.wrongKey === true ? WRONG : KEY }),
      }
    },
  }
}

const anthropic: Target = {
  name: 'anthropic',
  model: 'claude-sonnet-4-5',
  keyHint: /ANTHROPIC_API_KEY or providers\.anthropic\.api_key/,
  start: async (t) => {
    const fake = await startFakeAnthropic(t, { apiKey: KEY, echoKeyIn401: true })
    return {
      upstream: {
        enqueue: (...replies) => { fake.enqueue(...replies.map(anthropicReply)) },
        calls: () => fake.messages,
      },
      build: (o = {}) => {
        const log = capturingLogger()
        const env = Object.freeze({ ANTHROPIC_API_KEY: o.wrongKey === true ? WRONG : KEY })
        const provider = buildAnthropic(new ConfigView(env, readSettings(env, process.cwd()), {}), {
          instance: 'anthropic', api_key_env: 'ANTHROPIC_API_KEY', base_url: fake.url,
          timeout: o.timeout ?? 120, max_retries: o.maxRetries ?? 0, default_max_tokens: 4096, thinking_budget_tokens: 0,
        }, log.logger)
        return { provider, lines: log.raw }
      },
    }
  },
}

export const TARGETS: Target[] = [
  openaiCompatible('openai', 'gpt-4o-mini', 'OPENAI_API_KEY'),
  openaiCompatible('openrouter', 'openai/gpt-4o-mini', 'OPENROUTER_API_KEY'),
  openaiCompatible('local', 'llama3.2', 'LOCAL_MODEL_API_KEY'),
  anthropic,
]
