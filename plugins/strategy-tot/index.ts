// Plugin: tree-of-thought. k candidate thoughts per level, each scored by the model,
// best-first expansion to a bounded depth and breadth, final answer from the best path.
// Per-run overrides come from the agent's `strategy_options.tot` ({ k, depth, breadth }).
import fp from 'fastify-plugin'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import type { Strategy } from '@agentd/sdk/contracts/strategy'
import { treeOfThought, type TotOptions } from './search.ts'

export const options = Type.Object({
  /** Candidate thoughts proposed at each expansion. */
  k: Type.Integer({ minimum: 1, maximum: 10, default: 3 }),
  /** Maximum path length, which is also the number of expansions. */
  depth: Type.Integer({ minimum: 1, maximum: 10, default: 3 }),
  /** Open paths kept between expansions (the beam of the best-first search). */
  breadth: Type.Integer({ minimum: 1, maximum: 10, default: 2 }),
}, { additionalProperties: false })
export type TotPluginOptions = Static<typeof options>

const positiveInt = (v: unknown, dflt: number): number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 10 ? v : dflt

export function createTot (id: string, defaults: TotOptions): Strategy {
  return {
    id,
    description: `Tree-of-thought: ${defaults.k} scored candidate thoughts per level, best-first to depth ${defaults.depth}, breadth ${defaults.breadth}.`,
    run: async (ctx) => await treeOfThought(ctx, {
      k: positiveInt(ctx.options.k, defaults.k),
      depth: positiveInt(ctx.options.depth, defaults.depth),
      breadth: positiveInt(ctx.options.breadth, defaults.breadth),
    }),
  }
}

async function strategyTot (app: FastifyInstance, opts: PluginOptions<TotPluginOptions>): Promise<void> {
  app.registry.strategies.add(opts.instance, createTot(opts.instance, { k: opts.k, depth: opts.depth, breadth: opts.breadth }))
}

export default fp(strategyTot, { name: 'strategy-tot', fastify: '5.x' })
