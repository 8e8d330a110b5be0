// The memory export file (GET /api/memory/export, POST /api/memory/import): JSON Lines,
// one item a line, so a large channel streams out and a bad line can be named by its
// number. The first line is the header (format and version); then channels,
// conversations, turns, entities, relationships, facts, goals and strategies, each line an
// object whose `kind` says what it is and whose other fields are the item as the API
// shows it. Import reads only the fields below (bookkeeping such as access counts is
// exported for the reader but rebuilt by the stores) and ignores unknown ones, so a newer
// file with extra fields still loads.
import { Type, type Static, type TSchema } from '@agentd/sdk/typebox'
import { CHANNEL_MAX_LENGTH, CHANNEL_PATTERN } from './channels.ts'

export const FORMAT = 'agentd-memory'
export const VERSION = 1
export const MEDIA_TYPE = 'application/x-ndjson'

const Channel = Type.String({ pattern: CHANNEL_PATTERN, maxLength: CHANNEL_MAX_LENGTH })
const Id = Type.String({ minLength: 1, maxLength: 200 })
const Uuid = Type.String({ format: 'uuid' })
const Time = Type.String({ format: 'date-time' })
// eslint-disable-next-line @typescript-eslint/explicit-function-return-type
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()])
const Obj = Type.Record(Type.String(), Type.Unknown())
const Unit = Type.Number({ minimum: 0, maximum: 1 })

export const Header = Type.Object({ kind: Type.Literal('header'),
  format: Type.Literal(FORMAT), version: Type.Integer({ minimum: 1 }),
  exported_at: Type.Optional(Time), channels: Type.Optional(Type.Array(Type.String())), embedder: Type.Optional(Nullable(Type.String())),
})
export const ChannelLine = Type.Object({ kind: Type.Literal('channel'), name: Channel, created_at: Type.Optional(Time) })
export const ConversationLine = Type.Object({ kind: Type.Literal('conversation'),
  id: Id, channel: Channel, created_at: Type.Optional(Time), updated_at: Type.Optional(Time), consolidated_at: Type.Optional(Nullable(Time)),
})
export const TurnLine = Type.Object({ kind: Type.Literal('turn'),
  id: Uuid, conversation_id: Id, index: Type.Optional(Type.Integer({ minimum: 0 })), timestamp: Time,
  role: Type.String({ minLength: 1, maxLength: 50 }), content: Type.String({ minLength: 1 }), metadata: Type.Optional(Obj), channel: Channel,
})
export const EntityLine = Type.Object({ kind: Type.Literal('entity'),
  id: Id, name: Type.String({ minLength: 1, maxLength: 500 }), type: Type.String({ minLength: 1, maxLength: 100 }), channel: Channel,
  aliases: Type.Optional(Type.Array(Type.String())), description: Type.Optional(Nullable(Type.String())),
  salience: Type.Optional(Unit), properties: Type.Optional(Obj),
})
export const RelationshipLine = Type.Object({ kind: Type.Literal('relationship'),
  source_id: Id, target_id: Id, type: Type.String({ minLength: 1, maxLength: 100 }), confidence: Type.Optional(Unit), channel: Channel,
})
export const FactLine = Type.Object({ kind: Type.Literal('fact'),
  id: Id, claim: Type.String({ minLength: 1 }), channel: Channel, confidence: Type.Optional(Unit),
  source: Type.Optional(Type.Union([Type.Literal('extraction'), Type.Literal('user_stated'), Type.Literal('inferred')])),
  source_turn_id: Type.Optional(Nullable(Type.String())), entity_ids: Type.Optional(Type.Array(Id)), salience: Type.Optional(Unit),
  temporal_context: Type.Optional(Nullable(Type.Union([Type.Literal('current'), Type.Literal('past'), Type.Literal('future')]))),
  superseded_by_id: Type.Optional(Nullable(Id)), supersedes_id: Type.Optional(Nullable(Id)), flagged_for_review: Type.Optional(Type.Boolean()),
  subject_id: Type.Optional(Nullable(Id)), attribute: Type.Optional(Nullable(Type.String())), value: Type.Optional(Nullable(Type.String())),
})
const GoalStatus = Type.Union([Type.Literal('active'), Type.Literal('completed'), Type.Literal('abandoned'), Type.Literal('blocked')])
export const GoalLine = Type.Object({ kind: Type.Literal('goal'),
  id: Id, description: Type.String({ minLength: 1 }), channel: Channel, status: Type.Optional(GoalStatus),
  priority: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })), parent_goal_id: Type.Optional(Nullable(Id)),
  created_at: Type.Optional(Time), deadline: Type.Optional(Nullable(Time)),
})
export const StrategyLine = Type.Object({ kind: Type.Literal('strategy'),
  id: Id, description: Type.String({ minLength: 1 }), context_pattern: Type.String({ minLength: 1 }), channel: Channel,
  tool_sequence: Type.Optional(Type.Array(Type.String())), success_count: Type.Optional(Type.Integer({ minimum: 0 })),
  failure_count: Type.Optional(Type.Integer({ minimum: 0 })), last_used: Type.Optional(Nullable(Time)),
})

/** The schema of each item kind (the header is checked on its own, first). */
export const LINE_SCHEMAS = {
  channel: ChannelLine, conversation: ConversationLine, turn: TurnLine, entity: EntityLine,
  relationship: RelationshipLine, fact: FactLine, goal: GoalLine, strategy: StrategyLine,
} as const
export type ItemKind = keyof typeof LINE_SCHEMAS

export type ConversationItem = Static<typeof ConversationLine>
export type TurnItem = Static<typeof TurnLine>
export type EntityItem = Static<typeof EntityLine>
export type RelationshipItem = Static<typeof RelationshipLine>
export type FactItem = Static<typeof FactLine>
export type GoalItem = Static<typeof GoalLine>
export type StrategyItem = Static<typeof StrategyLine>

/** A whole file, checked: every item by kind, in file order, each with its line number. */
export interface TransferDoc {
  channels: Array<{ name: string, line: number }>
  conversations: Array<ConversationItem & { line: number }>
  turns: Array<TurnItem & { line: number }>
  entities: Array<EntityItem & { line: number }>
  relationships: Array<RelationshipItem & { line: number }>
  facts: Array<FactItem & { line: number }>
  goals: Array<GoalItem & { line: number }>
  strategies: Array<StrategyItem & { line: number }>
}

export const emptyDoc = (): TransferDoc => ({ channels: [], conversations: [], turns: [], entities: [], relationships: [], facts: [], goals: [], strategies: [] })
