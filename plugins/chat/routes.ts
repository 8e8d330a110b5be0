// POST /api/agent/chat, POST /api/agent/chat/stream. (GET /api/agent/status: the tasks kit.)
import type { FastifyInstance } from 'fastify'
import { concurrencyCap, ignoreUnknownFields, requestTrace, sseContent } from '@agentd/sdk'
import { ChatRequestSchema, ChatResponseSchema, type ChatRequest } from './schema.ts'
import { runChat } from './chat-service.ts'
import { prepareChat, type ChatDeps } from './prepare.ts'
import { chatStreamHandler, CHAT_EVENTS } from './sse.ts'

export async function chatRoutes (app: FastifyInstance, deps: ChatDeps): Promise<void> {
  // A newer client's extra fields are dropped (logged at debug); known fields stay strict.
  const lenient = ignoreUnknownFields(ChatRequestSchema)
  // After validation: a bad request is a 400 whatever the load.
  const chats = concurrencyCap('chats', app.agentConfig.env)
  const streams = concurrencyCap('streams', app.agentConfig.env)
  app.post('/api/agent/chat', {
    preValidation: lenient,
    preHandler: chats.hook,
    schema: {
      tags: ['agent'],
      summary: 'Chat (simple mode): one answer with tools, thinking extracted, session kept',
      body: ChatRequestSchema,
      response: { 200: ChatResponseSchema },
    },
  }, async (request, reply) => {
    const prep = prepareChat(deps, request.body as ChatRequest)
    // A caller that hangs up stops the model and tool calls it was waiting for.
    const abort = new AbortController()
    const onClose = (): void => { if (!reply.raw.writableFinished) abort.abort(new Error('the client closed the connection')) }
    reply.raw.once('close', onClose)
    try {
      const outcome = await runChat(deps, prep, { stream: false, signal: abort.signal, trace: requestTrace(request) })
      deps.memory.storeLater(prep.session_id, prep.body.channel, outcome.memoryTurns)
      return outcome.response
    } finally {
      reply.raw.off('close', onClose)
    }
  })

  app.post('/api/agent/chat/stream', {
    preValidation: lenient,
    preHandler: streams.hook,
    sse: { kind: 'manual', heartbeat: false },
    schema: {
      tags: ['agent'],
      summary: 'Chat as Server-Sent Events: start, chunk, tool_call, tool_result, done | error',
      description: 'Input errors are JSON 4xx answers before the stream starts; after `start`, failures arrive as an `error` event.',
      body: ChatRequestSchema,
      response: { 200: { description: 'The answer as it is produced', content: sseContent(CHAT_EVENTS) } },
    },
  }, chatStreamHandler(deps))
}
