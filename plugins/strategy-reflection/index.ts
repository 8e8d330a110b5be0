// Plugin: reflection. Draft, critique, revise until the critique passes or a round cap.
// `strategy_options.reflection.max_rounds` in the agent's options overrides the cap per run.
import fp from 'fastify-plugin'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import type { Strategy } from '@agentd/sdk/contracts/strategy'
import { reflect } from './loop.ts'

export const options = Type.Object({
  /** Critiques at most; the draft after the last failing critique's revision is the answer. */
  max_rounds: Type.Integer({ minimum: 1, maximum: 10, default: 3 }),
}, { additionalProperties: false })
export type ReflectionOptions = Static<typeof options>

export function createReflection (id: string, maxRounds: number): Strategy {
  return {
    id,
    description: `Reflection: draft, critique, revise until the critique passes (at most ${maxRounds} rounds).`,
    run: async (ctx) => {
      const r = ctx.options.max_rounds
      return await reflect(ctx, typeof r === 'number' && Number.isInteger(r) && r >= 1 && r <= 10 ? r : maxRounds)
    },
  }
}

async function strategyReflection (app: FastifyInstance, opts: PluginOptions<ReflectionOptions>): Promise<void> {
  app.registry.strategies.add(opts.instance, createReflection(opts.instance, opts.max_rounds))
}

export default fp(strategyReflection, { name: 'strategy-reflection', fastify: '5.x' })
