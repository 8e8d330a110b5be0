// The memory endpoints of SPEC.md "Memory" (settings and consolidate are in
// settings-routes.ts; recall-settings in recall-settings-routes.ts), with DECISIONS.md's shapes and limits. A store that is down
// answers 503 naming the store; an unconfigured one 503 naming the plugin to enable.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { GRAPH_WALK_LIMIT, StoreUnavailableError } from '@agentd/sdk/kits/memory'
import { CHANNEL_ALL, CHANNEL_MAX_LENGTH, CHANNEL_PATTERN } from './channels.ts'
import { MemoryErrors } from './errors.ts'
import type { MemoryServiceImpl } from './service.ts'
import { memoryStats, resetMemory } from './admin.ts'
import type { OutageLog } from './outage-log.ts'
import { alreadyLogged, requestTrace } from '@agentd/sdk'
import { turnRoutes } from './write-routes.ts'
import { itemRoutes } from './item-routes.ts'

const Channel = Type.String({ pattern: CHANNEL_PATTERN, maxLength: CHANNEL_MAX_LENGTH, description: `1-${CHANNEL_MAX_LENGTH} letters, digits, hyphens, underscores; not ${CHANNEL_ALL}` })
const ChannelFilter = Type.String({ pattern: `(${CHANNEL_PATTERN})|^${CHANNEL_ALL}$`, maxLength: CHANNEL_MAX_LENGTH, default: CHANNEL_ALL, description: `a channel, or ${CHANNEL_ALL}` })
const PageQuery = {
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  channel: ChannelFilter,
  search: Type.Optional(Type.String({ maxLength: 500 })),
}
const Obj = Type.Record(Type.String(), Type.Unknown())
const ListReply = (key: string): ReturnType<typeof Type.Object> => Type.Object({
  [key]: Type.Array(Obj), total: Type.Integer(), page: Type.Integer(), limit: Type.Integer(), has_next: Type.Boolean(),
})
const Counts = Type.Record(Type.String(), Type.Integer())
const Reembed = Type.Object({
  status: Type.String({ description: 'idle, waiting_for_embedder, running, done, error, stopped' }),
  embedder: Type.Optional(Type.String()), dimensions: Type.Optional(Type.Integer()),
  total: Type.Integer(), done: Type.Integer(), dropped: Type.Integer(),
  started_at: Type.Optional(Type.String()), finished_at: Type.Optional(Type.String()), error: Type.Optional(Type.String()),
})

const STORE_FIX: Record<string, string> = {
  relational: 'check that PostgreSQL is running (POSTGRES_URI) or remove it to use the embedded PGlite',
  graph: 'check the graph store\'s database',
  kv: 'check that Redis is running (REDIS_URI) or use memory-kv',
}

export type Guard = <T>(fn: () => Promise<T>) => Promise<T>

/**
 * Store failures become 503s that say which store and what to do. The outage is logged
 * once as a warning (outage-log.ts), so the 503 itself is not logged as an error per request.
 */
export function guardFor (outage: OutageLog): Guard {
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn()
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        outage.failed(err)
        throw alreadyLogged(new MemoryErrors.STORE_UNAVAILABLE(`${err.message}. Memory endpoints answer again as soon as it is back (${STORE_FIX[err.role]}); chat keeps working without memory.`))
      }
      throw err
    }
  }
}

interface ListQuery { page: number, limit: number, channel: string, search?: string }
const pageOf = (q: ListQuery): { offset: number, limit: number, channel?: string, search?: string } =>
  ({ offset: (q.page - 1) * q.limit, limit: q.limit, channel: q.channel === CHANNEL_ALL ? undefined : q.channel, search: q.search === '' ? undefined : q.search })
const envelope = <T>(key: string, q: ListQuery, r: { items: T[], total: number }): Record<string, unknown> =>
  ({ [key]: r.items, total: r.total, page: q.page, limit: q.limit, has_next: q.page * q.limit < r.total })

export async function memoryRoutes (app: FastifyInstance, svc: MemoryServiceImpl): Promise<void> {
  const guard = guardFor(svc.ctx.outage)
  turnRoutes(app, svc, guard)
  itemRoutes(app, svc, guard)
  channelRoutes(app, svc, guard)
  listRoutes(app, svc, guard)
  adminRoutes(app, svc, guard)
}

const tags = ['memory']

/** Channels and conversations: list, create, delete. */
function channelRoutes (app: FastifyInstance, svc: MemoryServiceImpl, guard: Guard): void {
  app.get('/api/memory/channels', {
    schema: { tags, summary: 'Channels with item counts', response: { 200: Type.Object({ channels: Type.Array(Type.Object({ name: Type.String(), is_default: Type.Boolean(), created_at: Type.String(), item_counts: Counts })) }) } },
  }, async () => await guard(async () => ({ channels: await svc.channels.listChannels() })))

  app.post('/api/memory/channels', {
    schema: {
      tags, summary: 'Create a channel',
      body: Type.Object({ name: Channel }, { additionalProperties: false }),
      response: { 201: Type.Object({ name: Type.String(), created_at: Type.String(), message: Type.String() }) },
    },
  }, async (request, reply) => {
    const { name } = request.body as { name: string }
    const ch = await guard(async () => await svc.channels.createChannel(name))
    return await reply.code(201).send({ name: ch.name, created_at: ch.created_at, message: `Channel "${ch.name}" created.` })
  })

  app.delete('/api/memory/channels/:name', {
    schema: {
      tags, summary: 'Delete a channel and its data in every store',
      params: Type.Object({ name: Channel }),
      response: { 200: Type.Object({ message: Type.String(), deleted: Counts }) },
    },
  }, async (request) => {
    const { name } = request.params as { name: string }
    const deleted = await guard(async () => await svc.channels.deleteChannel(name))
    return { message: `Channel "${name}" deleted.`, deleted }
  })

  app.delete('/api/memory/conversations/:conversation_id', {
    schema: {
      tags, summary: 'Delete a conversation and its turns everywhere',
      params: Type.Object({ conversation_id: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: { 200: Type.Object({ message: Type.String(), conversation_id: Type.String(), deleted: Counts }) },
    },
  }, async (request) => {
    const { conversation_id: id } = request.params as { conversation_id: string }
    const deleted = await guard(async () => await svc.episodic.deleteConversation(id))
    return { message: `Conversation "${id}" deleted.`, conversation_id: id, deleted }
  })
}

/** Paged lists of entities, facts and strategies, and an entity's graph. */
function listRoutes (app: FastifyInstance, svc: MemoryServiceImpl, guard: Guard): void {
  app.get('/api/memory/entities', {
    schema: {
      tags, summary: 'Entities, paged',
      querystring: Type.Object({ ...PageQuery, type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false }),
      response: { 200: ListReply('entities') },
    },
  }, async (request) => {
    const q = request.query as ListQuery & { type?: string }
    return await guard(async () => envelope('entities', q, await svc.ctx.need('graph').entities({ ...pageOf(q), type: q.type })))
  })

  app.get('/api/memory/entities/:entity_id/graph', {
    schema: {
      tags, summary: 'An entity with its facts and relationships within depth hops',
      params: Type.Object({ entity_id: Type.String({ minLength: 1, maxLength: 100 }) }),
      querystring: Type.Object({
        depth: Type.Integer({ minimum: 1, maximum: 3, default: 2 }),
        limit: Type.Integer({ minimum: 1, maximum: GRAPH_WALK_LIMIT.max, default: GRAPH_WALK_LIMIT.default, description: 'the most relationships returned, nearest first' }),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          entity: Obj, facts: Type.Array(Obj), relationships: Type.Array(Obj), depth: Type.Integer(),
          limit: Type.Integer(), truncated: Type.Boolean({ description: 'true: more relationships were within depth than limit; the nearest were kept' }),
        }),
      },
    },
  }, async (request) => {
    const { entity_id: id } = request.params as { entity_id: string }
    const { depth, limit } = request.query as { depth: number, limit: number }
    const g = await guard(async () => await svc.ctx.need('graph').graph(id, depth, limit))
    if (g === undefined) throw new MemoryErrors.NOT_FOUND(`No entity with id "${id}". GET /api/memory/entities lists them.`)
    return g
  })

  app.get('/api/memory/facts', {
    schema: {
      tags, summary: 'Current facts, paged',
      querystring: Type.Object({
        ...PageQuery,
        min_confidence: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
        include_superseded: Type.Boolean({ default: false }),
        flagged_for_review: Type.Optional(Type.Boolean({ description: 'true: only facts flagged for review (a low-confidence contradiction); false: only the others' })),
      }, { additionalProperties: false }),
      response: { 200: ListReply('facts') },
    },
  }, async (request) => {
    const q = request.query as ListQuery & { min_confidence: number, include_superseded: boolean, flagged_for_review?: boolean }
    return await guard(async () => envelope('facts', q, await svc.ctx.need('graph').facts({ ...pageOf(q), min_confidence: q.min_confidence, include_superseded: q.include_superseded, flagged: q.flagged_for_review })))
  })

  app.get('/api/memory/strategies', {
    schema: {
      tags, summary: 'Strategies, paged',
      querystring: Type.Object(PageQuery, { additionalProperties: false }),
      response: { 200: ListReply('strategies') },
    },
  }, async (request) => {
    const q = request.query as ListQuery
    return await guard(async () => envelope('strategies', q, await svc.ctx.need('relational').strategies(pageOf(q))))
  })
}

/** Stats, re-embedding, reset and recall. */
function adminRoutes (app: FastifyInstance, svc: MemoryServiceImpl, guard: Guard): void {
  app.get('/api/memory/stats', {
    schema: { tags, summary: 'Totals and per-channel counts, and the re-embed job\'s progress', response: { 200: Type.Object({ totals: Counts, by_channel: Type.Record(Type.String(), Counts), reembed: Reembed }) } },
  }, async () => await guard(async () => await memoryStats(svc.channels, svc.drift.reembedder.progress())))

  app.post('/api/memory/reembed', {
    schema: {
      tags, summary: 'Re-embed stored vectors made by another embedder (background job)',
      response: { 202: Reembed },
    },
  }, async (_request, reply) => {
    const progress = await guard(async () => {
      // Counted now so the answer says how much there is to do.
      const p = svc.drift.startReembed()
      return p.status === 'waiting_for_embedder' && p.total === 0 ? await svc.drift.reembedder.counted() : p
    })
    return await reply.code(202).send(progress)
  })

  app.post('/api/memory/reset', {
    schema: {
      tags, summary: 'Clear consolidation markers; optionally delete every entity, fact and strategy',
      body: Type.Optional(Type.Object({ delete_memories: Type.Boolean({ default: false }) }, { additionalProperties: false })),
      response: { 200: Type.Object({ success: Type.Boolean(), conversations_reset: Type.Integer(), memories_deleted: Type.Integer() }) },
    },
    // The body is optional, but a missing body is `undefined`, which no object schema
    // accepts: it is read as {} (defaults applied) before validation.
    preValidation: async (request) => { request.body ??= {} },
  }, async (request) => {
    const body = (request.body ?? {}) as { delete_memories?: boolean }
    return await guard(async () => await resetMemory(svc.ctx, body.delete_memories === true))
  })

  app.post('/api/memory/recall', {
    schema: {
      tags, summary: 'Recall a memory bundle for a query',
      body: Type.Object({
        query: Type.String({ minLength: 1, maxLength: 10_000 }),
        top_k: Type.Integer({ minimum: 1, maximum: 50, default: 10 }),
        channel: Type.Optional(Channel),
        conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        token_budget: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          relevant_turns: Type.Array(Obj), entities: Type.Array(Obj), facts: Type.Array(Obj), strategies: Type.Array(Obj),
          active_goals: Type.Array(Obj), user_context: Obj, context: Type.String(), techniques: Type.Array(Type.String()),
          timings_ms: Type.Record(Type.String(), Type.Number()), degraded: Type.Optional(Type.Array(Type.String())), warning: Type.Optional(Type.String()),
          notes: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'per technique: why it gave nothing (no model set, failed, timed out)' })),
        }),
      },
    },
  }, async (request) => {
    const b = request.body as { query: string, top_k: number, channel?: string, conversation_id?: string, token_budget?: number }
    // Under the request's span when telemetry traces: the recall and its query's embedding join the caller's trace.
    const trace = requestTrace(request)
    return await guard(async () => await svc.recaller.recallBundle({ text: b.query, top_k: b.top_k, channel: b.channel, conversation_id: b.conversation_id, token_budget: b.token_budget, ...(trace === undefined ? {} : { trace }) }, { strict: true }))
  })
}
