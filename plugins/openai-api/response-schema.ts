// What POST /v1/chat/completions answers, for the OpenAPI document and the serializer:
// OpenAI's chat.completion, or with `stream: true` its chat.completion.chunk events
// (stream.ts writes those by hand; here they are only described).
import { Type } from '@agentd/sdk/typebox'
import type { SseEvent } from '@agentd/sdk'

const Usage = Type.Object({ prompt_tokens: Type.Integer(), completion_tokens: Type.Integer(), total_tokens: Type.Integer() })
const WireToolCall = Type.Object({ id: Type.String(), type: Type.Literal('function'), function: Type.Object({ name: Type.String(), arguments: Type.String({ description: 'JSON text' }) }) })
const FinishReason = Type.Union([Type.Literal('stop'), Type.Literal('length'), Type.Literal('tool_calls'), Type.Literal('content_filter')])

export const CompletionResponseSchema = Type.Object({
  id: Type.String(),
  object: Type.Literal('chat.completion'),
  created: Type.Integer(),
  model: Type.String({ description: 'The model that answered, as its provider names it.' }),
  system_fingerprint: Type.Null(),
  choices: Type.Array(Type.Object({
    index: Type.Integer(),
    message: Type.Object({
      role: Type.Literal('assistant'),
      content: Type.Union([Type.String(), Type.Null()], { description: 'null when the answer is only tool calls' }),
      refusal: Type.Null(),
      reasoning_content: Type.Optional(Type.String({ description: 'The model\'s reasoning, when it gave any.' })),
      tool_calls: Type.Optional(Type.Array(WireToolCall, { description: 'Calls of the client\'s own tools (`tools` in the request); agentd\'s tools run server-side.' })),
    }),
    logprobs: Type.Null(),
    finish_reason: FinishReason,
  })),
  usage: Usage,
})

const chunk = (delta: ReturnType<typeof Type.Object>, finish: boolean): ReturnType<typeof Type.Object> => Type.Object({
  id: Type.String(),
  object: Type.Literal('chat.completion.chunk'),
  created: Type.Integer(),
  model: Type.String({ description: 'provider/model, as the request resolved it' }),
  choices: Type.Array(Type.Object({ index: Type.Integer(), delta, finish_reason: finish ? FinishReason : Type.Null() })),
})

/** `data:` lines only (no `event:`), as OpenAI streams them. */
export const COMPLETION_EVENTS: SseEvent[] = [
  {
    description: 'A piece of the answer (`delta.content`, the first with `role`), of the reasoning (`delta.reasoning_content`), or the client\'s tool calls (`delta.tool_calls`).',
    data: chunk(Type.Object({
      role: Type.Optional(Type.Literal('assistant')),
      content: Type.Optional(Type.String()),
      reasoning_content: Type.Optional(Type.String()),
      tool_calls: Type.Optional(Type.Array(Type.Object({ index: Type.Integer(), id: Type.String(), type: Type.Literal('function'), function: Type.Object({ name: Type.String(), arguments: Type.String() }) }))),
    }), false),
  },
  { description: 'The last chunk of the answer: an empty delta and the finish reason.', data: chunk(Type.Object({}), true) },
  {
    description: 'With `stream_options.include_usage`: the token counts, in a chunk with no choices.',
    data: Type.Object({ id: Type.String(), object: Type.Literal('chat.completion.chunk'), created: Type.Integer(), model: Type.String(), choices: Type.Array(Type.Unknown(), { maxItems: 0 }), usage: Usage }),
  },
  { description: 'A failure after the stream started, in OpenAI\'s error shape; the stream then ends.', data: Type.Object({ error: Type.Object({ message: Type.String(), type: Type.String(), param: Type.Union([Type.String(), Type.Null()]), code: Type.Union([Type.String(), Type.Null()]) }) }) },
  { description: 'Last, on success: the literal text `[DONE]` (not JSON).', data: Type.Literal('[DONE]') },
]
