// A whole provider plugin: it answers by repeating the last message after a greeting.
// docs/plugins.md walks through it; test/docs/provider-parrot.test.ts keeps it working.
import fp from 'fastify-plugin'
import { Type, type Static } from 'typebox'
import type { FastifyInstance } from 'fastify'
// Types only: they vanish at run time, so the plugin needs nothing from agentd's code.
import type { PluginOptions } from '@agentd/sdk'
import type { CompletionResult, ModelCapabilities, Provider } from '@agentd/sdk/contracts/provider'

export const options = Type.Object({ greeting: Type.String({ default: 'Hello' }) }, { additionalProperties: false })

const CAPABILITIES: ModelCapabilities = {
  supports_tools: false, supports_vision: false, supports_streaming: true, supports_json_mode: false,
  context_window: 4096, max_output_tokens: null, cost_per_1k_input: null, cost_per_1k_output: null,
}

async function parrot (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  const answer = (text: string): string => `${opts.greeting}: ${text}`
  const provider: Provider = {
    id: opts.instance,
    status: () => ({ status: 'configured' }),
    listModels: async () => [{ name: 'parrot-1', provider: opts.instance, ...CAPABILITIES }],
    capabilities: () => ({ ...CAPABILITIES }),
    knowsModel: (model) => model === 'parrot-1',
    complete: async (req): Promise<CompletionResult> => {
      const content = answer(req.messages.at(-1)?.content ?? '')
      const tokens = Math.ceil(content.length / 4)
      return { content, finish_reason: 'stop', tool_calls: [], model: req.model, usage: { prompt_tokens: 0, completion_tokens: tokens, total_tokens: tokens, estimated: true } }
    },
    stream: async function * (req, signal) {
      const result = await provider.complete(req, signal)
      for (const word of result.content.split(/(?<= )/)) yield { content: word }
      yield { content: '', finish_reason: 'stop', usage: result.usage }
    },
    health: async () => ({ status: 'healthy' }),
  }
  app.registry.providers.add(opts.instance, provider)
}

export default fp(parrot, { name: 'provider-parrot', fastify: '5.x' })
