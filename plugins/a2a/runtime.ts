// Everything that needs @a2a-js/sdk at run time, built on the first A2A request (index.ts
// imports this module then, not at start: the SDK costs ~2 MB of heap and a few hundred
// ms of every start otherwise, as the MCP SDK would for /mcp).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DefaultExecutionEventBusManager } from '@a2a-js/sdk/server'
import type { ChatMemory } from '@agentd/sdk/kits/conversation'
import type { TaskTracker } from '@agentd/sdk/kits/tasks'
import type { A2AOptions } from './options.ts'
import type { A2AState } from './state.ts'
import { buildCard, cardJson } from './card.ts'
import { AgentdExecutor } from './executor.ts'
import { AgentdRequestHandler, checkMessage } from './handler.ts'
import { JsonRpcRoute } from './transport.ts'

export interface A2ARuntime {
  /** The card as JSON, its endpoint under `baseUrl`. */
  card: (baseUrl: string) => unknown
  handle: (request: FastifyRequest, reply: FastifyReply, body: unknown) => Promise<void>
}

export interface RuntimeDeps {
  app: FastifyInstance
  opts: A2AOptions
  state: A2AState
  tracker: TaskTracker
  memory: () => ChatMemory
  keyRequired: boolean
  maxLength: number
  /** The bound address, for the card the handler checks versions against. */
  boundUrl: string
}

export function createRuntime (d: RuntimeDeps): A2ARuntime {
  const { app, opts, state } = d
  state.buses ??= new DefaultExecutionEventBusManager()
  const executor = new AgentdExecutor({ app, opts, contexts: state.contexts, memory: d.memory }, state, d.tracker)
  const card = buildCard(opts, app.kernel.version, d.boundUrl, d.keyRequired)
  const handler = new AgentdRequestHandler(card, state.tasks, executor, state.buses).checkWith(m => { checkMessage(app, d.maxLength, m) })
  const rpc = new JsonRpcRoute(handler, app.log)
  return {
    card: (baseUrl) => cardJson(buildCard(opts, app.kernel.version, baseUrl, d.keyRequired)),
    handle: async (request, reply, body) => { await rpc.handle(request, reply, body) },
  }
}
