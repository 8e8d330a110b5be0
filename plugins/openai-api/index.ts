// Plugin: an OpenAI-compatible API over the agent (docs/api.md "OpenAI-compatible API"), so
// any OpenAI client (the official SDKs, Open WebUI, LibreChat, Continue, LangChain) can use
// agentd as its model with agentd's prompt profiles, memory and tools behind it:
// GET /v1/models, POST /v1/chat/completions (plain and streamed). Every /v1 error is in
// OpenAI's shape. Needs the prompts plugin, and providers-api for the model resolver.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { envInt, type PluginOptions } from '@agentd/sdk'
import { options, type OpenAIApiOptions } from './options.ts'
import { OpenAIErrors, isAgentErrorBody, toOpenAIError } from './errors.ts'
import { openaiRoutes } from './routes.ts'
import { ChatMemory } from '@agentd/sdk/kits/conversation'
import type { CompletionDeps } from './prepare.ts'

export { options }
/** data/config.json sections this plugin reads (shared with every provider plugin). */
export { providerConfig as config } from '@agentd/sdk/kits/provider'

/** The /v1 paths and their method, for a 405 with `Allow` on a known path. */
const ROUTES: Readonly<Record<string, string>> = { '/v1/models': 'GET', '/v1/chat/completions': 'POST', '/v1/embeddings': 'POST' }

async function openaiApi (app: FastifyInstance, opts: PluginOptions<OpenAIApiOptions>): Promise<void> {
  // The tool loop runs the tool points (the chat plugin runs them too; declaring twice is
  // fine); the provider ones run in the provider middleware, declared by providers-api.
  app.hooks.declare('tool:before', 'tool:after')
  if (app.registry.promptComposers.first() === undefined) throw new OpenAIErrors.NO_PROMPTS()
  const deps: CompletionDeps = {
    app,
    opts,
    memory: new ChatMemory(undefined, app.log, opts.memory_timeout_ms),
    maxChatLength: envInt(app.agentConfig.env, 'AGENT_MAX_CHAT_LENGTH', 10_000),
  }
  // Memory plugins may load after this one: pick the service once every plugin has registered.
  app.addHook('onReady', async () => { deps.memory = new ChatMemory(app.registry.memoryServices.first(), app.log, opts.memory_timeout_ms) })

  // Its own context under /v1, so the error reshaping below touches no other route.
  await app.register(async (v1) => {
    // Every error body on /v1 (validation, auth, rate limit, provider failures, 404) is
    // rendered by the kernel first; here it takes OpenAI's shape.
    v1.addHook('onSend', async (_request, reply, payload) => {
      if (reply.statusCode < 400 || typeof payload !== 'string') return payload
      let parsed: unknown
      try { parsed = JSON.parse(payload) } catch { return payload }
      return isAgentErrorBody(parsed) ? JSON.stringify(toOpenAIError(parsed)) : payload
    })
    v1.setNotFoundHandler(async (request, reply) => {
      const url = request.url.split('?')[0].replace(/\/+$/, '')
      const allowed = ROUTES[url]
      if (allowed !== undefined) {
        void reply.header('allow', `${allowed}, OPTIONS`)
        return await reply.code(405).type('application/json; charset=utf-8')
          .send(toOpenAIError({ error: `Method ${request.method} is not allowed on ${url}; allowed: ${allowed}.`, code: 'AGENT_ERR_METHOD_NOT_ALLOWED', statusCode: 405 }))
      }
      return await reply.code(404).type('application/json; charset=utf-8')
        .send(toOpenAIError({ error: `No route ${request.method} ${url}. This server offers GET /v1/models, POST /v1/chat/completions and POST /v1/embeddings.`, code: 'AGENT_ERR_NOT_FOUND', statusCode: 404 }))
    })
    await openaiRoutes(v1, deps)
  }, { prefix: '/v1' })
}

export default fp(openaiApi, { name: 'openai-api', fastify: '5.x', dependencies: ['prompts', 'providers-api'] })
