// The write API: memories added and read without a chat. Turns are added as Mem0's `add`
// takes messages (a list with roles, for a conversation and a channel); a store that is
// down takes them through the outbox (202, `queued`), so nothing sent is lost.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { randomUUID } from 'node:crypto'
import { envInt } from '@agentd/sdk'
import { CHANNEL_MAX_LENGTH, CHANNEL_PATTERN, CHANNEL_ALL } from './channels.ts'
import { MemoryErrors } from './errors.ts'
import type { Guard } from './routes.ts'
import type { MemoryServiceImpl } from './service.ts'
import type { MessageInput } from './episodic.ts'

export const Channel = Type.String({ pattern: CHANNEL_PATTERN, maxLength: CHANNEL_MAX_LENGTH, description: `1-${CHANNEL_MAX_LENGTH} letters, digits, hyphens, underscores; not ${CHANNEL_ALL}` })
const Obj = Type.Record(Type.String(), Type.Unknown())
const Id = Type.String({ minLength: 1, maxLength: 200 })
const TurnSchema = Type.Object({
  id: Type.String(), conversation_id: Type.String(), index: Type.Integer(), timestamp: Type.String(), role: Type.String(),
  content: Type.String(), token_count: Type.Union([Type.Integer(), Type.Null()]), metadata: Obj, channel: Type.String(), embedder: Type.Union([Type.String(), Type.Null()]),
})
const Role = Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Literal('system'), Type.Literal('tool')], { description: 'user, assistant, system or tool' })

interface TurnsBody {
  messages: MessageInput[]
  conversation_id?: string
  channel?: string
  metadata?: Record<string, unknown>
  user_id?: string
  agent_id?: string
  run_id?: string
}

export function turnRoutes (app: FastifyInstance, svc: MemoryServiceImpl, guard: Guard): void {
  const tags = ['memory']
  const maxText = envInt(app.agentConfig.env, 'AGENT_MAX_TEXT_LENGTH', 100_000)

  app.post('/api/memory/turns', {
    // Room for 100 messages at the text limit, so the limit answers with its own 413.
    bodyLimit: Math.max(1_048_576, Math.min(maxText * 4 * 100 + 65_536, 256 * 1024 * 1024)),
    schema: {
      tags,
      summary: 'Add conversation turns (a list of messages with roles, as Mem0\'s add takes them)',
      description: 'Stores the messages in order as turns of `conversation_id` (a new UUID when absent) in `channel` (default `_default`). 201 with the stored turns; 202 when the store is down and the turns wait in the outbox (stored, in order, once it is back). `user_id`, `agent_id` and `run_id` go into each turn\'s metadata.',
      body: Type.Object({
        messages: Type.Array(Type.Object({
          role: Role,
          content: Type.String({ minLength: 1 }),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'who spoke (as OpenAI\'s messages name it): kept in the turn\'s metadata; consolidation attributes the speaker\'s first-person facts to this name' })),
          timestamp: Type.Optional(Type.String({ format: 'date-time', description: 'when it was said (an imported conversation\'s date); default now' })),
          metadata: Type.Optional(Obj),
        }, { additionalProperties: false }), { minItems: 1, maxItems: 100 }),
        conversation_id: Type.Optional(Id),
        channel: Type.Optional(Channel),
        metadata: Type.Optional(Obj),
        user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        run_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      }, { additionalProperties: false }),
      response: {
        201: Type.Object({ conversation_id: Type.String(), channel: Type.String(), turns: Type.Array(TurnSchema), queued: Type.Integer() }),
        202: Type.Object({ conversation_id: Type.String(), channel: Type.String(), turns: Type.Array(TurnSchema), queued: Type.Integer(), message: Type.String() }),
      },
    },
  }, async (request, reply) => {
    const b = request.body as TurnsBody
    b.messages.forEach((m, i) => { if (m.content.length > maxText) throw new MemoryErrors.TEXT_TOO_LONG(`messages[${i}].content`, m.content.length, maxText) })
    const conversationId = b.conversation_id ?? randomUUID()
    const channel = b.channel ?? '_default'
    const ids = Object.fromEntries(Object.entries({ user_id: b.user_id, agent_id: b.agent_id, run_id: b.run_id }).filter(([, v]) => v !== undefined))
    const r = await guard(async () => await svc.episodic.writeTurns({ conversation_id: conversationId, channel, messages: b.messages, metadata: { ...b.metadata, ...ids } }))
    if (r.queued === 0) return await reply.code(201).send({ conversation_id: conversationId, channel, turns: r.turns, queued: 0 })
    return await reply.code(202).send({
      conversation_id: conversationId, channel, turns: r.turns, queued: r.queued,
      message: `${r.queued} turn(s) wait in the outbox: the relational store is unavailable; they are stored in order once it is back (GET /api/health?include_memory=true shows the backlog).`,
    })
  })

  app.get('/api/memory/conversations/:conversation_id/turns', {
    schema: {
      tags,
      summary: 'A conversation\'s turns, oldest first (the last `limit`)',
      params: Type.Object({ conversation_id: Id }),
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 10_000, default: 100 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ conversation_id: Type.String(), turns: Type.Array(TurnSchema) }) },
    },
  }, async (request) => {
    const { conversation_id: id } = request.params as { conversation_id: string }
    const { limit } = request.query as { limit: number }
    return { conversation_id: id, turns: await guard(async () => await svc.episodic.conversationTurns(id, limit)) }
  })
}
