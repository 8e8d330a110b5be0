// Plugin: full agent mode (POST /api/agent/run). Plans the task, picks a reasoning
// strategy from registry.strategies (each strategy is its own plugin), runs it with the
// configured models and tools under the iteration and time limits, and stores the run
// in memory when a memory service is registered. The strategies need not load before
// this plugin: they are looked up per request. Models are called through providers-api's
// model resolver, whose providers run the provider hooks (provider middleware).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import { Errors } from '@agentd/sdk'
import { options, type AgentOptions } from './options.ts'
import { DEFAULT_AUTO_RULES, checkRules } from './auto.ts'
import { registerRoutes } from './routes.ts'
import { acquireTracker } from './tracker.ts'
import { agentRunner } from './runner.ts'

export { options }
/** data/config.json sections this plugin reads (shared with every provider plugin). */
export { providerConfig as config } from '@agentd/sdk/kits/provider'

async function agent (app: FastifyInstance, opts: PluginOptions<AgentOptions>): Promise<void> {
  app.hooks.declare('agent:step', 'tool:before', 'tool:after')
  const rules = opts.auto_rules ?? DEFAULT_AUTO_RULES
  const problem = checkRules(rules)
  if (problem !== undefined) throw new Errors.PLUGIN_CONFIG(`agent: ${problem}.`)
  const tracker = await acquireTracker(app)
  registerRoutes(app, opts, rules, tracker)
  // Other protocols (A2A) start runs through the registry.
  app.registry.agentRunners.add(opts.instance, agentRunner(app, opts, rules, tracker))
  // Once every plugin has registered, a configured default strategy must exist.
  app.addHook('onReady', async () => {
    const dflt = opts.default_reasoning_strategy
    if (dflt !== undefined && dflt !== 'auto' && !app.registry.strategies.has(dflt)) {
      throw new Errors.PLUGIN_CONFIG(`agent: default_reasoning_strategy "${dflt}" is not registered; registered: ${['auto', ...app.registry.strategies.names()].join(', ')}.`)
    }
  })
}

export default fp(agent, { name: 'agent', fastify: '5.x', dependencies: ['providers-api'] })
