// POST /v1/chat/completions as OpenAI documents it: the fields agentd honours are typed
// (a wrong type is a 400 naming the field, in OpenAI's error shape); fields agentd does not
// know (logprobs, seed, metadata, a newer client's additions) are dropped and logged at
// debug. agentd's own per-request settings ride along as extra fields (or headers, see
// request-options.ts).
import { Type, type Static } from '@agentd/sdk/typebox'
import { CHANNEL_MAX_LENGTH, CHANNEL_PATTERN } from '@agentd/sdk/kits/memory'

const ImageUrl = Type.Object({
  url: Type.String({ minLength: 1, description: 'an https URL or a data:image/...;base64 URL' }),
  detail: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('low'), Type.Literal('high')])),
})
// One part of a message's content: `text` with `text`, `image_url` with `image_url` (user messages, vision models).
const TextPart = Type.Object({ type: Type.String({ minLength: 1 }), text: Type.Optional(Type.String()), image_url: Type.Optional(ImageUrl) })

const Content = Type.Union([Type.String(), Type.Null(), Type.Array(TextPart)])

const WireToolCall = Type.Object({
  id: Type.String({ minLength: 1 }),
  type: Type.Optional(Type.Literal('function')),
  function: Type.Object({ name: Type.String({ minLength: 1 }), arguments: Type.String() }),
})

// Messages stay open: clients send back what they got (`refusal`, `reasoning_content`, `audio`), which is not agentd's to judge.
export const WireMessageSchema = Type.Object({
  role: Type.Union([Type.Literal('system'), Type.Literal('developer'), Type.Literal('user'), Type.Literal('assistant'), Type.Literal('tool')]),
  content: Type.Optional(Content),
  name: Type.Optional(Type.String()),
  tool_calls: Type.Optional(Type.Array(WireToolCall)),
  tool_call_id: Type.Optional(Type.String()),
})

const WireTool = Type.Object({
  type: Type.Literal('function'),
  function: Type.Object({
    name: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    description: Type.Optional(Type.String()),
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  }),
})

const ToolChoice = Type.Union([
  Type.Literal('none'), Type.Literal('auto'), Type.Literal('required'),
  Type.Object({ type: Type.Literal('function'), function: Type.Object({ name: Type.String() }) }),
])

const ResponseFormat = Type.Union([
  Type.Object({ type: Type.Literal('text') }),
  Type.Object({ type: Type.Literal('json_object') }),
  Type.Object({
    type: Type.Literal('json_schema'),
    json_schema: Type.Object({ name: Type.String({ minLength: 1 }), schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())), strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])), description: Type.Optional(Type.String()) }),
  }),
])

export const CompletionRequestSchema = Type.Object({
  model: Type.String({ minLength: 1, description: 'An id from GET /v1/models (`provider/model`) or a bare model name, resolved as for /api/agent/chat.' }),
  messages: Type.Array(WireMessageSchema, { minItems: 1 }),
  stream: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  stream_options: Type.Optional(Type.Union([Type.Object({ include_usage: Type.Optional(Type.Boolean()) }), Type.Null()])),
  temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
  top_p: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
  max_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  max_completion_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  presence_penalty: Type.Optional(Type.Union([Type.Number({ minimum: -2, maximum: 2 }), Type.Null()])),
  frequency_penalty: Type.Optional(Type.Union([Type.Number({ minimum: -2, maximum: 2 }), Type.Null()])),
  stop: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 4 }), Type.Null()])),
  n: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1, description: 'Only 1: agentd answers with one choice.' }), Type.Null()])),
  tools: Type.Optional(Type.Array(WireTool, { maxItems: 128 })),
  tool_choice: Type.Optional(ToolChoice),
  response_format: Type.Optional(ResponseFormat),
  user: Type.Optional(Type.String({ description: 'The end user; the memory channel when none is named (see docs/api.md).' })),
  // agentd's own settings (also as X-Agent-* headers).
  profile_id: Type.Optional(Type.String({ minLength: 1, description: 'agentd prompt profile; default: the default profile.' })),
  channel: Type.Optional(Type.String({ pattern: CHANNEL_PATTERN, maxLength: CHANNEL_MAX_LENGTH, description: 'Memory channel; default: derived from `user`, else the global channel.' })),
  use_memory: Type.Optional(Type.Boolean({ description: 'Recall and store memory; default preferences.enable_memory_by_default (true).' })),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Conversation id under which memory stores the turns; default: one per request.' })),
}, { additionalProperties: false })

export type CompletionRequestBody = Static<typeof CompletionRequestSchema>
export type WireMessage = Static<typeof WireMessageSchema>
export type WireToolDef = Static<typeof WireTool>
