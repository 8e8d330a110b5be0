// The /v1 routes (OpenAI's API): GET /v1/models, GET /v1/models/{id}, POST /v1/chat/completions.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { concurrencyCap, Errors, ignoreUnknownFields, requestTrace, sseContent } from '@agentd/sdk'
import { CompletionRequestSchema, type CompletionRequestBody } from './schema.ts'
import { runCompletion } from './service.ts'
import { prepareCompletion, type CompletionDeps } from './prepare.ts'
import { completionStreamHandler } from './stream.ts'
import { toWireToolCall } from './convert.ts'
import { listWireModels } from './models.ts'
import { embeddingRoutes } from './embeddings.ts'
import { OPENAI_ERROR_DOC } from './errors.ts'
import { COMPLETION_EVENTS, CompletionResponseSchema } from './response-schema.ts'

const WireModelSchema = Type.Object({ id: Type.String(), object: Type.Literal('model'), created: Type.Integer(), owned_by: Type.String() })

export async function openaiRoutes (v1: FastifyInstance, deps: CompletionDeps): Promise<void> {
  // The document names OpenAI's error shape for every /v1 route (the onSend hook in index.ts renders it).
  const config = { openapiErrors: OPENAI_ERROR_DOC }
  v1.get('/models', {
    config,
    schema: {
      tags: ['openai'],
      summary: 'OpenAI-compatible: agentd\'s model ids (provider/model) in OpenAI\'s list shape',
      response: { 200: Type.Object({ object: Type.Literal('list'), data: Type.Array(WireModelSchema) }) },
    },
  }, async () => ({ object: 'list' as const, data: await listWireModels(deps.app, deps.opts.list_timeout_ms) }))

  v1.get('/models/*', {
    config,
    schema: {
      tags: ['openai'],
      summary: 'OpenAI-compatible: one model (its id may hold slashes)',
      params: Type.Object({ '*': Type.String({ description: 'The model id, `provider/model`.' }) }),
      response: { 200: WireModelSchema },
    },
  }, async (request) => {
    const id = (request.params as { '*': string })['*']
    const found = (await listWireModels(deps.app, deps.opts.list_timeout_ms)).find(m => m.id === id)
    if (found === undefined) throw new Errors.NOT_FOUND(`The model "${id}" does not exist; GET /v1/models lists agentd's models.`)
    return found
  })

  embeddingRoutes(v1)

  const stream = completionStreamHandler(deps)
  const caps = { chats: concurrencyCap('chats', v1.agentConfig.env), streams: concurrencyCap('streams', v1.agentConfig.env) }
  v1.post('/chat/completions', {
    config,
    // OpenAI's clients say `stream` in the body, not in Accept: the handler decides.
    sse: { kind: 'manual', heartbeat: false },
    // Fields agentd does not know are dropped (logged at debug); known fields are checked as sent.
    preValidation: ignoreUnknownFields(CompletionRequestSchema),
    // The same caps as agentd's own chat routes (one count for the process).
    preHandler: async (request, reply) => { await ((request.body as CompletionRequestBody).stream === true ? caps.streams : caps.chats).hook(request, reply) },
    schema: {
      tags: ['openai'],
      summary: 'OpenAI-compatible chat completion over agentd (prompt profiles, memory, tools), plain or streamed',
      description: 'See docs/api.md "OpenAI-compatible API". Errors use OpenAI\'s shape: { error: { message, type, param, code } }.',
      body: CompletionRequestSchema,
      response: {
        200: {
          description: 'A chat.completion, or with `stream: true` chat.completion.chunk events and then `data: [DONE]`',
          content: { 'application/json': { schema: CompletionResponseSchema }, ...sseContent(COMPLETION_EVENTS) },
        },
      },
    },
  }, async (request, reply) => {
    const body = request.body as CompletionRequestBody
    if (body.stream === true) { await stream(request, reply, body); return }
    const prep = prepareCompletion(deps, body, request.headers)
    const abort = new AbortController()
    const onClose = (): void => { if (!reply.raw.writableFinished) abort.abort(new Error('the client closed the connection')) }
    reply.raw.once('close', onClose)
    try {
      const outcome = await runCompletion(deps, prep, { stream: false, signal: abort.signal, trace: requestTrace(request) })
      deps.memory.storeLater(prep.conversation_id, prep.channel, outcome.memoryTurns)
      const { loop } = outcome
      const calls = loop.client_tool_calls
      const message: Record<string, unknown> = { role: 'assistant', content: loop.answer === '' && calls.length > 0 ? null : loop.answer, refusal: null }
      if (loop.thinking !== '') message.reasoning_content = loop.thinking
      if (calls.length > 0) message.tool_calls = calls.map(toWireToolCall)
      return {
        id: prep.id,
        object: 'chat.completion',
        created: prep.created,
        model: outcome.model,
        system_fingerprint: null,
        choices: [{ index: 0, message, logprobs: null, finish_reason: outcome.finish_reason }],
        usage: { prompt_tokens: loop.usage.prompt_tokens, completion_tokens: loop.usage.completion_tokens, total_tokens: loop.usage.total_tokens },
      }
    } finally {
      reply.raw.off('close', onClose)
    }
  })
}
