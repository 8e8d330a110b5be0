// Plugin: A2A (Agent2Agent) on the official @a2a-js/sdk, so other agents can call agentd
// (docs/api.md "A2A"). The agent card at /.well-known/agent-card.json; JSON-RPC at `path`
// (/a2a): message/send and message/stream (SendMessage, SendStreamingMessage in A2A 1.0)
// run a skill as a task, tasks/get and tasks/cancel read and stop it. Both are normal
// routes: the kernel's Host/Origin checks and the API key apply (the card is public: it
// hands out no data and announces the key). Needs prompts and providers-api (the chat skill
// runs the conversation pipeline); the agent-run skill needs the agent plugin, translate
// the translation plugin, each looked up per request.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { envInt, NOT_JSON, parseJsonOrMark, type PluginOptions } from '@agentd/sdk'
import { ChatMemory } from '@agentd/sdk/kits/conversation'
import { useTaskTracker } from '@agentd/sdk/kits/tasks'
import { options, type A2AOptions } from './options.ts'
import { acquireState } from './state.ts'
import type { A2ARuntime } from './runtime.ts'

export { options }
/** data/config.json sections this plugin reads (shared with every provider plugin). */
export { providerConfig as config } from '@agentd/sdk/kits/provider'

/** JSON-RPC's parse error. */
const PARSE_ERROR = -32700

async function a2a (app: FastifyInstance, opts: PluginOptions<A2AOptions>): Promise<void> {
  app.hooks.declare('tool:before', 'tool:after')
  const env = app.agentConfig.env
  // Read as the kernel reads it (core/config.ts): 1, true, yes, on.
  const keyRequired = ['1', 'true', 'yes', 'on'].includes((env.AGENT_API_KEY_REQUIRED ?? '').toLowerCase())
  const maxLength = envInt(env, 'AGENT_MAX_CHAT_LENGTH', 10_000)
  const state = await acquireState(app, opts)
  const tracker = await useTaskTracker(app)
  let memory = new ChatMemory(undefined, app.log, opts.memory_timeout_ms)
  // Memory plugins may load after this one: pick the service once every plugin has registered.
  app.addHook('onReady', async () => { memory = new ChatMemory(app.registry.memoryServices.first(), app.log, opts.memory_timeout_ms) })

  // The SDK's side (runtime.ts) is imported on the first A2A request, not at start.
  let runtime: Promise<A2ARuntime> | undefined
  const load = async (): Promise<A2ARuntime> => await (runtime ??= import('./runtime.ts').then(m => m.createRuntime({
    app, opts, state, tracker, memory: () => memory, keyRequired, maxLength,
    boundUrl: `http://${env.API_HOST ?? '127.0.0.1'}:${env.API_PORT ?? '12319'}`,
  })).catch((err: unknown) => { runtime = undefined; throw err }))

  app.get('/.well-known/agent-card.json', {
    config: { public: true },
    schema: {
      tags: ['a2a'], summary: 'A2A agent card: skills, capabilities, the JSON-RPC endpoint and its security scheme',
      // The SDK's AgentCard (A2A 1.0), written as the SDK builds it.
      response: { 200: Type.Unknown({ description: 'The A2A AgentCard: name, description, version, supportedInterfaces, capabilities, skills, securitySchemes' }) },
    },
  }, async (request) => {
    // The URL the client reached us by (its Host passed the kernel's allow-list).
    const base = `${request.protocol}://${request.host}`
    return (await load()).card(base)
  })

  // A scope of its own, so that a body that does not parse is JSON-RPC's -32700 here, not the API's 400.
  await app.register(async scope => {
    parseJsonOrMark(scope)
    scope.post(opts.path, {
      schema: {
        tags: ['a2a'], summary: 'A2A JSON-RPC: message/send, message/stream, tasks/get, tasks/cancel (and their A2A 1.0 names)', body: Type.Unknown(),
        // A JSON-RPC response, or for message/stream Server-Sent Events whose data are JSON-RPC responses (the SDK writes both).
        response: { 200: { description: 'A JSON-RPC 2.0 response (result or error); message/stream answers text/event-stream, each event one response', content: { 'application/json': { schema: Type.Unknown() }, 'text/event-stream': { schema: Type.String() } } } },
      },
    }, async (request, reply) => {
      if (request.body === NOT_JSON) return await reply.code(200).send({ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: 'Parse error: the body is not JSON' } })
      await (await load()).handle(request, reply, request.body)
      return reply
    })
  })
}

export default fp(a2a, { name: 'a2a', fastify: '5.x', dependencies: ['prompts', 'providers-api'] })
