// The write API for single memories: add facts, entities, goals and strategies; read one
// by id and its history; edit a fact (a new claim is a correction: a supersession, so the
// old fact and its history stay), an entity or a goal (status transitions); delete one.
// Every write is recorded in the audit log with actor `user`.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { envInt } from '@agentd/sdk'
import { MemoryErrors } from './errors.ts'
import { GOAL_TRANSITIONS } from './procedural.ts'
import type { Guard } from './routes.ts'
import type { MemoryServiceImpl } from './service.ts'
import type { ItemKind } from './history.ts'
import { Channel } from './write-routes.ts'

const Obj = Type.Record(Type.String(), Type.Unknown())
const Uuid = Type.String({ format: 'uuid', description: 'the item\'s id (a UUID)' })
const IdParams = Type.Object({ id: Uuid })
const Confidence = Type.Number({ minimum: 0, maximum: 1 })
const Temporal = Type.Union([Type.Literal('current'), Type.Literal('past'), Type.Literal('future'), Type.Null()], { description: 'current, past, future or null' })
const GoalStatus = Type.Union([Type.Literal('active'), Type.Literal('completed'), Type.Literal('abandoned'), Type.Literal('blocked')])
const Name = Type.String({ minLength: 1, maxLength: 200 })
const History = Type.Object({
  id: Type.String(), kind: Type.String(), exists: Type.Boolean(),
  history: Type.Array(Type.Object({ at: Type.String(), action: Type.String(), actor: Type.String({ description: 'user, consolidation, promotion, merge or system' }), channel: Type.Union([Type.String(), Type.Null()]), details: Obj })),
})
/** `deleted: true` and the item as it was under its kind's name (the original client reads both). */
const Deleted = Type.Object({ message: Type.String(), id: Type.String(), deleted: Type.Literal(true) }, { additionalProperties: Obj })

interface ItemDeps {
  app: FastifyInstance
  svc: MemoryServiceImpl
  guard: Guard
  /** 413 past AGENT_MAX_TEXT_LENGTH. */
  checkText: (what: string, text: string | undefined) => void
  bodyLimit: number
}

const tags = ['memory']

export function itemRoutes (app: FastifyInstance, svc: MemoryServiceImpl, guard: Guard): void {
  const maxText = envInt(app.agentConfig.env, 'AGENT_MAX_TEXT_LENGTH', 100_000)
  const checkText = (what: string, text: string | undefined): void => { if (text !== undefined && text.length > maxText) throw new MemoryErrors.TEXT_TOO_LONG(what, text.length, maxText) }
  const d: ItemDeps = { app, svc, guard, checkText, bodyLimit: Math.max(1_048_576, maxText * 4 + 65_536) }
  factRoutes(d)
  entityRoutes(d)
  goalRoutes(d)
  strategyRoutes(d)
}

/** GET one, GET its history, DELETE one, for each kind. */
function commonRoutes (d: ItemDeps, kind: ItemKind, plural: string): void {
  const { app, svc, guard } = d
  app.get(`/api/memory/${plural}/:id`, {
    schema: { tags, summary: `One ${kind} by id`, params: IdParams, response: { 200: Obj } },
  }, async (request) => await guard(async () => await svc.items.item(kind, (request.params as { id: string }).id)))

  app.get(`/api/memory/${plural}/:id/history`, {
    schema: {
      tags,
      summary: `What changed a ${kind}, oldest first (from the audit log)`,
      description: 'Each entry says who made the change: `user` (this API), `consolidation`, `promotion`, `merge` (the same item stated again, or two merged), or `system`. A deleted item keeps its history (`exists: false`).',
      params: IdParams,
      response: { 200: History },
    },
  }, async (request) => {
    const { id } = request.params as { id: string }
    return { id, kind, ...await guard(async () => await svc.items.history(kind, id)) }
  })

  app.delete(`/api/memory/${plural}/:id`, {
    schema: { tags, summary: `Delete one ${kind}; recall stops returning it at once`, params: IdParams, response: { 200: Deleted } },
  }, async (request) => {
    const { id } = request.params as { id: string }
    const gone = await guard(async () => {
      if (kind === 'fact') return await svc.semantic.deleteFact(id)
      if (kind === 'entity') return await svc.semantic.deleteEntity(id)
      if (kind === 'goal') return await svc.procedural.deleteGoal(id)
      return await svc.procedural.deleteStrategy(id)
    })
    return { message: `${kind[0].toUpperCase()}${kind.slice(1)} "${id}" deleted.`, id, deleted: true as const, [kind]: gone as unknown as Record<string, unknown> }
  })
}

function factRoutes (d: ItemDeps): void {
  const { app, svc, guard, checkText, bodyLimit } = d
  // ---- facts
  app.post('/api/memory/facts', {
    bodyLimit,
    schema: {
      tags,
      summary: 'Add a fact',
      description: 'Deduplicated as consolidation does: the same claim (normalised) in the same channel is the fact already stored (200, `created: false`), not a second one. 201 when new.',
      body: Type.Object({
        claim: Type.String({ minLength: 1 }),
        channel: Type.Optional(Channel),
        confidence: Type.Optional(Confidence),
        entity_ids: Type.Optional(Type.Array(Uuid, { maxItems: 50 })),
        temporal_context: Type.Optional(Temporal),
        salience: Type.Optional(Confidence),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ fact: Obj, created: Type.Boolean() }), 201: Type.Object({ fact: Obj, created: Type.Boolean() }) },
    },
  }, async (request, reply) => {
    const b = request.body as { claim: string, channel?: string, confidence?: number, entity_ids?: string[], temporal_context?: 'current' | 'past' | 'future' | null, salience?: number }
    checkText('claim', b.claim)
    if (b.claim.trim() === '') throw new MemoryErrors.BAD_REQUEST('claim is blank: send the fact as a sentence.')
    const r = await guard(async () => await svc.semantic.addFact({ ...b, source: 'user_stated' }, 'user'))
    return await reply.code(r.created ? 201 : 200).send(r)
  })

  app.patch('/api/memory/facts/:id', {
    bodyLimit,
    schema: {
      tags,
      summary: 'Edit a fact: a new claim is a correction (supersession), other fields change in place',
      description: 'With a new `claim`, a new fact supersedes this one: the answer is the new fact and the `superseded` one (kept, linked, out of recall). Without, confidence, temporal_context, salience or flagged_for_review change in place. A superseded fact cannot be edited (409 names the one that replaced it).',
      params: IdParams,
      body: Type.Object({
        claim: Type.Optional(Type.String({ minLength: 1 })),
        confidence: Type.Optional(Confidence),
        temporal_context: Type.Optional(Temporal),
        salience: Type.Optional(Confidence),
        flagged_for_review: Type.Optional(Type.Boolean()),
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Type.Object({ fact: Obj, superseded: Type.Optional(Obj) }) },
    },
  }, async (request) => {
    const { id } = request.params as { id: string }
    const b = request.body as { claim?: string }
    checkText('claim', b.claim)
    if (b.claim !== undefined && b.claim.trim() === '') throw new MemoryErrors.BAD_REQUEST('claim is blank: send the corrected fact as a sentence.')
    return await guard(async () => await svc.semantic.editFact(id, b, 'user'))
  })
  commonRoutes(d, 'fact', 'facts')
}

function entityRoutes (d: ItemDeps): void {
  const { app, svc, guard } = d
  // ---- entities
  const EntityFields = {
    aliases: Type.Optional(Type.Array(Name, { maxItems: 100 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
    properties: Type.Optional(Obj),
    salience: Type.Optional(Confidence),
  }
  app.post('/api/memory/entities', {
    schema: {
      tags,
      summary: 'Add an entity',
      description: 'Deduplicated as consolidation does: the same name (any case) and type in the same channel is the entity already stored, its aliases and properties merged (200, `created: false`). 201 when new.',
      body: Type.Object({ name: Name, type: Type.String({ minLength: 1, maxLength: 100 }), channel: Type.Optional(Channel), ...EntityFields }, { additionalProperties: false }),
      response: { 200: Type.Object({ entity: Obj, created: Type.Boolean() }), 201: Type.Object({ entity: Obj, created: Type.Boolean() }) },
    },
  }, async (request, reply) => {
    const b = request.body as { name: string, type: string, channel?: string, aliases?: string[], description?: string | null, properties?: Record<string, unknown>, salience?: number }
    if (b.name.trim() === '') throw new MemoryErrors.BAD_REQUEST('name is blank.')
    const r = await guard(async () => await svc.semantic.addEntity(b, 'user'))
    return await reply.code(r.created ? 201 : 200).send(r)
  })

  app.patch('/api/memory/entities/:id', {
    schema: {
      tags,
      summary: 'Edit an entity (409 when another entity of its channel already has the new name and type)',
      params: IdParams,
      body: Type.Object({ name: Type.Optional(Name), type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), ...EntityFields }, { additionalProperties: false, minProperties: 1 }),
      // `entity` as the fact PATCH answers `fact`; the entity's fields at the top level too
      // (the answer before `entity` was added; deprecated, docs/api.md).
      response: { 200: Type.Object({ entity: Obj }, { additionalProperties: true }) },
    },
  }, async (request) => {
    const { id } = request.params as { id: string }
    const entity = await guard(async () => await svc.semantic.editEntity(id, request.body as Record<string, never>, 'user')) as unknown as Record<string, unknown>
    return { ...entity, entity }
  })
  commonRoutes(d, 'entity', 'entities')
}

function goalRoutes (d: ItemDeps): void {
  const { app, svc, guard } = d
  // ---- goals
  app.get('/api/memory/goals', {
    schema: {
      tags,
      summary: 'Goals, highest priority first',
      querystring: Type.Object({ channel: Type.Optional(Channel), status: Type.Optional(GoalStatus), limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ goals: Type.Array(Obj) }) },
    },
  }, async (request) => ({ goals: await guard(async () => await svc.procedural.goals(request.query as { channel?: string, status?: 'active', limit: number })) }))

  app.post('/api/memory/goals', {
    schema: {
      tags,
      summary: 'Add a goal',
      body: Type.Object({
        description: Type.String({ minLength: 1, maxLength: 10_000 }),
        status: Type.Optional(GoalStatus),
        priority: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: '1 (low) to 5 (high); default 3' })),
        parent_goal_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
        deadline: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
        channel: Type.Optional(Channel),
      }, { additionalProperties: false }),
      response: { 201: Obj },
    },
  }, async (request, reply) => {
    const b = request.body as { description: string }
    if (b.description.trim() === '') throw new MemoryErrors.BAD_REQUEST('description is blank.')
    return await reply.code(201).send(await guard(async () => await svc.procedural.addGoal(b, 'user')))
  })

  app.patch('/api/memory/goals/:id', {
    schema: {
      tags,
      summary: 'Edit a goal; status moves between active, completed, abandoned and blocked',
      description: `Allowed status changes: ${Object.entries(GOAL_TRANSITIONS).map(([from, to]) => `${from} -> ${to.join(', ')}`).join('; ')}. Any other is 409.`,
      params: IdParams,
      body: Type.Object({
        description: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000 })),
        status: Type.Optional(GoalStatus),
        priority: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
        deadline: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Obj },
    },
  }, async (request) => {
    const { id } = request.params as { id: string }
    return await guard(async () => await svc.procedural.editGoal(id, request.body as Record<string, never>, 'user'))
  })
  commonRoutes(d, 'goal', 'goals')
}

function strategyRoutes (d: ItemDeps): void {
  const { app, svc, guard } = d
  // ---- strategies
  app.post('/api/memory/strategies', {
    schema: {
      tags,
      summary: 'Add a strategy (a way of using tools that worked)',
      body: Type.Object({
        description: Type.String({ minLength: 1, maxLength: 10_000 }),
        context_pattern: Type.String({ minLength: 1, maxLength: 10_000, description: 'when it applies' }),
        tool_sequence: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 })),
        channel: Type.Optional(Channel),
      }, { additionalProperties: false }),
      response: { 201: Obj },
    },
  }, async (request, reply) => {
    const b = request.body as { description: string, context_pattern: string }
    if (b.description.trim() === '' || b.context_pattern.trim() === '') throw new MemoryErrors.BAD_REQUEST('description and context_pattern must not be blank.')
    return await reply.code(201).send(await guard(async () => await svc.procedural.addStrategy(b, 'user')))
  })
  commonRoutes(d, 'strategy', 'strategies')
}
