// Response schemas for the OpenAPI document where JSON Schema alone says too little: a
// stream of Server-Sent Events. Each message (`event:` line, one `data:` line of JSON) is
// described as the object it parses to, so clients see every event and its fields.
import { Type, type TSchema } from '@agentd/sdk/typebox'

export interface SseEvent {
  /** The `event:` name; omit for streams that send `data:` lines only (OpenAI's). */
  event?: string
  /** What the event means and when it comes. */
  description: string
  data: TSchema
}

/**
 * The `content` of a 200 answered as Server-Sent Events, for a route's `response`:
 * `{ 200: { description, content: { ...sseContent(events) } } }`. Fastify's serializer
 * never sees it (the stream is written as it goes); it documents the events.
 */
export function sseContent (events: SseEvent[]): { 'text/event-stream': { schema: TSchema } } {
  const messages = events.map(e => Type.Object({
    ...(e.event === undefined ? {} : { event: Type.Literal(e.event) }),
    data: e.data,
  }, { title: e.event ?? 'data', description: e.description }))
  return {
    'text/event-stream': {
      schema: Type.Union(messages, { description: 'Server-Sent Events: each message, its `event:` name and its `data:` line parsed as JSON, is one of these. Comment lines (`:`) are heartbeats.' }),
    },
  }
}
