// Plugin: chain-of-thought. One model call that reasons step by step inside a <think>
// block and then answers; the numbered reasoning lines become `thought` trace entries.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import type { Strategy, StrategyContext, StrategyResult } from '@agentd/sdk/contracts/strategy'
import { listItems, splitThinking } from '@agentd/sdk/kits/output'

export const COT_INSTRUCTION = 'Think step by step. Write your numbered reasoning steps inside <think>...</think>, then give the final answer after the block, without repeating the reasoning.'

export function createCot (id = 'cot'): Strategy {
  return {
    id,
    description: 'Chain-of-thought: one answer reasoned step by step.',
    run: async (ctx: StrategyContext): Promise<StrategyResult> => {
      const [system, ...rest] = ctx.messages
      const messages = system?.role === 'system'
        ? [{ ...system, content: `${system.content}\n\n${COT_INSTRUCTION}` }, ...rest]
        : [{ role: 'system' as const, content: COT_INSTRUCTION }, ...ctx.messages]
      const r = await ctx.complete({ messages }, { trace: { type: 'reasoning' } })
      const { answer, thinking } = splitThinking(r.content, r.thinking)
      const steps = listItems(thinking)
      for (const s of steps) ctx.trace({ type: 'thought', content: s })
      ctx.progress(answer)
      return { answer: answer === '' ? thinking : answer, thinking, reasoning_steps: Math.max(1, steps.length) }
    },
  }
}

async function strategyCot (app: FastifyInstance, opts: PluginOptions): Promise<void> {
  app.registry.strategies.add(opts.instance, createCot(opts.instance))
}

export default fp(strategyCot, { name: 'strategy-cot', fastify: '5.x' })
