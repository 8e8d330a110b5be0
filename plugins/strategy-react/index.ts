// Plugin: ReAct, the tool-use loop with an explicit thought / action / observation trace.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import type { Strategy } from '@agentd/sdk/contracts/strategy'
import { react } from './loop.ts'

export function createReact (id = 'react'): Strategy {
  return {
    id,
    description: 'ReAct: reason, call a tool, observe, repeat until an answer (tool rounds capped by max_tool_rounds).',
    usesTools: true,
    run: react,
  }
}

async function strategyReact (app: FastifyInstance, opts: PluginOptions): Promise<void> {
  app.registry.strategies.add(opts.instance, createReact(opts.instance))
}

export default fp(strategyReact, { name: 'strategy-react', fastify: '5.x' })
