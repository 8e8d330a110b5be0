// GET /api/chat/sessions (newest first, paged), GET and DELETE /api/chat/sessions/{id}:
// the sessions the session store keeps, so any client (the console in any browser) can
// list and reopen them. Served by whichever store holds the sessions: the key-value
// store (memory-kv, memory-redis) merged with the in-process fallback, or the in-process
// store alone.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import { byNewest, ListingUnsupportedError, summarize } from './sessions.ts'
import { ChatErrors } from './errors.ts'
import type { ChatDeps } from './prepare.ts'

const Summary = Type.Object({
  id: Type.String(), title: Type.String(), created_at: Type.String(), updated_at: Type.String(), message_count: Type.Integer(),
})
// Messages as stored: the fields below, and whatever else the provider contract keeps on them.
const StoredMessage = Type.Object({
  role: Type.Union([Type.Literal('system'), Type.Literal('user'), Type.Literal('assistant'), Type.Literal('tool')]),
  content: Type.String(),
  name: Type.Optional(Type.String({ description: 'The tool, on `tool` messages.' })),
  tool_call_id: Type.Optional(Type.String()),
  tool_calls: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), arguments: Type.Record(Type.String(), Type.Unknown()) }))),
  thinking: Type.Optional(Type.String()),
}, { additionalProperties: true })
const SessionSchema = Type.Object({
  id: Type.String(), title: Type.String(), created_at: Type.String(), updated_at: Type.String(), messages: Type.Array(StoredMessage),
})
const Id = Type.Object({ session_id: Type.String({ format: 'uuid' }) })

/** A store that is down or cannot list is a 503 that says so, never a 500. */
async function guard<T> (fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (err instanceof ListingUnsupportedError || err instanceof StoreUnavailableError) throw new ChatErrors.SESSIONS_UNAVAILABLE(err.message)
    throw err
  }
}

export async function sessionRoutes (app: FastifyInstance, deps: ChatDeps): Promise<void> {
  app.get('/api/chat/sessions', {
    schema: {
      tags: ['chat'],
      summary: 'The chat sessions kept, newest first',
      description: '`title` is the first user message (cut to 80 characters). `page` from 1, `limit` 1-100 (default 20).',
      querystring: Type.Object({
        page: Type.Integer({ minimum: 1, default: 1 }),
        limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({ sessions: Type.Array(Summary), total: Type.Integer(), page: Type.Integer(), limit: Type.Integer(), has_next: Type.Boolean(), backend: Type.String() }),
      },
    },
  }, async (request) => {
    const { page, limit } = request.query as { page: number, limit: number }
    const all = (await guard(async () => await deps.sessions.list())).sort(byNewest)
    const start = (page - 1) * limit
    return { sessions: all.slice(start, start + limit), total: all.length, page, limit, has_next: start + limit < all.length, backend: deps.sessions.backend }
  })

  app.get('/api/chat/sessions/:session_id', {
    schema: {
      tags: ['chat'],
      summary: 'One chat session with its messages (user, assistant with thinking and tool calls, tool results)',
      params: Id,
      response: { 200: Type.Object({ session: SessionSchema }) },
    },
  }, async (request) => {
    const { session_id: id } = request.params as { session_id: string }
    const session = await guard(async () => await deps.sessions.get(id))
    if (session === undefined) throw new ChatErrors.UNKNOWN_SESSION(id)
    return { session: { ...session, title: summarize(session).title } }
  })

  app.delete('/api/chat/sessions/:session_id', {
    schema: {
      tags: ['chat'],
      summary: 'Forget a chat session',
      params: Id,
      response: { 200: Type.Object({ deleted: Type.String() }) },
    },
  }, async (request) => {
    const { session_id: id } = request.params as { session_id: string }
    if (!await guard(async () => await deps.sessions.remove(id))) throw new ChatErrors.UNKNOWN_SESSION(id)
    return { deleted: id }
  })
}
