// A whole provider plugin: it answers by repeating the last message after a greeting.
// docs/plugins.md walks through it; test/docs/provider-parrot.test.ts keeps it working.
import fp from 'fastify-plugin'
import { Type, type Static } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import type { CompletionResult, Provider } from '@agentd/sdk/contracts/provider'
import { DEFAULT_CAPABILITIES, estimateTokens } from '@agentd/sdk/kits/provider'

export const options = Type.Object({ greeting: Type.String({ default: 'Hello' }) }, { additionalProperties: false })

async function parrot (app: FastifyInstance, opts: PluginOptions<Static<typeof options>>): Promise<void> {
  const answer = (text: string): string => `${opts.greeting}: ${text}`
  const provider: Provider = {
    id: opts.instance,
    status: () => ({ status: 'configured' }),
    listModels: async () => [{ name: 'parrot-1', provider: opts.instance, ...DEFAULT_CAPABILITIES }],
    capabilities: () => ({ ...DEFAULT_CAPABILITIES }),
    knowsModel: (model) => model === 'parrot-1',
    complete: async (req): Promise<CompletionResult> => {
      const content = answer(req.messages.at(-1)?.content ?? '')
      const tokens = estimateTokens(content)
      return { content, finish_reason: 'stop', tool_calls: [], model: req.model, usage: { prompt_tokens: 0, completion_tokens: tokens, total_tokens: tokens, estimated: true } }
    },
    stream: async function * (req, signal) {
      const result = await provider.complete(req, signal)
      for (const word of result.content.split(/(?<= )/)) yield { type: 'text-delta', delta: word }
      yield { type: 'finish', finish_reason: 'stop', usage: result.usage, model: req.model }
    },
    health: async () => ({ status: 'healthy' }),
  }
  app.registry.providers.add(opts.instance, provider)
}

export default fp(parrot, { name: 'provider-parrot', fastify: '5.x' })
