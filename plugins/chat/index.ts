// Plugin: chat (SPEC.md "Chat flow (simple mode)"): POST /api/agent/chat, its SSE twin
// /api/agent/chat/stream, and GET /api/agent/status (the tasks kit's route, shared with
// the agent plugin). Needs the prompts plugin, and providers-api for the model resolver
// (whose providers run the provider hooks). The tool loop, tool set, think parser and
// task tracker it uses are kit code (@agentd/sdk/kits/tools, output, tasks).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import { options, type ChatOptions } from './options.ts'
import { ChatErrors } from './errors.ts'
import { useTaskTracker } from '@agentd/sdk/kits/tasks'
import { sessionRoutes } from './session-routes.ts'
import { FallbackSessionStore, KvSessionStore, LocalSessionStore } from './sessions.ts'
import { ChatMemory } from '@agentd/sdk/kits/conversation'
import { chatRoutes } from './routes.ts'
import type { ChatDeps } from './prepare.ts'
import { envInt } from '@agentd/sdk'

export { options }
/** data/config.json sections this plugin reads (shared with every provider plugin). */
export { providerConfig as config } from '@agentd/sdk/kits/provider'

async function chat (app: FastifyInstance, opts: PluginOptions<ChatOptions>): Promise<void> {
  // The chat runs these points (the tool loop runs the tool ones; the provider ones run in
  // the provider middleware, declared by providers-api).
  app.hooks.declare('chat:request', 'chat:response', 'tool:before', 'tool:after')
  if (app.registry.promptComposers.first() === undefined) throw new ChatErrors.NO_PROMPTS()
  const tasks = await useTaskTracker(app)
  // In the pool: a reload with the same bounds keeps every session.
  const local = await app.resources.acquire({
    kind: 'chat-sessions',
    options: { ttl: opts.session_ttl_seconds, max: opts.max_sessions },
    create: () => new LocalSessionStore({ ttlSeconds: opts.session_ttl_seconds, maxSessions: opts.max_sessions }),
  })
  const deps: ChatDeps = { app, opts, tasks, sessions: local, maxChatLength: envInt(app.agentConfig.env, 'AGENT_MAX_CHAT_LENGTH', 10_000), memory: new ChatMemory(undefined, app.log, opts.memory_timeout_ms) }
  // Memory plugins may load after this one: pick the stores once every plugin has registered.
  app.addHook('onReady', async () => {
    const kv = app.registry.kvStores.first()
    if (kv !== undefined) deps.sessions = new FallbackSessionStore(new KvSessionStore(kv, opts.session_ttl_seconds), local, app.log)
    deps.memory = new ChatMemory(app.registry.memoryServices.first(), app.log, opts.memory_timeout_ms)
  })
  await chatRoutes(app, deps)
  await sessionRoutes(app, deps)
}

export default fp(chat, { name: 'chat', fastify: '5.x', dependencies: ['prompts', 'providers-api'] })
